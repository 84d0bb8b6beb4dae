import re

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from backend.api.fields import AwareDateTimeField, PlaceSerializer


class BookingSerializer(serializers.Serializer):
    pickup = PlaceSerializer()
    destination = PlaceSerializer(required=False, allow_null=True, default=None)
    pickup_at = AwareDateTimeField()
    caller_name = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    caller_phone = serializers.CharField(max_length=20, required=False, allow_blank=True, default="")

    def validate_caller_phone(self, value):
        digits = re.sub(r"\D", "", value)
        if value and not 10 <= len(digits) <= 13:
            raise ValidationError(_("Informe o telefone com DDD, por exemplo (32) 99999-1234."))
        return digits
