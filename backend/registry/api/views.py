"""Registry API: DIMUTRAN runs the life of permits; holders and drivers read their own."""

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.api.permissions import DimutranOrReadOwn, IsDimutran, is_dimutran
from backend.api.validation import valid
from backend.api_errors import decision_payload

from .. import compliance, selectors
from ..models import (
    Auxiliary,
    Cmt,
    Inspection,
    Permit,
    Person,
    Renewal,
    RevocationInquiry,
    Suspension,
    Transfer,
    Vehicle,
)
from ..services import auxiliaries as auxiliary_services
from ..services import people as people_services
from ..services import permits as permit_services
from ..services import revocation as revocation_services
from ..services import transfers as transfer_services
from ..services import vehicles as vehicle_services
from . import serializers as s


class PersonViewSet(mixins.CreateModelMixin, mixins.UpdateModelMixin, viewsets.ReadOnlyModelViewSet):
    """People of the registry (permissionários and auxiliares): DIMUTRAN only."""

    queryset = Person.objects.all()
    serializer_class = s.PersonSerializer
    permission_classes = [IsDimutran]
    search_fields = ["full_name", "cpf"]

    def perform_create(self, serializer):
        serializer.instance = people_services.register_person(**serializer.validated_data)

    def perform_update(self, serializer):
        serializer.instance = people_services.update_person(serializer.instance, **serializer.validated_data)


