"""Trips API: DIMUTRAN's report of drivers' cancellations (Art. 9, VII is DIMUTRAN's judgement), DIMUTRAN releases a
held meter total (Art. 43); a passenger erases their own data (LGPD)."""

from datetime import timedelta

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.api.permissions import IsDimutran

from .. import retention, services
from ..models import Passenger, Ride, RideStatus
from ..reports import driver_cancellations
from .serializers import CancellationReportQuery, ReleasedFareSerializer

PASSENGER_SCHEME = "Passenger"


class ReleaseFareView(APIView):
    """A meter total held for review (Art. 43) is released: the next statement counts it."""

    permission_classes = [IsDimutran]

    @extend_schema(tags=["trips"], request=None, responses=ReleasedFareSerializer)
    def post(self, request, pk: int):
        get_object_or_404(Ride, pk=pk, status=RideStatus.COMPLETED)
        return Response(ReleasedFareSerializer(services.release_fare(pk, by=request.user)).data)


def passenger_from_header(request) -> Passenger:
    scheme, _sep, token = request.headers.get("Authorization", "").partition(" ")
    passenger = Passenger.objects.filter(token=token.strip()).first() if scheme == PASSENGER_SCHEME and token else None
    if passenger is None:
        raise NotAuthenticated(_("Informe o token do passageiro: Authorization: Passenger <token>."))
    return passenger


class PassengerErasureView(APIView):
    """LGPD, art. 18, VI: the passenger's name, phone and token are erased; their rides are kept anonymised."""

    permission_classes = [AllowAny]
    authentication_classes = []

    def get_authenticate_header(self, request):  # a missing or wrong token answers 401, naming the scheme
        return PASSENGER_SCHEME

    @extend_schema(
        tags=["trips"], request=None,
        parameters=[OpenApiParameter("Authorization", OpenApiTypes.STR, OpenApiParameter.HEADER, required=True,
                                     description="Passenger <token>")],
        responses={204: None, 400: inline_serializer("ErasureRefused", {"detail": serializers.CharField()}),
                   401: inline_serializer("PassengerUnauthenticated", {"detail": serializers.CharField()})},
    )
    def delete(self, request):
        passenger = passenger_from_header(request)
        try:
            retention.erase_passenger(passenger.pk)
        except retention.PassengerHasOpenRide as exc:
            raise ValidationError({"detail": str(exc)}) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


class DriverCancellationReportView(APIView):
    permission_classes = [IsDimutran]

    @extend_schema(parameters=[CancellationReportQuery], responses={200: dict})
    def get(self, request):
        query = CancellationReportQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        until = timezone.now()
        since = until - timedelta(days=query.validated_data["days"])
        rows = driver_cancellations(since, until, min_count=query.validated_data["min"])
        return Response({"since": since, "until": until, "min": query.validated_data["min"], "drivers": rows})
