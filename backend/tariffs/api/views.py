"""Tariff API: everyone authenticated reads the tariffs; DIMUTRAN decrees them."""

from decimal import Decimal, InvalidOperation

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import JSONParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.api.fields import AwareDateTimeField
from backend.api.permissions import DimutranOrReadOwn, IsDimutran
from backend.api.throttling import AnonRateThrottle
from backend.api_errors import decision_payload
from taxilaw import tariffs as law
from taxilaw.brazil import brl

from .. import selectors, services
from ..models import CorrectionTable, TariffDecree, TariffStudy
from . import serializers as s
from .cab import cab_taximeter_answer


def _at(request):
    """``?at=`` (aware ISO 8601) or now."""
    raw = request.query_params.get("at")
    if not raw:
        return timezone.now()
    try:
        return AwareDateTimeField().run_validation(raw)
    except ValidationError as exc:
        raise ValidationError({"at": exc.detail}) from exc


class TariffDecreeViewSet(viewsets.ModelViewSet):
    """Decreed tariffs (Art. 44-45): read by every authenticated user, written by DIMUTRAN."""

    queryset = TariffDecree.objects.all()
    serializer_class = s.TariffDecreeSerializer
    permission_classes = [DimutranOrReadOwn]

    def perform_create(self, serializer):
        serializer.instance = services.decree_tariff(**serializer.validated_data)

    def perform_update(self, serializer):
        serializer.instance = services.amend_tariff(serializer.instance, **serializer.validated_data)

    def perform_destroy(self, instance):
        services.revoke_tariff(instance)

    @extend_schema(parameters=[OpenApiParameter("at", str, description="instante ISO 8601 com fuso (padrão: agora)")],
                   responses={200: OpenApiTypes.OBJECT})
    @action(detail=False, methods=["get"], permission_classes=[IsAuthenticated])
    def current(self, request):
        """The tariff in force, the flag now (Art. 45, I-II), the Art. 44 review alert and the meter's parameters and
        municipal holidays, which the app caches for offline use (Art. 43)."""
        at = _at(request)
        try:
            tariff = selectors.tariff_in_force(at)
        except law.NoTariffInForce:
            tariff = None
        taximeter = cab_taximeter_answer(request.user, at)
        if taximeter is not None:  # a driver's meter runs what its taxímetro was afered for (Art. 45, §3, Art. 47, §2)
            tariff = taximeter.pop("regime").tariff
        flag = selectors.flag_now(at)
        alert = selectors.review_alert(at)
        return Response({
            "at": at.isoformat(),
            "tariff": s.tariff_payload(tariff),
            "flag": {
                "flag": int(flag.flag), "code": flag.code, "label": str(_(flag.label)), "article": flag.article,
                "holiday_name": flag.holiday_name,
                "price_km": str(tariff.price_km(flag.flag)) if tariff else None,
                "price_km_display": brl(tariff.price_km(flag.flag)) if tariff else None,
            },
            "review_alert": decision_payload(alert),
            "correction_tables": s.CorrectionTableSerializer(selectors.correction_tables_in_use(at), many=True).data,
            "taximeter": taximeter,
            "meter": selectors.meter_config(selectors._day(at)),  # the phone runs exactly the server's meter (Art. 43)
        })

    @extend_schema(parameters=[OpenApiParameter("at", str)], responses={200: OpenApiTypes.OBJECT})
    @action(detail=False, methods=["get"], url_path="review-alert", permission_classes=[IsAuthenticated])
    def review_alert(self, request):
        """Art. 44: is the tariff in force older than six months?"""
        return Response(decision_payload(selectors.review_alert(_at(request))))


class CorrectionTableViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Correction tables (Art. 45, §3-§4): read by every authenticated user, registered by DIMUTRAN."""

    queryset = CorrectionTable.objects.select_related("tariff")
    serializer_class = s.CorrectionTableSerializer
    permission_classes = [DimutranOrReadOwn]

    def perform_create(self, serializer):
        serializer.instance = services.authorize_correction_table(**serializer.validated_data)

    @extend_schema(parameters=[OpenApiParameter("start", str), OpenApiParameter("stop", str), OpenApiParameter("step", str)],
                   responses={200: OpenApiTypes.OBJECT})
    @action(detail=True, methods=["get"])
    def rows(self, request, pk=None):
        """Printable lines "meter shows -> pay" (Art. 45, §3 and §5)."""
        table = self.get_object().to_law()
        try:
            start = Decimal(request.query_params.get("start", str(table.tariff.bandeirada)))
            stop = Decimal(request.query_params.get("stop", "100.00"))
            step = Decimal(request.query_params.get("step", "0.10"))
            if not (start.is_finite() and stop.is_finite() and step.is_finite()) or step <= 0 or (stop - start) / step > 5000:
                raise InvalidOperation
        except (InvalidOperation, ValueError):
            raise ValidationError({"detail": _("Informe start, stop e step válidos (no máximo 5000 linhas).")}) from None
        return Response([{"meter": str(m), "pay": str(p), "meter_display": brl(m), "pay_display": brl(p)}
                         for m, p in table.rows(start, stop, step)])


class TariffStudyViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Tariff studies (Art. 42): DIMUTRAN only."""

    queryset = TariffStudy.objects.prefetch_related("items")
    serializer_class = s.TariffStudySerializer
    permission_classes = [IsDimutran]

    def perform_create(self, serializer):
        serializer.instance = services.create_study(created_by=self.request.user, **serializer.validated_data)


class MeterRecomputeView(APIView):
    """POST a trip's GPS trace; the server re-runs the meter and compares (Art. 43)."""

    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser]
    serializer_class = s.RecomputeSerializer

    @extend_schema(request=s.RecomputeSerializer, responses={200: OpenApiTypes.OBJECT})
    def post(self, request):
        if not isinstance(request.data, dict):
            raise ValidationError({"detail": _("Envie um objeto JSON com trace, phone_total, started_at e stopped_at.")})
        serializer = s.RecomputeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        result = services.recompute_trip(serializer.fixes(), data["phone_total"], data.get("started_at"), data.get("stopped_at"))
        reading = result.reading.to_dict()
        reading["flag_label"] = str(_(reading["flag_label"]))
        return Response({
            "phone_total": str(result.phone_total),
            "server_total": str(result.server_total),
            "phone_total_display": brl(result.phone_total),
            "server_total_display": brl(result.server_total),
            "difference": str(result.phone_total - result.server_total),
            "tolerance": str(result.tolerance),
            "tariff": s.tariff_payload(result.tariff),
            "reading": reading,
            "decision": decision_payload(result.decision),
        }, status=status.HTTP_200_OK)


class EstimateThrottle(AnonRateThrottle):
    rate = "120/hour"


class FareEstimateView(APIView):
    """POST ``{origin: {lat, lon}, destination: {lat, lon}, at?}``: the range of fares before asking (Art. 43, Art. 45).

    Public (the passenger page asks it before anyone signs up); the fare itself is the meter's."""

    permission_classes = [AllowAny]
    authentication_classes = []
    throttle_classes = [EstimateThrottle]
    parser_classes = [JSONParser]

    @extend_schema(request=s.FareEstimateSerializer, responses={200: OpenApiTypes.OBJECT})
    def post(self, request):
        serializer = s.FareEstimateSerializer(data=request.data if isinstance(request.data, dict) else {})
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        o, d = data["origin"], data["destination"]
        try:
            estimate = selectors.fare_estimate((o["lat"], o["lon"]), (d["lat"], d["lon"]), data.get("at"))
        except law.NoTariffInForce:
            raise ValidationError({"detail": _("Nenhuma tarifa decretada está em vigor agora.")}) from None
        body = estimate.to_dict()
        body["flag_label"] = str(_(body["flag_label"]))
        body["low_display"], body["high_display"] = brl(estimate.low), brl(estimate.high)
        body["notice"] = str(_("Estimativa: o valor da corrida é o que o taxímetro mostrar no fim (Art. 43)."))
        return Response(body)
