from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework import serializers

from .. import documents
from ..models import StatementAdjustment, WeeklyStatement


class StatementRideSerializer(serializers.Serializer):
    """A late ride as counted: id, when it was completed, the fare, and the server's check beside it (Art. 43)."""

    ride = serializers.IntegerField(source="ride_id", read_only=True)
    completed_at = serializers.DateTimeField(read_only=True)
    fare = serializers.DecimalField(max_digits=10, decimal_places=2, read_only=True)
    server_total = serializers.DecimalField(max_digits=10, decimal_places=2, read_only=True, allow_null=True)
    meter_disagreement = serializers.BooleanField(read_only=True)


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


class RunningStatementSerializer(WeeklyStatementSerializer):
    """A statement of the running week: computed now, not stored, so it has no id yet."""

    id = serializers.IntegerField(read_only=True, allow_null=True)
