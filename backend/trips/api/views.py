"""Trips API: DIMUTRAN's report of drivers' cancellations (Art. 9, VII is DIMUTRAN's judgement), DIMUTRAN releases a
held meter total (Art. 43). A passenger's erasure of their own data (LGPD) is ``backend.privacy.api``."""

from datetime import timedelta

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.api.permissions import IsDimutran

from .. import services
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