class PermitViewSet(viewsets.ReadOnlyModelViewSet):
    """Permits: DIMUTRAN runs them (Art. 2-11); a holder reads their own.

    No direct grant: a permit is born only of its procedures, the published result of a contest
    (``/api/contests/{id}/publish-result/``, Art. 3, Art. 19) or a transfer (Art. 6)."""

    serializer_class = s.PermitSerializer
    permission_classes = [DimutranOrReadOwn]
    filterset_fields = ["status"]

    def get_queryset(self):
        return selectors.permits_held_by(self.request.user).select_related("holder")

    def _permit(self, pk):
        return get_object_or_404(Permit, pk=pk)

    @extend_schema(request=s.SignTermSerializer, responses=s.AlvaraSerializer)
    @action(detail=True, methods=["post"], url_path="sign-term")
    def sign_term(self, request, pk=None):
        """Sign the term of commitment; the alvará is issued (Art. 3, §1-2)."""
        data = valid(s.SignTermSerializer, request)
        alvara = permit_services.sign_term(permit=self._permit(pk), signed_on=data["signed_on"])
        return Response(s.AlvaraSerializer(alvara).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.RenewalRequestSerializer, responses=s.RenewalSerializer)
    @action(detail=True, methods=["post"])
    def renewals(self, request, pk=None):
        """Request the alvará's renewal with the Art. 5 checklist (Art. 4-5)."""
        data = valid(s.RenewalRequestSerializer, request)
        renewal = permit_services.request_renewal(permit=self._permit(pk), **data)
        return Response(s.RenewalSerializer(renewal).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.DateSerializer, responses=s.PermitSerializer)
    @action(detail=True, methods=["post"])
    def withdraw(self, request, pk=None):
        """The holder gives the permit up (Art. 8)."""
        data = valid(s.DateSerializer, request)
        permit = permit_services.withdraw(permit=self._permit(pk), on=data["on"])
        return Response(s.PermitSerializer(permit).data)

    @extend_schema(request=s.TransferRequestSerializer, responses=s.TransferSerializer)
    @action(detail=True, methods=["post"])
    def transfers(self, request, pk=None):
        """Transfer the permit (Art. 6, 7)."""
        data = valid(s.TransferRequestSerializer, request)
        transfer = transfer_services.request_transfer(permit=self._permit(pk), **data)
        return Response(s.TransferSerializer(transfer).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.VehicleReplaceSerializer, responses=s.VehicleSerializer)
    @action(detail=True, methods=["post"], url_path="replace-vehicle")
    def replace_vehicle(self, request, pk=None):
        """Swap the taxi (Art. 34)."""
        data = valid(s.VehicleReplaceSerializer, request)
        vehicle = vehicle_services.replace_vehicle(permit=self._permit(pk), **data)
        return Response(s.VehicleSerializer(vehicle).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.JudicialLossSerializer, responses=s.VehicleSerializer)
    @action(detail=True, methods=["post"], url_path="judicial-loss-substitution")
    def judicial_loss_substitution(self, request, pk=None):
        """Replace a vehicle lost by a final judgment, within 30 days (Art. 11, § único)."""
        data = valid(s.JudicialLossSerializer, request)
        vehicle = revocation_services.substitute_after_judicial_loss(permit=self._permit(pk), **data)
        return Response(s.VehicleSerializer(vehicle).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.JudicialLossRecordSerializer, responses=s.PermitActsSerializer)
    @action(detail=True, methods=["post"], url_path="judicial-loss")
    def judicial_loss(self, request, pk=None):
        """Record the final judgment that took the vehicle; the 30 days to substitute it run from it (Art. 11, § único)."""
        data = valid(s.JudicialLossRecordSerializer, request)
        permit = revocation_services.record_judicial_loss(permit=self._permit(pk), **data)
        return Response(s.PermitActsSerializer(permit).data)

    @extend_schema(request=s.ToleranceSerializer, responses=s.PermitActsSerializer)
    @action(detail=True, methods=["post"], url_path="vehicle-tolerance")
    def vehicle_tolerance(self, request, pk=None):
        """Tolerate, for 1 or 3 months, not operating or a stand-in vehicle (Art. 34, § único)."""
        data = valid(s.ToleranceSerializer, request)
        permit = vehicle_services.tolerate_vehicle(permit=self._permit(pk), **data)
        return Response(s.PermitActsSerializer(permit).data)

    @extend_schema(request=s.InquiryOpenSerializer, responses=s.InquirySerializer)
    @action(detail=True, methods=["post"])
    def inquiries(self, request, pk=None):
        """Open the administrative inquiry before a revocation (Art. 9-10)."""
        data = valid(s.InquiryOpenSerializer, request)
        inquiry = revocation_services.open_inquiry(permit=self._permit(pk), **data)
        return Response(s.InquirySerializer(inquiry).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=s.ComplianceSerializer)
    @action(detail=True, methods=["get"], url_path=r"compliance/(?P<person_id>\d+)")
    def compliance(self, request, pk=None, person_id=None):
        """May this person drive this cab now? (the answer dispatch uses).

        DIMUTRAN asks about anyone; a holder or driver only about the people of their permit (the answer
        names the person: no one else's data through this endpoint, LGPD)."""
        permit = get_object_or_404(self.get_queryset(), pk=pk)
        people = Person.objects.all() if is_dimutran(request.user) else selectors.people_of(permit)
        person = get_object_or_404(people, pk=person_id)
        return Response(decision_payload(compliance.may_work(person, permit)))

    def get_permissions(self):
        if self.action in {"list", "retrieve", "compliance"}:
            return [DimutranOrReadOwn()]
        return [IsDimutran()]


class RenewalViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = s.RenewalSerializer
    permission_classes = [DimutranOrReadOwn]

    def get_queryset(self):
        return Renewal.objects.filter(permit__in=selectors.permits_held_by(self.request.user))

    @extend_schema(request=s.RenewalDocumentsSerializer, responses=s.RenewalSerializer)
    @action(detail=True, methods=["post"], permission_classes=[IsDimutran])
    def documents(self, request, pk=None):
        """Record documents presented later (Art. 5); the alvará comes when complete."""
        data = valid(s.RenewalDocumentsSerializer, request)
        renewal = permit_services.update_renewal_documents(renewal=get_object_or_404(Renewal, pk=pk), **data)
        return Response(s.RenewalSerializer(renewal).data)


