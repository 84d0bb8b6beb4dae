from __future__ import annotations

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

from taxilaw.settlement import PIX_RECEIVERS, PIX_TO_DRIVER

from ..models import PixKey, RidePayment


class PixKeySerializer(serializers.ModelSerializer):
    kind_display = serializers.CharField(source="get_kind_display", read_only=True)

    class Meta:
        model = PixKey
        fields = ["kind", "kind_display", "key", "updated_at"]
        read_only_fields = ["updated_at"]


class PaymentRequest(serializers.Serializer):
    method = serializers.ChoiceField(choices=RidePayment.Method.choices)
    card_machine = serializers.ChoiceField(choices=[(c, c) for c in PIX_RECEIVERS], default=PIX_TO_DRIVER)


PaymentView = inline_serializer("RidePaymentView", {
    "method": serializers.CharField(), "method_display": serializers.CharField(),
    "collector": serializers.CharField(), "receiver": serializers.CharField(), "amount": serializers.CharField(),
    "pix": serializers.CharField(required=False),
})
