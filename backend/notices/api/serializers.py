from rest_framework import serializers

from ..models import Notice


class NoticeSerializer(serializers.ModelSerializer):
    permit_number = serializers.CharField(source="permit.number", default=None, read_only=True)

    class Meta:
        model = Notice
        fields = ["id", "created_on", "article", "code", "message", "permit", "permit_number", "person"]
