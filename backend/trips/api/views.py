"""Trips API: DIMUTRAN's report of drivers' cancellations (Art. 9, VII is DIMUTRAN's judgement), DIMUTRAN releases a
held meter total (Art. 43); a passenger erases their own data (LGPD)."""

from datetime import timedelta

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from .authentication import PassengerAuthentication
from backend.api.permissions import IsDimutran, IsPassenger

from .. import retention, services
from ..models import Ride, RideStatus
from ..reports import driver_cancellations
from .serializers import CancellationReportQuery, ReleasedFareSerializer


class ReleaseFareView(APIView):
    """A meter total held for review (Art. 43) is released: the next statement counts it."""

    permission_classes = [IsDimutran]

    @extend_schema(tags=["trips"], request=None, responses=ReleasedFareSerializer)
    def post(self, request, pk: int):
        get_object_or_404(Ride, pk=pk, status=RideStatus.COMPLETED)
        return Response(ReleasedFareSerializer(services.release_fare(pk, by=request.user)).data)


class PassengerErasureView(APIView):
    """LGPD, art. 18, VI: the passenger's name, phone and token are erased; their rides are kept anonymised."""

    authentication_classes = [PassengerAuthentication]
    permission_classes = [IsPassenger]

    @extend_schema(
        tags=["trips"], request=None,
        parameters=[OpenApiParameter("Authorization", OpenApiTypes.STR, OpenApiParameter.HEADER, required=True,
                                     description="Passenger <token>")],
        responses={204: None, 400: inline_serializer("ErasureRefused", {"detail": serializers.CharField()}),
                   401: inline_serializer("PassengerUnauthenticated", {"detail": serializers.CharField()})},
    )
    def delete(self, request):
        try:
            retention.erase_passenger(request.user.passenger.pk)
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
