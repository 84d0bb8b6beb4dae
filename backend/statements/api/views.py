"""Statements API: DIMUTRAN reads all; a permit holder those of their permit; a driver their own (Art. 1, §3)."""

from __future__ import annotations

from datetime import date

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.api.params import int_param

from .. import documents, selectors, services
from .serializers import (
    RunningStatementSerializer,
    WeeklyStatementSerializer,
)


def parse_week(value: str | None) -> date | None:
    """``?week=AAAA-MM-DD`` (any day of the week) -> its Monday; a bad date is a 400."""
    if not value:
        return None
    try:
        return services.monday_of(date.fromisoformat(value))
    except ValueError:
        raise ValidationError({"week": [_("Data inválida: use AAAA-MM-DD (qualquer dia da semana).")]}) from None


WEEK_PARAM = OpenApiParameter("week", OpenApiTypes.DATE, description="Qualquer dia da semana (AAAA-MM-DD).")


PERMIT_PARAM = OpenApiParameter("permit", OpenApiTypes.INT, description="Id da permissão.")


DRIVER_PARAM = OpenApiParameter("driver", OpenApiTypes.INT, description="Id do motorista (pessoa).")


class WeeklyStatementViewSet(viewsets.ReadOnlyModelViewSet):
    """Closed weekly statements (Art. 1, §3; Art. 1, §6); another person's statement answers 404.

    ``adjustments`` are rides of closed weeks recorded after their closing, carried here;
    ``carried_later`` on a closed statement says where its week's late rides went."""

    serializer_class = WeeklyStatementSerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self):
        qs = selectors.statements_visible_to(self.request.user)
        params = self.request.query_params
        monday = parse_week(params.get("week"))
        if monday:
            qs = qs.filter(week_start=monday)
        for name in ("permit", "driver"):
            value = int_param(params, name)
            if value is not None:
                qs = qs.filter(**{f"{name}_id": value})
        return qs

    @extend_schema(parameters=[WEEK_PARAM, PERMIT_PARAM, DRIVER_PARAM])
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

    @extend_schema(
        responses=inline_serializer("RunningWeek", {
            "week_start": serializers.DateField(), "week_end": serializers.DateField(),
            "statements": RunningStatementSerializer(many=True),
        }),
    )
    @action(detail=False, url_path="current", pagination_class=None)
    def current(self, request):
        """The running week of the logged-in driver, computed now and not stored (Art. 1, §3)."""
        person = selectors.person_of(request.user)
        if person is None:
            raise NotFound(_("Este usuário não é um motorista cadastrado."))
        now = timezone.now()
        permits = selectors.permits_driven_now(person)
        if not permits:
            raise NotFound(_("Você não conduz nenhum táxi nesta semana."))
        statements = [services.running_statement(p, person, now) for p in permits]
        monday = services.monday_of(now)
        return Response({
            "week_start": monday, "week_end": statements[0].week_end,
            "statements": RunningStatementSerializer(statements, many=True).data,
        })


class StatementCsvView(APIView):
    """One closed statement as CSV (pt-BR spreadsheet: ``;`` and decimal comma), with the Art. 1, §2 note."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="statements_csv", responses={(200, "text/csv"): OpenApiTypes.BINARY})
    def get(self, request, pk):
        statement = get_object_or_404(selectors.statements_visible_to(request.user), pk=pk)
        response = HttpResponse(("\ufeff" + documents.statement_csv(statement)).encode("utf-8"),
                                content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{documents.csv_filename(statement)}"'
        return response


class StatementPdfView(APIView):
    """One closed statement as PDF in Portuguese, with the Art. 1, §2 note (session or token)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="statements_pdf", responses={(200, "application/pdf"): OpenApiTypes.BINARY})
    def get(self, request, pk):
        statement = get_object_or_404(selectors.statements_visible_to(request.user), pk=pk)
        response = HttpResponse(documents.statement_pdf(statement), content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{documents.pdf_filename(statement)}"'
        return response
