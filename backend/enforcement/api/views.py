"""Enforcement API: autos, defence, decisions, appeals, fines, complaints (Art. 54-64)."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.authentication import SessionAuthentication
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.accounts.tokens import ExpiringTokenAuthentication
from backend.api.permissions import IsDimutran, is_dimutran
from backend.api.throttling import ComplaintThrottle
from backend.api.validation import valid
from backend.parameters.selectors import municipal_holidays
from backend.registry.models import Person
from backend.trips.api.authentication import PassengerAuthentication
from taxilaw import due_process

from .. import selectors
from ..models import Appeal, AutoDeInfracao, Complaint, InfractionType, Penalty, PenaltyDecision
from ..services import appeals as appeal_services
from ..services import autos as auto_services
from ..services import catalogue as catalogue_services
from ..services import complaints as complaint_services
from ..services import decisions as decision_services
from ..services import fines as fine_services
from . import serializers as s
from .permissions import DimutranOrInfractor, DimutranWritesOthersRead, IsPassenger, person_of


def _own_or_dimutran(request, person_id):
    if is_dimutran(request.user):
        return
    person = person_of(request.user)
    if person is None or person.pk != person_id:
        raise PermissionDenied("Apenas a DIMUTRAN ou o próprio infrator.")


def _filed_on(request, data, key="filed_on"):
    """The infractor files today; DIMUTRAN may register the date a paper filing arrived."""
    from django.utils import timezone

    return data[key] if is_dimutran(request.user) else timezone.localdate()


class InfractionTypeViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """The infraction catalogue (Art. 64), append-only: DIMUTRAN records a new dated version; none is edited."""

    queryset = InfractionType.objects.all()
    serializer_class = s.InfractionTypeSerializer
    permission_classes = [DimutranWritesOthersRead]
    filterset_fields = ["code", "group"]

    def perform_create(self, serializer):
        data = dict(serializer.validated_data)
        data.pop("effective_until", None)
        serializer.instance = catalogue_services.record_version(**data)


class AutoViewSet(viewsets.ReadOnlyModelViewSet):
    """Autos de infração (Art. 60-63): DIMUTRAN draws them up and judges; the infractor reads and defends their own."""

    serializer_class = s.AutoSerializer
    permission_classes = [DimutranWritesOthersRead]

    def get_permissions(self):
        if self.action == "defence":
            return [DimutranOrInfractor()]
        return super().get_permissions()

    def get_queryset(self):
        rows = AutoDeInfracao.objects.select_related("defence", "decision").prefetch_related("infractions")
        if is_dimutran(self.request.user):
            return rows
        person = person_of(self.request.user)
        return rows.filter(person=person) if person else rows.none()

    def _auto(self, pk):
        return get_object_or_404(self.get_queryset(), pk=pk)

    def _ok(self, auto, code=status.HTTP_200_OK):
        auto = self.get_queryset().get(pk=auto.pk)
        return Response(s.AutoSerializer(auto).data, status=code)

    @extend_schema(request=s.AutoCreateSerializer, responses=s.AutoSerializer)
    def create(self, request):
        """Draw up an auto from an inspector's observation (Art. 60, Art. 61)."""
        data = valid(s.AutoCreateSerializer, request)
        auto = auto_services.issue(inspector=request.user, **data)
        return self._ok(auto, status.HTTP_201_CREATED)

    @extend_schema(request=s.DeliverCopySerializer, responses=s.AutoSerializer)
    @action(detail=True, methods=["post"], url_path="deliver-copy")
    def deliver_copy(self, request, pk=None):
        """The infractor received the copy of the auto (Art. 62)."""
        data = valid(s.DeliverCopySerializer, request)
        return self._ok(auto_services.deliver_copy(auto=self._auto(pk), delivered_on=data["delivered_on"]))

    @extend_schema(request=s.AutoDefenceCreateSerializer, responses=s.AutoSerializer)
    @action(detail=True, methods=["post"])
    def defence(self, request, pk=None):
        """The written defence within 5 days of receipt (Art. 63, §1)."""
        auto = self._auto(pk)
        data = valid(s.AutoDefenceCreateSerializer, request)
        auto_services.file_defence(auto=auto, text=data["text"], filed_on=_filed_on(request, data))
        return self._ok(auto, status.HTTP_201_CREATED)

    @extend_schema(request=s.AutoDecideSerializer, responses=s.AutoSerializer)
    @action(detail=True, methods=["post"])
    def decide(self, request, pk=None):
        """Judge the auto: penalties cumulated, fines with recidivism (Art. 54-59, Art. 63)."""
        data = valid(s.AutoDecideSerializer, request)
        choices = [decision_services.PenaltyChoice(**p) for p in data["penalties"]]
        decision_services.decide(
            auto=self._auto(pk), decided_on=data["decided_on"], reasoning=data["reasoning"], upheld=data["upheld"],
            choices=choices, involuntary=data["involuntary"], serious_consequences=data["serious_consequences"],
        )
        return self._ok(self._auto(pk), status.HTTP_201_CREATED)

    @extend_schema(request=s.EnforcementNotifySerializer, responses=s.AutoSerializer)
    @action(detail=True, methods=["post"])
    def notify(self, request, pk=None):
        """The infractor was notified of the decision (Art. 63, §2)."""
        auto = self._auto(pk)
        decision = get_object_or_404(PenaltyDecision, auto=auto)
        data = valid(s.EnforcementNotifySerializer, request)
        decision_services.notify_decision(decision=decision, notified_on=data["notified_on"])
        return self._ok(auto)

    @extend_schema(responses=s.AutoDeadlinesSerializer)
    @action(detail=True, methods=["get"])
    def deadlines(self, request, pk=None):
        """Every term of the procedure as computed (Art. 63, §1, §3, §4)."""
        auto = self._auto(pk)
        holidays = municipal_holidays()
        decision = getattr(auto, "decision", None)
        appeals = list(decision.appeals.all()) if decision else []
        first = next((a for a in appeals if a.instance == due_process.AppealInstance.COMUTRAM.value), None)
        return Response({
            "defence_until": due_process.defence_deadline(auto.copy_delivered_on, holidays) if auto.copy_delivered_on else None,
            "appeal_comutram_until": due_process.appeal_deadline(decision.notified_on, holidays) if decision and decision.notified_on else None,
            "appeal_mayor_until": due_process.appeal_deadline(first.judgment_notified_on, holidays) if first and first.judgment_notified_on else None,
            "judgment_notice_until": [due_process.judgment_notice_deadline(a.judged_on, holidays) for a in appeals if a.judged_on],
        })


class AppealViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Appeals (Art. 63, §3-§5): the infractor (or DIMUTRAN on their behalf) files; COMUTRAM / the Mayor judge."""

    serializer_class = s.AppealSerializer

    def get_permissions(self):
        if self.action in ("judge", "notify_judgment"):
            return [IsDimutran()]
        return [DimutranOrInfractor()]

    def get_queryset(self):
        rows = Appeal.objects.select_related("decision__auto").prefetch_related("reductions", "archived_inquiries")
        if is_dimutran(self.request.user):
            return rows
        person = person_of(self.request.user)
        return rows.filter(decision__auto__person=person) if person else rows.none()

    @extend_schema(request=s.AppealCreateSerializer, responses=s.AppealSerializer)
    def create(self, request):
        """Appeal to COMUTRAM (10 days of the notice), then to the Mayor; a fine needs the prior deposit (Art. 63, §3, Art. 63, §5)."""
        data = valid(s.AppealCreateSerializer, request)
        _own_or_dimutran(request, data["decision"].auto.person_id)
        appeal = appeal_services.file_appeal(
            decision=data["decision"], instance=data["instance"], filed_on=_filed_on(request, data), grounds=data["grounds"],
            deposit_receipt=data["deposit_receipt"], deposit_amount=data["deposit_amount"],
        )
        return Response(s.AppealSerializer(appeal).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.AppealJudgeSerializer, responses=s.AppealSerializer)
    @action(detail=True, methods=["post"])
    def judge(self, request, pk=None):
        """Register COMUTRAM's or the Mayor's judgment: upheld, granted, or granted in part with the reduced penalties (Art. 63, §3)."""
        data = valid(s.AppealJudgeSerializer, request)
        reductions = [appeal_services.ReductionChoice(**r) for r in data.pop("reductions")]
        appeal = appeal_services.judge_appeal(appeal=get_object_or_404(Appeal, pk=pk), reductions=reductions, **data)
        return Response(s.AppealSerializer(appeal).data)

    @extend_schema(request=s.EnforcementNotifySerializer, responses=s.AppealSerializer)
    @action(detail=True, methods=["post"], url_path="notify-judgment")
    def notify_judgment(self, request, pk=None):
        """The infractor was told the judgment, within 10 days of it (Art. 63, §4)."""
        data = valid(s.EnforcementNotifySerializer, request)
        appeal = appeal_services.notify_judgment(appeal=get_object_or_404(Appeal, pk=pk), notified_on=data["notified_on"])
        return Response(s.AppealSerializer(appeal).data)


class PenaltyViewSet(viewsets.ReadOnlyModelViewSet):
    """Penalties imposed (Art. 54); DIMUTRAN records fine payments."""

    serializer_class = s.PenaltySerializer
    permission_classes = [DimutranWritesOthersRead]
    filterset_fields = ["kind"]

    def get_queryset(self):
        rows = Penalty.objects.select_related("infraction", "decision").prefetch_related("payments")
        if is_dimutran(self.request.user):
            return rows
        person = person_of(self.request.user)
        return rows.filter(decision__auto__person=person) if person else rows.none()

    @extend_schema(request=s.FinePaySerializer, responses=s.PenaltySerializer)
    @action(detail=True, methods=["post"])
    def pay(self, request, pk=None):
        """Record the payment of a fine, to the cent (Art. 54, c; Art. 5, V)."""
        data = valid(s.FinePaySerializer, request)
        penalty = get_object_or_404(Penalty, pk=pk)
        fine_services.pay_fine(penalty=penalty, **data)
        return Response(s.PenaltySerializer(self.get_queryset().get(pk=pk)).data, status=status.HTTP_201_CREATED)


class ComplaintViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Passenger complaints (Art. 60, § único): a passenger files about their own completed ride; DIMUTRAN triages."""

    serializer_class = s.ComplaintSerializer
    authentication_classes = [PassengerAuthentication, ExpiringTokenAuthentication, SessionAuthentication]

    def get_permissions(self):
        if self.action == "create":
            return [IsPassenger()]
        return [IsDimutran()]

    def get_throttles(self):
        return [ComplaintThrottle()] if self.action == "create" else super().get_throttles()

    def get_queryset(self):
        return Complaint.objects.select_related("ride", "passenger")

    @extend_schema(request=s.ComplaintCreateSerializer, responses=s.ComplaintSerializer)
    def create(self, request):
        """File a complaint about one's own completed ride; the ride's data is attached (Art. 60)."""
        data = valid(s.ComplaintCreateSerializer, request)
        complaint = complaint_services.file_complaint(passenger=request.auth, ride_id=data["ride"], description=data["description"])
        return Response(s.ComplaintSerializer(complaint).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.ComplaintTriageSerializer, responses=s.ComplaintSerializer)
    @action(detail=True, methods=["post"])
    def triage(self, request, pk=None):
        """Turn the complaint into an auto, or dismiss it with reasons (Art. 60, § único)."""
        data = valid(s.ComplaintTriageSerializer, request)
        complaint = complaint_services.triage_complaint(complaint=get_object_or_404(Complaint, pk=pk), user=request.user, **data)
        return Response(s.ComplaintSerializer(self.get_queryset().get(pk=complaint.pk)).data)


class InfractorRecordView(APIView):
    """The infractor's record: proven infractions (Art. 62, § único) and unpaid fines (Art. 5, V)."""

    permission_classes = [DimutranOrInfractor]

    @extend_schema(responses=inline_serializer("InfractorRecord", {
        "person": serializers.IntegerField(),
        "infractions": s.AutoSerializer(many=True),
        "unpaid_fines": s.PenaltySerializer(many=True),
        "unpaid_total": serializers.CharField(help_text="R$, the fines still owed (Art. 5, V)"),
    }))
    def get(self, request, person_id):
        _own_or_dimutran(request, person_id)
        person = get_object_or_404(Person, pk=person_id)
        unpaid = selectors.unpaid_fines(person)
        return Response({
            "person": person.pk,
            "infractions": s.AutoSerializer(selectors.infractor_record(person), many=True).data,
            "unpaid_fines": s.PenaltySerializer(unpaid, many=True).data,
            "unpaid_total": str(sum((selectors.outstanding(p) for p in unpaid), start=0)),
        })
