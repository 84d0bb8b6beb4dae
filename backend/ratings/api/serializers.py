from rest_framework import serializers

from ..models import COMMENT_MAX


class RatingSerializer(serializers.Serializer):
    ride = serializers.IntegerField()
    stars = serializers.IntegerField(min_value=1, max_value=5)
    comment = serializers.CharField(max_length=COMMENT_MAX, required=False, allow_blank=True, default="")
