"""The driver app's rank screen: ``GET /api/driver/ranks/?lat=&lon=`` (Art. 9, V; Art. 22-27).

The ranks near the cab with their queues and, for each, whether this cab may check in there now and why not
(``backend.ranks.nearby``, which asks ``taxilaw.ranks``). Checking in and out stays on the dispatch socket
(``rank_check_in`` / ``rank_check_out``), which carries the cab's GPS fix.
"""

from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.api.fields import PointSerializer
from backend.api_errors import decision_payload
from backend.registry.models import Permit
from backend.registry.selectors import driven_permit

from . import nearby


def _row(n: nearby.NearbyRank) -> dict:
    return {
        "id": n.rank.pk, "name": n.rank.name, "category": n.rank.category,
        "category_display": n.rank.get_category_display(), "lat": n.rank.lat, "lon": n.rank.lon,
        "distance_m": round(n.distance_m), "queue": n.queue, "titular": n.titular,
        "titular_count": n.titular_count, "visitor_limit": n.visitor_limit, **decision_payload(n.decision),
    }


class DriverRanksView(APIView):
    """The ranks nearest to the cab, each with its queue and the law's answer for this cab (Art. 9, V; Art. 22;
    Art. 27, §3), and where the cab is checked in now."""

    @extend_schema(parameters=[OpenApiParameter("lat", float, required=True), OpenApiParameter("lon", float, required=True)],
                   responses=OpenApiTypes.OBJECT)
    def get(self, request):
        query = PointSerializer(data=request.query_params)
        if not query.is_valid():
            raise ValidationError(query.errors)
        person = getattr(request.user, "person", None)
        permit = driven_permit(person, (Permit.Status.ACTIVE,))[0] if person is not None else None
        if permit is None:
            raise NotFound(_("Este motorista não está vinculado a uma permissão ativa."))
        lat, lon = query.validated_data["lat"], query.validated_data["lon"]
        checkin = nearby.open_checkin(permit)
        return Response({
            "permit": permit.number,
            "checked_in": None if checkin is None else {
                "rank_id": checkin.rank_id, "rank": checkin.rank.name, "queue_position": checkin.queue_position,
                "visitor": checkin.visitor, "since": checkin.checked_in_at.isoformat()},
            "ranks": [_row(n) for n in nearby.ranks_near(permit, lat, lon)],
        })


urlpatterns = [path("driver/ranks/", DriverRanksView.as_view(), name="driver-ranks")]
