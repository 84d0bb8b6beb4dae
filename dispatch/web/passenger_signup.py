"""Passenger sign-up: a name and a phone number, nothing more; the answer is the passenger's token."""

import re

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.api.throttling import AnonRateThrottle
from backend.trips.models import Passenger


class PassengerSignupSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    phone = serializers.CharField(max_length=20)

    def validate_phone(self, value):
        digits = re.sub(r"\D", "", value)
        if not 10 <= len(digits) <= 13:
            raise serializers.ValidationError(_("Informe o telefone com DDD, por exemplo (32) 99999-1234."))
        return digits


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
