"""DIMUTRAN's indicators as JSON (staff only): each view reads one selector of backend.indicators."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.api.permissions import IsDimutran

from .. import fleet, labels, money, permits, rank_occupancy, service
from ..periods import GRAINS, MAX_DAYS, YEARS, Period

DEFAULT_DAYS = 28  # four weeks up to today when no period is given


class PeriodQuery(serializers.Serializer):
    first = serializers.DateField(required=False, help_text="Primeiro dia (AAAA-MM-DD), em America/Sao_Paulo")
    last = serializers.DateField(required=False, help_text="Último dia, incluído (padrão: hoje)")

    def validate(self, data):
        last = data.get("last") or timezone.localdate()
        first = data.get("first") or last - timedelta(days=DEFAULT_DAYS - 1)
        if first > last:
            raise serializers.ValidationError({"first": "O primeiro dia deve ser anterior ou igual ao último."})
        if (last - first).days >= MAX_DAYS:
            raise serializers.ValidationError({"first": f"O período pode ter no máximo {MAX_DAYS} dias."})
        if not (YEARS[0] <= first.year and last.year <= YEARS[1]):
            raise serializers.ValidationError({"first": f"O período deve estar entre {YEARS[0]} e {YEARS[1]}."})
        return {**data, "period": Period(first, last)}


class GrainQuery(PeriodQuery):
    grain = serializers.ChoiceField(choices=GRAINS, default="day", help_text="day, week, month ou hour (hora do dia)")


def period_of(request, query_class=PeriodQuery) -> dict:
    query = query_class(data=request.query_params)
    query.is_valid(raise_exception=True)
    return query.validated_data


def _period(period: Period) -> dict:
    return {"first": period.first, "last": period.last}


_ERRORS = {400: OpenApiResponse(description="Período inválido (mensagem em português)"),
           403: OpenApiResponse(description="Apenas a DIMUTRAN")}


def _schema(summary: str, query=PeriodQuery):
    return extend_schema(tags=["indicators"], summary=summary, parameters=[query] if query else None,
                         responses={200: OpenApiTypes.OBJECT, **_ERRORS})


class ServiceView(APIView):
    """Pedidos, atendidos, sem táxi, cancelados (por quem), tempos de espera e ausências do passageiro."""

    permission_classes = [IsDimutran]

    @_schema("O serviço por dia, semana, mês ou hora do dia (docs/indicators.md)", GrainQuery)
    def get(self, request):
        data = period_of(request, GrainQuery)
        period = data["period"]
        return Response({**_period(period), "grain": data["grain"], "labels": labels.SERVICE,
                         "total": service.service_total(period), "rows": service.service(period, data["grain"])})


class BairrosView(APIView):
    permission_classes = [IsDimutran]

    @_schema("O serviço por bairro do embarque")
    def get(self, request):
        period = period_of(request)["period"]
        return Response({**_period(period), "labels": labels.SERVICE, "rows": service.service_by_bairro(period)})


class PermitsView(APIView):
    permission_classes = [IsDimutran]

    @_schema("Por permissão: ofertas, aceitação, cancelamentos, reclamações, avaliações e faltas")
    def get(self, request):
        period = period_of(request)["period"]
        today = timezone.localdate()
        return Response({**_period(period), "labels": labels.PERMIT, "rows": permits.permit_indicators(period, today)})


class FleetView(APIView):
    permission_classes = [IsDimutran]

    @_schema("A frota agora: quem pode trabalhar, quem está impedido e por quê; documentos que vencem", query=None)
    def get(self, request):
        now = timezone.now()
        return Response({"labels": labels.FLEET, **fleet.fleet(now),
                         "expiring": fleet.expiring_documents(timezone.localdate(now))})


class MoneyView(APIView):
    permission_classes = [IsDimutran]

    @_schema("Valor bruto por semana e tarifas retidas para conferência")
    def get(self, request):
        period = period_of(request)["period"]
        held = money.held_fares()
        # Money as exact decimal text (DRF's encoder would make a float of a Decimal).
        weeks = [{**week, "gross": str(week["gross"])} for week in money.gross_by_week(period)]
        return Response({**_period(period), "labels": labels.MONEY, "weeks": weeks,
                         "held": {**held, "total": str(held["total"])}})


class RanksView(APIView):
    permission_classes = [IsDimutran]

    @_schema("Ocupação dos pontos por hora do dia: parcela do tempo com táxi no ponto e média de táxis")
    def get(self, request):
        period = period_of(request)["period"]
        return Response({**_period(period), "labels": labels.RANKS, "rows": rank_occupancy.rank_occupancy(period)})
