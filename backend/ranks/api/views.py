"""Ranks API: DIMUTRAN locates ranks, runs contests and reads reports; cabs check in; the map is public."""


from django.http import JsonResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.api.params import int_param
from backend.api.permissions import DimutranOrReadOwn, IsDimutran, is_dimutran
from backend.api.validation import valid
from backend.api_errors import decision_payload
from backend.registry.selectors import permits_visible_to

from .. import selectors
from ..models import AbsenceJustification, Contest, Rank, RankCheckIn, SwapRequest
from ..services import contests as contest_services
from ..services import ranks as rank_services
from . import serializers as s


class RankViewSet(viewsets.ModelViewSet):
    """Ranks (pontos, Art. 22-27): DIMUTRAN writes, everyone authenticated reads."""

    queryset = Rank.objects.all()
    serializer_class = s.RankSerializer
    permission_classes = [DimutranOrReadOwn]

    def perform_create(self, serializer):
        serializer.instance = rank_services.create_rank(**serializer.validated_data)

    def perform_update(self, serializer):
        serializer.instance = rank_services.update_rank(serializer.instance, **serializer.validated_data)

    def destroy(self, request, *args, **kwargs):
        """Cancel the rank (Art. 23; Art. 27, §2): kept in the records, no longer in operation."""
        rank = rank_services.cancel_rank(self.get_object(), timezone.localdate())
        return Response(s.RankSerializer(rank).data)

    @extend_schema(methods=["GET"], responses=s.AssignmentSerializer(many=True))
    @extend_schema(methods=["POST"], request=s.AssignSerializer, responses={201: s.AssignmentSerializer})
    @action(detail=True, methods=["get", "post"], permission_classes=[DimutranOrReadOwn], pagination_class=None)
    def titulars(self, request, pk=None):
        """Current titulars of a private rank (GET); designate a permit (POST, Art. 22, I)."""
        rank = self.get_object()
        if request.method == "GET":
            return Response(s.AssignmentSerializer(selectors.current_assignments(rank).select_related("permit"), many=True).data)
        data = valid(s.AssignSerializer, request)
        assignment = rank_services.designate_titular(permit=data["permit"], rank=rank, since=data["since"])
        return Response(s.AssignmentSerializer(assignment).data, status=status.HTTP_201_CREATED)

    @extend_schema(methods=["GET"], responses=s.ObservationSerializer(many=True))
    @extend_schema(methods=["POST"], request=s.ObservationSerializer, responses={201: s.ObservationSerializer})
    @action(detail=True, methods=["get", "post"], permission_classes=[IsDimutran], pagination_class=None)
    def observations(self, request, pk=None):
        """Inspections of the rank (Art. 27, §2); ``empty`` omitted = computed from the check-ins."""
        rank = self.get_object()
        if request.method == "GET":
            return Response(s.ObservationSerializer(rank.observations.all(), many=True).data)
        data = valid(s.ObservationSerializer, request)
        obs = rank_services.record_observation(rank=rank, **data)
        return Response(s.ObservationSerializer(obs).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=OpenApiTypes.OBJECT)
    @action(detail=True, methods=["get"], permission_classes=[IsDimutran])
    def staffing(self, request, pk=None):
        """Is the rank kept provided with cabs? (Art. 27, §2)"""
        rank = self.get_object()
        return Response({"rank": rank.pk, "observations": rank.observations.count(), **decision_payload(selectors.staffing(rank))})

    @extend_schema(
        parameters=[OpenApiParameter("year", int), OpenApiParameter("month", int)], responses=OpenApiTypes.OBJECT
    )
    @action(detail=True, methods=["get"], permission_classes=[IsDimutran])
    def absence(self, request, pk=None):
        """Attendance of each titular in the month, from the check-ins, less the force majeure DIMUTRAN accepted (Art. 9, V)."""
        rank = self.get_object()
        today = timezone.localdate()
        year = int_param(request.query_params, "year", today.year, minimum=1987, maximum=9999)
        month = int_param(request.query_params, "month", today.month, minimum=1, maximum=12)
        rows = selectors.attendance(rank, year, month, today)
        return Response({
            "rank": rank.pk, "year": year, "month": month,
            "permits": [
                {
                    "permit": r["permit"].pk, "number": r["permit"].number,
                    "attended_days": [d.isoformat() for d in r["attended_days"]],
                    "absent_days": [d.isoformat() for d in r["absent_days"]],
                    "justified_days": [d.isoformat() for d in r["justified_days"]],
                    **decision_payload(r["decision"]),
                }
                for r in rows
            ],
        })


