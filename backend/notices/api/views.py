"""``/api/notices/``: DIMUTRAN reads every notice; a person reads those addressed to them or to their permit."""

from django.db.models import Q
from rest_framework import permissions, viewsets

from ..models import Notice
from .serializers import NoticeSerializer


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
