from django.utils.translation import gettext_lazy as _
from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from backend.api.fields import AwareDateTimeField, PlaceSerializer
from taxilaw.brazil import PHONE_HINT, PhoneError, parse_phone


class BookingSerializer(serializers.Serializer):
    pickup = PlaceSerializer()
    destination = PlaceSerializer(required=False, allow_null=True, default=None)
    pickup_at = AwareDateTimeField()
    caller_name = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    caller_phone = serializers.CharField(max_length=20, required=False, allow_blank=True, default="")

    def validate_caller_phone(self, value):
        """Optional; when given, a Brazilian phone with DDD, stored in E.164 (taxilaw.brazil)."""
        if not value:
            return ""
        try:
            return parse_phone(value)
        except PhoneError:
            raise ValidationError(_(PHONE_HINT)) from None