class CheckInViewSet(viewsets.ReadOnlyModelViewSet):
    """Cabs at ranks (Art. 22; Art. 27, §3; Art. 9, V): the holder or driver checks in their own cab; DIMUTRAN any."""

    serializer_class = s.CheckInSerializer

    def get_queryset(self):
        qs = RankCheckIn.objects.all()
        if not is_dimutran(self.request.user):
            qs = qs.filter(permit__in=permits_visible_to(self.request.user))
        rank = int_param(self.request.query_params, "rank")
        if rank is not None:
            qs = qs.filter(rank_id=rank)
        if self.request.query_params.get("open"):
            qs = qs.filter(checked_out_at__isnull=True)
        return qs

    def _may_act_for(self, permit):
        if not is_dimutran(self.request.user) and not permits_visible_to(self.request.user).filter(pk=permit.pk).exists():
            raise PermissionDenied(_("Só o permissionário ou seu motorista auxiliar pode registrar este táxi."))

    @extend_schema(request=s.CheckInRequestSerializer, responses=s.CheckInSerializer)
    def create(self, request):
        """Check in at a rank where the server last saw the cab (its position sent to the dispatch socket), free
        (Art. 9, V; Art. 22); a visitor at a private rank only within Art. 27, §3. A position in the request is not
        evidence. DIMUTRAN records a cab its inspector sees there."""
        data = valid(s.CheckInRequestSerializer, request)
        self._may_act_for(data["permit"])
        staff = is_dimutran(request.user)
        at = data.get("at") if staff else None
        checkin = rank_services.check_in(
            permit=data["permit"], rank=data["rank"], at=at, recorded_by_inspector=staff,
            correction_reason=data.get("correction_reason", "") if staff else "", recorded_by=request.user if staff else None,
        )
        return Response(s.CheckInSerializer(checkin).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.CheckOutRequestSerializer, responses=s.CheckInSerializer)
    @action(detail=True, methods=["post"], url_path="check-out")
    def check_out(self, request, pk=None):
        checkin = self.get_object()
        data = valid(s.CheckOutRequestSerializer, request)
        at = data.get("at") if is_dimutran(request.user) else None
        return Response(s.CheckInSerializer(rank_services.check_out(checkin=checkin, at=at)).data)


class SwapViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Swaps of ranks between holders (Art. 26): DIMUTRAN registers and decides them."""

    queryset = SwapRequest.objects.all()
    serializer_class = s.SwapRequestSerializer
    permission_classes = [IsDimutran]

    def perform_create(self, serializer):
        d = serializer.validated_data
        serializer.instance = rank_services.request_swap(
            permit_a=d["permit_a"], permit_b=d["permit_b"], requested_on=d.get("requested_on") or timezone.localdate()
        )

    @extend_schema(request=s.SwapDecisionSerializer, responses=s.SwapRequestSerializer)
    @action(detail=True, methods=["post"])
    def authorize(self, request, pk=None):
        """Prior, express authorization (Art. 26; refused within 2 years at the rank, §3)."""
        data = valid(s.SwapDecisionSerializer, request)
        swap = rank_services.authorize_swap(swap=self.get_object(), on=data.get("on") or timezone.localdate())
        return Response(s.SwapRequestSerializer(swap).data)

    @extend_schema(request=s.SwapDecisionSerializer, responses=s.SwapRequestSerializer)
    @action(detail=True, methods=["post"])
    def refuse(self, request, pk=None):
        data = valid(s.SwapDecisionSerializer, request)
        swap = rank_services.refuse_swap(swap=self.get_object(), on=data.get("on") or timezone.localdate(), reason=data["reason"])
        return Response(s.SwapRequestSerializer(swap).data)


class ContestViewSet(viewsets.ReadOnlyModelViewSet):
    """Contests (Art. 15-21; promotion, Art. 27): DIMUTRAN publishes the edital, registers and classifies."""

    queryset = Contest.objects.all()
    serializer_class = s.ContestSerializer
    permission_classes = [DimutranOrReadOwn]

    @extend_schema(request=s.ContestSerializer, responses=s.ContestSerializer)
    def create(self, request):
        """Publish an edital (Art. 16-18; Art. 41, §2)."""
        data = valid(s.ContestSerializer, request)
        contest = contest_services.publish_contest(
            title=data["title"], publication_dates=data["publication_dates"], contest_date=data["contest_date"],
            promotion=data.get("promotion", False),
            vacancies=[(v["rank"], v["permits"]) for v in data["vacancies"]],
            commission=[(m["name"], m["body"]) for m in data["commission"]],
        )
        return Response(s.ContestSerializer(contest).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.CandidateSerializer, responses=s.CandidateSerializer(many=True))
    @action(detail=True, methods=["get", "post"], permission_classes=[IsDimutran])
    def candidates(self, request, pk=None):
        """Candidates and their points (Art. 20); register one (Art. 19; Art. 28)."""
        contest = self.get_object()
        if request.method == "GET":
            return Response(s.CandidateSerializer(contest.candidates.select_related("person"), many=True).data)
        data = valid(s.CandidateSerializer, request)
        candidate = contest_services.register_candidate(contest=contest, **data)
        return Response(s.CandidateSerializer(candidate).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.ClassifySerializer, responses=s.ContestSerializer)
    @action(detail=True, methods=["post"], permission_classes=[IsDimutran])
    def classify(self, request, pk=None):
        """Classify (Art. 19-21), allocate to the ranks (Art. 19) and publish the result."""
        data = valid(s.ClassifySerializer, request)
        contest = contest_services.classify_contest(contest=self.get_object(), published_on=data.get("published_on") or timezone.localdate())
        return Response(s.ContestSerializer(contest).data)

    @extend_schema(request=s.DrawSerializer, responses=s.DrawSerializer)
    @action(detail=True, methods=["get", "post"], permission_classes=[IsDimutran])
    def draws(self, request, pk=None):
        """Public draws of full ties (Art. 21 exhausted; Art. 18, § único): re-orders, clears the flag, re-allocates."""
        contest = self.get_object()
        if request.method == "GET":
            return Response(s.DrawSerializer(contest.draws.all(), many=True).data)
        data = valid(s.DrawSerializer, request)
        draw = contest_services.record_draw(contest=contest, candidate_ids=data["drawn_order"], drawn_on=data["drawn_on"],
                                    minutes_reference=data["minutes_reference"])
        return Response(s.DrawSerializer(draw).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.PublishResultSerializer, responses=s.ContestSerializer)
    @action(detail=True, methods=["post"], url_path="publish-result", permission_classes=[IsDimutran])
    def publish_result(self, request, pk=None):
        """Publish the result: permits to the winners, awaiting the term (Art. 3; Art. 19; Art. 20, §2), or promotion (Art. 27)."""
        data = valid(s.PublishResultSerializer, request)
        contest = contest_services.publish_result(contest=self.get_object(), result_published_on=data["result_published_on"])
        return Response(s.ContestSerializer(contest).data)

    @extend_schema(responses=s.CandidateSerializer(many=True))
    @action(detail=True, methods=["get"])
    def ranking(self, request, pk=None):
        """The published ranking (Art. 19-21)."""
        contest = self.get_object()
        if contest.status not in (Contest.Status.CLASSIFIED, Contest.Status.GRANTED):
            return Response({"detail": _("O resultado deste concurso ainda não foi publicado.")}, status=status.HTTP_404_NOT_FOUND)
        ranked, excluded = selectors.ranking(contest)
        return Response({"ranked": s.CandidateSerializer(ranked, many=True).data, "excluded": s.CandidateSerializer(excluded, many=True).data})


class JustificationViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Force majeure for absences from the rank (Art. 9, V): the holder or driver files, DIMUTRAN decides."""

    serializer_class = s.JustificationSerializer

    def get_queryset(self):
        qs = AbsenceJustification.objects.select_related("permit")
        if not is_dimutran(self.request.user):
            qs = qs.filter(permit__in=permits_visible_to(self.request.user))
        permit = int_param(self.request.query_params, "permit")
        return qs if permit is None else qs.filter(permit_id=permit)

    def perform_create(self, serializer):
        d = serializer.validated_data
        if not is_dimutran(self.request.user) and not permits_visible_to(self.request.user).filter(pk=d["permit"].pk).exists():
            raise PermissionDenied(_("Só o permissionário ou seu motorista auxiliar pode justificar as ausências deste táxi."))
        serializer.instance = rank_services.file_justification(permit=d["permit"], start=d["start"], end=d["end"], reason=d["reason"])

    def _decide(self, request, accept):
        if not is_dimutran(request.user):
            raise PermissionDenied(IsDimutran.message)
        data = valid(s.JustificationDecisionSerializer, request)
        j = rank_services.decide_justification(justification=self.get_object(), accept=accept,
                                          on=data.get("on") or timezone.localdate(), text=data["text"])
        return Response(s.JustificationSerializer(j).data)

    @extend_schema(request=s.JustificationDecisionSerializer, responses=s.JustificationSerializer)
    @action(detail=True, methods=["post"])
    def accept(self, request, pk=None):
        """DIMUTRAN accepts the force majeure: the days are no longer absences (Art. 9, V)."""
        return self._decide(request, True)

    @extend_schema(request=s.JustificationDecisionSerializer, responses=s.JustificationSerializer)
    @action(detail=True, methods=["post"])
    def refuse(self, request, pk=None):
        """DIMUTRAN refuses the justification (Art. 9, V)."""
        return self._decide(request, False)


