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

from . import documents, selectors, services
from .models import StatementAdjustment, WeeklyStatement


class StatementRideSerializer(serializers.Serializer):
    """A late ride as counted: id, when it was completed, the fare."""

    ride = serializers.IntegerField(source="ride_id", read_only=True)
    completed_at = serializers.DateTimeField(read_only=True)
    fare = serializers.DecimalField(max_digits=10, decimal_places=2, read_only=True)


class RideLineSerializer(serializers.Serializer):
    """A ride the statement counts: when, fare, origin, payment and who received it, any meter disagreement."""

    ride = serializers.IntegerField(source="ride_id", read_only=True)
    completed_at = serializers.DateTimeField(read_only=True)
    fare = serializers.DecimalField(max_digits=10, decimal_places=2, read_only=True)
    origin = serializers.CharField(read_only=True)
    method = serializers.CharField(read_only=True)
    collector = serializers.CharField(read_only=True)
    server_total = serializers.DecimalField(max_digits=10, decimal_places=2, read_only=True, allow_null=True)
    meter_disagreement = serializers.BooleanField(read_only=True)
    late = serializers.BooleanField(read_only=True)
    payment_display = serializers.SerializerMethodField()

    def get_payment_display(self, obj) -> str:
        return documents.payment_text(obj)


class SettlementSerializer(serializers.Serializer):
    """Who received what by method, the shares, and the single transfer (Art. 1, §3-§6)."""

    gross = serializers.DecimalField(max_digits=12, decimal_places=2)
    auxiliary_share = serializers.DecimalField(max_digits=12, decimal_places=2)
    holder_share = serializers.DecimalField(max_digits=12, decimal_places=2)
    collected = serializers.SerializerMethodField()
    payer = serializers.CharField(allow_null=True)
    payee = serializers.CharField(allow_null=True)
    amount = serializers.DecimalField(max_digits=12, decimal_places=2)

    def get_collected(self, obj) -> list[dict]:
        return [{"party": party, "method": method, "amount": f"{amount:.2f}"} for party, method, amount in obj.collected]


class AdjustmentSerializer(serializers.ModelSerializer):
    """Rides of a closed week recorded after its closing, carried into this statement (Art. 1, §3)."""

    pending = serializers.SerializerMethodField()
    label = serializers.SerializerMethodField()
    agreement_display = serializers.CharField(source="get_agreement_display", read_only=True)
    holder_name = serializers.SerializerMethodField()
    late_rides = StatementRideSerializer(source="ride_list", many=True, read_only=True)

    class Meta:
        model = StatementAdjustment
        fields = [
            "id", "pending", "label", "original_week_start", "original_week_end", "original_statement", "holder",
            "holder_name", "role", "agreement", "agreement_display", "auxiliary_percent", "settled_gross", "rides",
            "gross", "auxiliary_part", "holder_part", "late_rides",
        ]
        read_only_fields = fields

    def get_pending(self, obj) -> bool:
        """Not stored yet: found in a running week, carried at the next closing."""
        return obj.pk is None

    def get_label(self, obj) -> str:
        return documents.adjustment_label(obj)

    def get_holder_name(self, obj) -> str:
        return obj.holder.full_name if obj.holder else ""


class CarriedLaterSerializer(serializers.ModelSerializer):
    """On a closed statement: rides of its week recorded after its closing and the statement that carried them."""

    week_start = serializers.DateField(source="statement.week_start", read_only=True)
    label = serializers.SerializerMethodField()

    class Meta:
        model = StatementAdjustment
        fields = ["statement", "week_start", "rides", "gross", "label"]
        read_only_fields = fields

    def get_label(self, obj) -> str:
        return documents.carried_later_text(obj)


class WeeklyStatementSerializer(serializers.ModelSerializer):
    permit_number = serializers.CharField(source="permit.number", read_only=True)
    driver_name = serializers.CharField(source="driver.full_name", read_only=True)
    holder_name = serializers.SerializerMethodField()
    role_display = serializers.CharField(source="get_role_display", read_only=True)
    agreement_display = serializers.CharField(source="get_agreement_display", read_only=True)
    driver_part = serializers.DecimalField(max_digits=12, decimal_places=2, read_only=True)
    is_closed = serializers.BooleanField(read_only=True)
    no_split = serializers.BooleanField(read_only=True)
    split_label = serializers.SerializerMethodField()
    adjustments = AdjustmentSerializer(source="adjustment_lines", many=True, read_only=True)
    late_gross = serializers.DecimalField(max_digits=12, decimal_places=2, read_only=True)
    total_gross = serializers.DecimalField(max_digits=12, decimal_places=2, read_only=True)
    total_auxiliary_part = serializers.DecimalField(max_digits=12, decimal_places=2, read_only=True)
    total_holder_part = serializers.DecimalField(max_digits=12, decimal_places=2, read_only=True)
    carried_later = CarriedLaterSerializer(source="carried_later_lines", many=True, read_only=True)
    ride_lines = RideLineSerializer(many=True, read_only=True)
    settlement = SettlementSerializer(read_only=True, allow_null=True)
    transfer_label = serializers.SerializerMethodField()
    expenses_note = serializers.SerializerMethodField()
    csv_url = serializers.SerializerMethodField()
    pdf_url = serializers.SerializerMethodField()

    class Meta:
        model = WeeklyStatement
        fields = [
            "id", "permit", "permit_number", "driver", "driver_name", "holder", "holder_name", "role", "role_display",
            "week_start", "week_end", "rides", "gross", "auxiliary_percent", "auxiliary_part", "holder_part",
            "driver_part", "agreement", "agreement_display", "contract_reference", "is_closed", "closed_at",
            "expenses_note", "csv_url", "pdf_url",
            "no_split", "split_label", "contract_signed_on", "contract_witnesses", "ctps_number", "ctps_series",
            "adjustments", "late_gross", "total_gross", "total_auxiliary_part", "total_holder_part", "carried_later",
            "ride_lines", "settlement", "transfer_label",
        ]
        read_only_fields = fields

    def get_transfer_label(self, obj) -> str:
        """The settlement in words ("Fulano paga R$ 750,00 a Beltrano"); empty for the holder's own driving."""
        return documents.transfer_text(obj)

    def get_holder_name(self, obj) -> str:
        return obj.holder.full_name if obj.holder else ""

    def get_split_label(self, obj) -> str:
        """The split in words: law 25/75, the §6 contract (date, witnesses) or the CTPS employment."""
        return documents.split_label(obj)

    def get_expenses_note(self, obj) -> str:
        """Art. 1, §2: fuel, plates, licensing and wear are the permit holder's."""
        return _(obj.expenses_note)

    def get_csv_url(self, obj) -> str | None:
        return f"/api/statements/{obj.pk}.csv" if obj.pk else None

    def get_pdf_url(self, obj) -> str | None:
        return f"/statements/{obj.pk}.pdf" if obj.pk else None


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


class RunningStatementSerializer(WeeklyStatementSerializer):
    """A statement of the running week: computed now, not stored, so it has no id yet."""

    id = serializers.IntegerField(read_only=True, allow_null=True)


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