class VehicleViewSet(viewsets.ReadOnlyModelViewSet):
    """Taxis (Art. 28-34): DIMUTRAN registers; a holder reads their own."""

    serializer_class = s.VehicleSerializer
    permission_classes = [DimutranOrReadOwn]

    def get_queryset(self):
        return Vehicle.objects.filter(permit__in=selectors.permits_held_by(self.request.user))

    @extend_schema(request=s.VehicleRegisterSerializer, responses=s.VehicleSerializer)
    def create(self, request):
        data = valid(s.VehicleRegisterSerializer, request)
        vehicle = vehicle_services.register_vehicle(**data)
        return Response(s.VehicleSerializer(vehicle).data, status=status.HTTP_201_CREATED)


class InspectionViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Vistorias (Art. 35-40)."""

    serializer_class = s.InspectionSerializer
    permission_classes = [DimutranOrReadOwn]

    def get_queryset(self):
        return Inspection.objects.filter(vehicle__permit__in=selectors.permits_held_by(self.request.user))

    def perform_create(self, serializer):
        serializer.instance = vehicle_services.record_inspection(**serializer.validated_data)

    @extend_schema(request=s.PaidOnSerializer, responses=s.InspectionSerializer)
    @action(detail=True, methods=["post"], url_path="pay-fee", permission_classes=[IsDimutran])
    def pay_fee(self, request, pk=None):
        data = valid(s.PaidOnSerializer, request)
        inspection = vehicle_services.pay_inspection_fee(inspection=get_object_or_404(Inspection, pk=pk), **data)
        return Response(s.InspectionSerializer(inspection).data)


class AuxiliaryViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Auxiliary drivers (Art. 48-52): DIMUTRAN registers; a holder reads their own permit's."""

    serializer_class = s.AuxiliarySerializer
    permission_classes = [DimutranOrReadOwn]

    def get_queryset(self):
        return Auxiliary.objects.filter(permit__in=selectors.permits_held_by(self.request.user)).select_related("person")

    def perform_create(self, serializer):
        data = dict(serializer.validated_data)
        data["on"] = data.pop("authorized_on", None) or timezone.localdate()
        serializer.instance = auxiliary_services.authorize_auxiliary(**data)

    @extend_schema(request=s.PixReceiverSerializer, responses=s.AuxiliarySerializer)
    @action(detail=True, methods=["post"], url_path="pix-receiver", permission_classes=[IsDimutran])
    def pix_receiver(self, request, pk=None):
        """Whose Pix key receives this auxiliary's fares, a term of the authorization (docs/payments.md)."""
        data = valid(s.PixReceiverSerializer, request)
        auxiliary = get_object_or_404(Auxiliary, pk=pk)
        Auxiliary.objects.filter(pk=auxiliary.pk).update(pix_receiver=data["pix_receiver"])
        auxiliary.refresh_from_db()
        return Response(s.AuxiliarySerializer(auxiliary).data)

    @extend_schema(request=s.SocialSecurityProofSerializer, responses=s.SocialSecurityProofSerializer)
    @action(detail=True, methods=["post"], url_path="social-security-proofs", permission_classes=[IsDimutran])
    def social_security_proofs(self, request, pk=None):
        """The quarterly proof of contribution (Art. 1, §5)."""
        data = valid(s.SocialSecurityProofSerializer, request)
        proof = auxiliary_services.record_social_security_proof(
            auxiliary=get_object_or_404(Auxiliary, pk=pk),
            quarter_end=data["quarter_end"],
            presented_on=data.get("presented_on") or timezone.localdate(),
        )
        return Response(s.SocialSecurityProofSerializer(proof).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.CancelSerializer, responses=s.AuxiliarySerializer)
    @action(detail=True, methods=["post"], permission_classes=[IsDimutran])
    def cancel(self, request, pk=None):
        data = valid(s.CancelSerializer, request)
        auxiliary = auxiliary_services.cancel_auxiliary(auxiliary=get_object_or_404(Auxiliary, pk=pk), **data)
        return Response(s.AuxiliarySerializer(auxiliary).data)


class TransferViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = s.TransferSerializer
    permission_classes = [DimutranOrReadOwn]

    def get_queryset(self):
        return Transfer.objects.filter(permit__in=selectors.permits_held_by(self.request.user))

    @extend_schema(request=s.PaidOnSerializer, responses=s.TransferSerializer)
    @action(detail=True, methods=["post"], url_path="pay-fee", permission_classes=[IsDimutran])
    def pay_fee(self, request, pk=None):
        """Proof of the transfer fee; the alvará follows (Art. 6, §5)."""
        data = valid(s.PaidOnSerializer, request)
        transfer = transfer_services.pay_transfer_fee(transfer=get_object_or_404(Transfer, pk=pk), **data)
        return Response(s.TransferSerializer(transfer).data)


class InquiryViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = s.InquirySerializer
    permission_classes = [DimutranOrReadOwn]

    def get_queryset(self):
        return RevocationInquiry.objects.filter(permit__in=selectors.permits_held_by(self.request.user))

    @extend_schema(request=s.SummonsSerializer, responses=s.InquirySerializer)
    @action(detail=True, methods=["post"], permission_classes=[IsDimutran])
    def summon(self, request, pk=None):
        """Record the day the holder was summoned; the defence term runs from it (Art. 10, §1)."""
        data = valid(s.SummonsSerializer, request)
        inquiry = revocation_services.summon(inquiry=get_object_or_404(RevocationInquiry, pk=pk), **data)
        return Response(s.InquirySerializer(inquiry).data)

    @extend_schema(request=s.DefenceSerializer, responses=s.InquirySerializer)
    @action(detail=True, methods=["post"], permission_classes=[IsDimutran])
    def defence(self, request, pk=None):
        """The written defence, within 5 working days (Art. 10, §1)."""
        data = valid(s.DefenceSerializer, request)
        inquiry = revocation_services.file_defence(inquiry=get_object_or_404(RevocationInquiry, pk=pk), **data)
        return Response(s.InquirySerializer(inquiry).data)

    @extend_schema(request=s.DecideSerializer, responses=s.InquirySerializer)
    @action(detail=True, methods=["post"], permission_classes=[IsDimutran])
    def decide(self, request, pk=None):
        """Decide the inquiry; a revocation returns the permit (Art. 10, §2, Art. 11)."""
        data = valid(s.DecideSerializer, request)
        inquiry = revocation_services.decide_inquiry(inquiry=get_object_or_404(RevocationInquiry, pk=pk), **data)
        return Response(s.InquirySerializer(inquiry).data)


class CmtViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """CMTs issued by the municipality (Art. 51): DIMUTRAN issues; a driver reads their own."""

    serializer_class = s.CmtSerializer
    permission_classes = [DimutranOrReadOwn]
    queryset = Cmt.objects.none()  # the schema's model; get_queryset chooses the rows

    def get_queryset(self):
        user = self.request.user
        if user.is_staff:
            return Cmt.objects.select_related("person")
        return Cmt.objects.filter(person__user=user).select_related("person")

    def perform_create(self, serializer):
        serializer.instance = auxiliary_services.issue_cmt(**serializer.validated_data)


class SuspensionViewSet(viewsets.ReadOnlyModelViewSet):
    """Suspensions (Art. 54, b): while one runs the cab gets no ride. Read-only: a suspension is only the
    outcome of an auto, its defence and the decision (``/api/autos/{id}/decide/``, Art. 60-63)."""

    serializer_class = s.SuspensionSerializer
    permission_classes = [DimutranOrReadOwn]

    def get_queryset(self):
        return Suspension.objects.filter(permit__in=selectors.permits_held_by(self.request.user))


DETAIL = inline_serializer("Detail", {"detail": serializers.CharField()})


class MeView(APIView):
    """The logged-in person: their CMT, the cab they drive (CVI) and whether they may work now."""

    @extend_schema(responses={200: s.MeSerializer, 404: DETAIL})
    def get(self, request):
        person = getattr(request.user, "person", None)
        if person is None:
            raise NotFound(_("Este usuário não está vinculado a um motorista."))
        from .cards import driver_cards

        return Response(driver_cards(person))
