
from rest_framework import serializers

from ..models import Ride


class ReleasedFareSerializer(serializers.ModelSerializer):
    class Meta:
        model = Ride
        fields = ["id", "fare", "server_total", "meter_disagreement", "fare_held", "fare_released_at"]
        read_only_fields = fields


class CancellationReportQuery(serializers.Serializer):
    days = serializers.IntegerField(min_value=1, max_value=366, default=30)
    min = serializers.IntegerField(min_value=1, max_value=1000, default=3)
