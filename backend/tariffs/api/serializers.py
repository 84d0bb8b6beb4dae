"""API shapes of the tariff tables. Form is checked here; the law by the services."""

import math
from decimal import Decimal

from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from backend.api.fields import AwareDateTimeField, PlaceSerializer
from taxilaw import meter_data
from taxilaw import tariff_study as study_law
from taxilaw import tariffs as law
from taxilaw.brazil import brl
from taxilaw.tariff_study import COST_ITEMS

from ..models import CorrectionTable, TariffDecree, TariffStudy, TariffStudyItem

# Wider than the column so that the law core, not the serializer, refuses
# "2.705" (not in cents) and "-1" (not positive) citing the article.
PRICE = dict(max_digits=14, decimal_places=6)


class PriceField(serializers.DecimalField):
    """Reads wide (so the law core judges cents), shows the stored cents: ``"2.70"``."""

    def __init__(self, **kwargs):
        super().__init__(**{**PRICE, **kwargs})

    def to_representation(self, value):
        return str(Decimal(str(value)).quantize(Decimal("0.01")))


class TariffDecreeSerializer(serializers.ModelSerializer):
    bandeirada = PriceField()
    price_km_b1 = PriceField()
    price_km_b2 = PriceField()
    price_hour_waiting = PriceField()
    review_due_on = serializers.DateField(read_only=True)
    display = serializers.SerializerMethodField()

    class Meta:
        model = TariffDecree
        fields = ["id", "effective_from", "bandeirada", "price_km_b1", "price_km_b2", "price_hour_waiting",
                  "decree", "review_due_on", "display", "created_at"]
        read_only_fields = ["created_at"]
        # one tariff per date is the law core's check (Art. 44), answered with the article
        extra_kwargs = {"effective_from": {"validators": []}, "decree": {"allow_blank": True, "trim_whitespace": False}}

    def get_display(self, obj) -> dict:
        return {name: brl(getattr(obj, name)) for name in ("bandeirada", "price_km_b1", "price_km_b2", "price_hour_waiting")}


class CorrectionTableSerializer(serializers.ModelSerializer):
    factor = serializers.DecimalField(max_digits=8, decimal_places=4)
    days = serializers.SerializerMethodField()

    class Meta:
        model = CorrectionTable
        fields = ["id", "tariff", "factor", "authorization", "authorized_on", "valid_from", "valid_until", "days", "created_at"]
        read_only_fields = ["created_at"]

    def get_days(self, obj) -> int:
        return (obj.valid_until - obj.valid_from).days + 1


class TariffStudyItemSerializer(serializers.ModelSerializer):
    item = serializers.ChoiceField(choices=list(COST_ITEMS))
    amount = serializers.DecimalField(max_digits=12, decimal_places=4, min_value=0)

    class Meta:
        model = TariffStudyItem
        fields = ["item", "amount", "basis", "note"]


class TariffStudySerializer(serializers.ModelSerializer):
    items = TariffStudyItemSerializer(many=True)
    report_html = serializers.SerializerMethodField()
    report_pdf = serializers.SerializerMethodField()

    class Meta:
        model = TariffStudy
        fields = [
            "id", "reference", "effective_from", "vehicle_description", "vehicle_value", "km_per_month",
            "paid_km_ratio", "average_trip_km", "bandeirada_share", "b2_ratio", "waiting_equivalent_kmh", "items",
            "cost_per_km", "cost_per_paid_km", "proposed_bandeirada", "proposed_km_b1", "proposed_km_b2",
            "proposed_hour_waiting", "capital_capped", "lines", "warnings", "created_at", "report_html", "report_pdf",
        ]
        read_only_fields = [
            "cost_per_km", "cost_per_paid_km", "proposed_bandeirada", "proposed_km_b1", "proposed_km_b2",
            "proposed_hour_waiting", "capital_capped", "lines", "warnings", "created_at",
        ]

    def validate_items(self, items):
        decision = study_law.cost_items_once(i["item"] for i in items)
        if not decision.allowed:
            raise serializers.ValidationError([reason.render(gettext) for reason in decision.reasons])
        return items

    def get_report_html(self, obj) -> str:
        return reverse("tariff-study-report", args=[obj.pk])

    def get_report_pdf(self, obj) -> str:
        return reverse("tariff-study-report-pdf", args=[obj.pk])


class FixSerializer(serializers.Serializer):
    t = AwareDateTimeField()
    lat = serializers.FloatField()
    lon = serializers.FloatField()
    accuracy_m = serializers.FloatField(required=False, allow_null=True, min_value=0)

    def validate(self, attrs):
        for name in ("lat", "lon", "accuracy_m"):
            value = attrs.get(name)
            if value is not None and not math.isfinite(value):
                raise serializers.ValidationError({name: _("Número inválido.")})
        return attrs


MAX_FIXES = 50_000


class RecomputeSerializer(serializers.Serializer):
    """A trip as the driver app uploads it (Art. 43)."""

    trace = FixSerializer(many=True, allow_empty=False, max_length=MAX_FIXES)
    phone_total = serializers.DecimalField(max_digits=10, decimal_places=2, min_value=0)
    started_at = AwareDateTimeField(required=False)
    stopped_at = AwareDateTimeField(required=False)

    def validate(self, attrs):
        start, stop = attrs.get("started_at"), attrs.get("stopped_at")
        if start and stop and stop < start:
            raise serializers.ValidationError({"stopped_at": _("O fim da corrida é anterior ao início.")})
        return attrs

    def fixes(self):
        return [meter_data.Fix(f["t"], f["lat"], f["lon"], f.get("accuracy_m")) for f in self.validated_data["trace"]]


def tariff_payload(tariff: law.Tariff | None) -> dict | None:
    if tariff is None:
        return None
    data = tariff.to_dict()
    data["display"] = {name: brl(getattr(tariff, name)) for name in ("bandeirada", "price_km_b1", "price_km_b2", "price_hour_waiting")}
    data["review_due_on"] = law.review_due_on(tariff).isoformat()
    return data


class FareEstimateSerializer(serializers.Serializer):
    """``origin`` and ``destination`` inside the municipality: the same check of a place as every other door."""

    origin = PlaceSerializer()
    destination = PlaceSerializer()
    at = AwareDateTimeField(required=False)