class CentralZoneUploadView(APIView):
    """Upload a new dated central-zone polygon (Art. 24): DIMUTRAN only."""

    permission_classes = [IsDimutran]

    @extend_schema(request=s.CentralZoneUploadSerializer, responses=s.CentralZoneSerializer)
    def post(self, request):
        data = valid(s.CentralZoneUploadSerializer, request)
        zone = rank_services.upload_central_zone(**data)
        return Response(s.CentralZoneSerializer(zone).data, status=status.HTTP_201_CREATED)


class ClassifyView(APIView):
    """Zone of a point: central (Art. 24), peripheral (Art. 25) or outside the municipality. Public."""

    permission_classes = [AllowAny]
    authentication_classes = []

    @extend_schema(parameters=[OpenApiParameter("lat", float, required=True), OpenApiParameter("lon", float, required=True)],
                   responses=OpenApiTypes.OBJECT)
    def get(self, request):
        try:
            lat = float(request.query_params["lat"])
            lon = float(request.query_params["lon"])
        except (KeyError, ValueError):
            raise ValidationError({"lat": [_("Informe lat e lon em graus decimais (WGS 84).")]}) from None
        if not (-90 <= lat <= 90 and -180 <= lon <= 180):
            raise ValidationError({"lat": [_("Coordenadas fora do intervalo válido (WGS 84).")]})
        zone = selectors.classify(lon, lat)
        return Response({"zone": zone.value, "article": zone.article, "label": str(zone.label)})


def _geojson(data):
    return JsonResponse(data, content_type="application/geo+json", json_dumps_params={"ensure_ascii": False})


@extend_schema(responses={(200, "application/geo+json"): OpenApiTypes.OBJECT})
class GeoView(APIView):
    permission_classes = [AllowAny]
    authentication_classes = []
    build = None

    def get(self, request):
        return _geojson(type(self).build())


class CentralZoneGeoJSON(GeoView):
    """The central zone in force (Art. 24) as a GeoJSON FeatureCollection. Public."""

    build = staticmethod(selectors.central_zone_geojson)


class BoundaryGeoJSON(GeoView):
    """The municipality of Muriaé (IBGE) as a GeoJSON FeatureCollection. Public."""

    build = staticmethod(selectors.boundary_geojson)


class RanksGeoJSON(GeoView):
    """The ranks in operation as GeoJSON Points. Public."""

    build = staticmethod(selectors.ranks_geojson)
