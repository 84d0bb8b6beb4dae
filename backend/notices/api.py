"""``/api/notices/``: DIMUTRAN reads every notice; a person reads those addressed to them or to their permit."""

from django.db.models import Q
from rest_framework import permissions, serializers, viewsets

from .models import Notice


class NoticeSerializer(serializers.ModelSerializer):
    permit_number = serializers.CharField(source="permit.number", default=None, read_only=True)

    class Meta:
        model = Notice
        fields = ["id", "created_on", "article", "code", "message", "permit", "permit_number", "person"]


class NoticeViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = NoticeSerializer
    permission_classes = [permissions.IsAuthenticated]

    def get_queryset(self):
        user = self.request.user
        notices = Notice.objects.select_related("permit")
        if user.is_staff:
            return notices
        person = getattr(user, "person", None)
        return notices.filter(Q(person=person) | Q(permit__holder=person)) if person else notices.none()
