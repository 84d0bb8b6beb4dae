"""Passenger sign-up: a name and a phone number, nothing more; the answer is the passenger's token."""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.api.throttling import AnonRateThrottle
from backend.trips.models import Passenger
from taxilaw.brazil import PHONE_HINT, PhoneError, parse_phone


class PassengerSignupSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    phone = serializers.CharField(max_length=20)

    def validate_phone(self, value):
        """A Brazilian phone with DDD, stored in E.164 (taxilaw.brazil)."""
        try:
            return parse_phone(value)
        except PhoneError:
            raise serializers.ValidationError(_(PHONE_HINT)) from None


class SignupThrottle(AnonRateThrottle):
    rate = "30/hour"


class PassengerSignupView(APIView):
    permission_classes = [AllowAny]
    authentication_classes = []
    throttle_classes = [SignupThrottle]

    @extend_schema(request=PassengerSignupSerializer, auth=[], responses={201: inline_serializer("PassengerSignedUp", {
        "id": serializers.IntegerField(), "name": serializers.CharField(), "token": serializers.CharField()})})
    def post(self, request):
        serializer = PassengerSignupSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        passenger = Passenger.objects.create(**serializer.validated_data)
        return Response({"id": passenger.pk, "name": passenger.name, "token": passenger.token}, status=status.HTTP_201_CREATED)
