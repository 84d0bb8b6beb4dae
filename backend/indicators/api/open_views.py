"""Open data, anonymous and read-only: JSON, CSV and GeoJSON of backend.indicators.open_data (no person, no permit)."""

from __future__ import annotations

import csv
import io
from datetime import date, timedelta

from django.http import Http404, HttpResponse, JsonResponse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.csv_cells import SafeWriter

from .. import open_data, open_schemas
from ..periods import YEARS, Period


class MonthQuery(serializers.Serializer):
    """Whole finished months only: overlapping periods would let a reader subtract two answers and see a small cell."""

    month = serializers.RegexField(r"^\d{4}-(0[1-9]|1[0-2])$", required=False,
                                   help_text="Mês encerrado, AAAA-MM (padrão: o mês passado)",
                                   error_messages={"invalid": "Informe o mês como AAAA-MM."})

    def validate(self, data):
        this_month = timezone.localdate().replace(day=1)
        if "month" in data:
            year, month = (int(part) for part in data["month"].split("-"))
            if not YEARS[0] <= year <= YEARS[1]:
                raise serializers.ValidationError({"month": f"Informe um mês entre {YEARS[0]} e {YEARS[1]}."})
            first = date(year, month, 1)
        else:
            first = (this_month - timedelta(days=1)).replace(day=1)
        if first >= this_month:
            raise serializers.ValidationError({"month": "Só se publicam meses encerrados."})
        last = (first + timedelta(days=32)).replace(day=1) - timedelta(days=1)
        return {"period": Period(first, last)}


def _csv(rows: list[dict], fields: list[str], name: str) -> HttpResponse:
    out = io.StringIO()
    writer = SafeWriter(csv.writer(out))
    writer.writerow(fields)
    for row in rows:
        writer.writerow([row[f] for f in fields])
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


class OpenView(APIView):
    permission_classes = [AllowAny]
    authentication_classes = []


class CatalogueView(OpenView):
    @extend_schema(tags=["open-data"], summary="Os conjuntos de dados abertos, com a licença e o esquema",
                   responses={200: OpenApiTypes.OBJECT})
    def get(self, request):
        return Response(open_data.catalogue())


class RanksGeoJSONView(OpenView):
    @extend_schema(tags=["open-data"], summary="Pontos de táxi (GeoJSON)", responses={(200, "application/geo+json"): OpenApiTypes.OBJECT})
    def get(self, request):
        return JsonResponse(open_data.ranks_geojson(), content_type="application/geo+json", json_dumps_params={"ensure_ascii": False})


class RanksCSVView(OpenView):
    @extend_schema(tags=["open-data"], summary="Pontos de táxi (CSV)", responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request):
        return _csv(open_data.ranks(), list(open_data.SCHEMAS["pontos"]), "pontos.csv")


class FleetJSONView(OpenView):
    @extend_schema(tags=["open-data"], summary="A frota hoje: contagens", responses={200: OpenApiTypes.OBJECT})
    def get(self, request):
        return Response(open_data.fleet(timezone.localtime()))


class FleetCSVView(OpenView):
    @extend_schema(tags=["open-data"], summary="A frota hoje: contagens por motivo de impedimento (CSV)",
                   responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request):
        state = open_data.fleet(timezone.localtime())
        head = {k: state[k] for k in ("data", "permissoes_ativas", "aguardando_termo", "podem_trabalhar", "impedidas")}
        rows = [{**head, **r} for r in state["motivos"]] or [{**head, "motivo": "", "artigo": "", "permissoes": 0}]
        return _csv(rows, list(open_data.SCHEMAS["frota"]), "frota.csv")


def _trips(request) -> dict:
    query = MonthQuery(data=request.query_params)
    query.is_valid(raise_exception=True)
    return open_data.trips_by_bairro_and_hour(query.validated_data["period"])


class TripsJSONView(OpenView):
    @extend_schema(tags=["open-data"], summary="Pedidos por bairro e hora (células com menos de 5 suprimidas)",
                   parameters=[MonthQuery], responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT})
    def get(self, request):
        return Response(_trips(request))


class TripsCSVView(OpenView):
    @extend_schema(tags=["open-data"], summary="Pedidos por bairro e hora (CSV; células com menos de 5 suprimidas)",
                   parameters=[MonthQuery], responses={(200, "text/csv"): OpenApiTypes.STR, 400: OpenApiTypes.OBJECT})
    def get(self, request):
        return _csv(_trips(request)["celulas"], list(open_data.SCHEMAS["viagens"]), "viagens.csv")


class SchemaView(OpenView):
    @extend_schema(tags=["open-data"], summary="O esquema publicado de um conjunto: Table Schema (CSV) ou JSON Schema",
                   responses={200: OpenApiTypes.OBJECT, 404: OpenApiTypes.OBJECT})
    def get(self, request, name):
        found = open_schemas.schema(name)
        if found is None:
            raise Http404("Esquema desconhecido.")
        return JsonResponse(found, json_dumps_params={"ensure_ascii": False})
