"""GET /api/reports/driver-cancellations/: DIMUTRAN only (Art. 9, VII is DIMUTRAN's judgement)."""

from datetime import timedelta

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.api.permissions import IsDimutran

from .reports import driver_cancellations


class CancellationReportQuery(serializers.Serializer):
    days = serializers.IntegerField(min_value=1, max_value=366, default=30)
    min = serializers.IntegerField(min_value=1, max_value=1000, default=3)


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
