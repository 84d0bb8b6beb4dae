"""Serializer fields shared by the REST API and the websocket protocol's schemas."""

from datetime import datetime

from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from zones.boundary import inside_municipality, outside_reason


@extend_schema_field(OpenApiTypes.DATETIME)
class AwareDateTimeField(serializers.Field):
    """An ISO 8601 instant with its UTC offset; naive times are refused (the flag depends on the hour)."""

    default_error_messages = {
        "invalid": _("Informe data e hora ISO 8601 com fuso horário (ex.: 2026-03-02T10:00:00-03:00)."),
        "naive": _("A data e hora deve indicar o fuso horário (ex.: -03:00 ou Z)."),
    }

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        try:
            value = parse_datetime(data.strip())
        except ValueError:
            value = None
        if value is None:
            self.fail("invalid")
        if timezone.is_naive(value):
            self.fail("naive")
        return value

    def to_representation(self, value):
        return value.isoformat() if isinstance(value, datetime) else value


def column_length(model, name: str) -> int:
    """The ``max_length`` of a model's column: a plain serializer refuses longer text with a 400 before the
    database would (PostgreSQL raises on a too-long varchar)."""
    return model._meta.get_field(name).max_length


class PointSerializer(serializers.Serializer):
    """A point on the map: latitude and longitude in degrees (a pickup, a destination, a cab's fix)."""

    lat = serializers.FloatField(min_value=-90, max_value=90)
    lon = serializers.FloatField(min_value=-180, max_value=180)


class PlaceSerializer(PointSerializer):
    """A pickup or a destination, with the address the person gave: a point inside the municipality of Muriaé
    (Art. 25; ``zones.boundary``). The one check of a place for every door that takes one: REST bookings and fare
    estimate, the socket's ``ride_request`` and the operators' ``ride_create`` (docs/security.md)."""

    address = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")

    def run_validation(self, data=serializers.empty):
        value = super().run_validation(data)
        if value is not None and not inside_municipality(value["lon"], value["lat"]):
            # Raised here, not in ``validate``: the refusal is the field's own list ({"destination": [...]}).
            raise serializers.ValidationError([outside_reason(value["lon"], value["lat"]).render(gettext)])
        return value
