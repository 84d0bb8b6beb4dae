"""Ratings over the API: a passenger rates (``Authorization: Passenger <token>``); DIMUTRAN reads the report."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.api.fields import AwareDateTimeField
from backend.api.permissions import IsDimutran, IsPassenger
from backend.api.throttling import RatingThrottle
from backend.trips.api.authentication import PassengerAuthentication

from .. import report, services
from .serializers import RatingSerializer


class RateRideView(APIView):
    """POST ``{ride, stars (1-5), comment?}``: the passenger rates their own completed ride, once."""

    authentication_classes = [PassengerAuthentication]
    permission_classes = [IsPassenger]
    throttle_classes = [RatingThrottle]

    @extend_schema(request=RatingSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        serializer = RatingSerializer(data=request.data if isinstance(request.data, dict) else {})
        serializer.is_valid(raise_exception=True)
        rating = services.rate_ride(passenger=request.auth, ride_id=serializer.validated_data["ride"],
                                    stars=serializer.validated_data["stars"], comment=serializer.validated_data["comment"])
        return Response({"id": rating.pk, "ride": rating.ride_id, "stars": rating.stars}, status=status.HTTP_201_CREATED)


class RatingReportView(APIView):
    """GET ``?since=&until=`` (ISO 8601 with offset): ratings per permit and driver, worst average first (DIMUTRAN)."""

    permission_classes = [IsDimutran]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request):
        field = AwareDateTimeField()
        bounds = {}
        for name in ("since", "until"):
            raw = request.query_params.get(name)
            if raw:
                try:
                    bounds[name] = field.run_validation(raw)
                except serializers.ValidationError as exc:
                    raise serializers.ValidationError({name: exc.detail}) from exc
        return Response({"rows": report.rating_report(**bounds)})
