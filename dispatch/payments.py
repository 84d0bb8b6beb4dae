"""``/api/rides/<id>/payment/`` and ``/api/rides/<id>/release-fare/``: the payments API
(backend.payments.api.views) and DIMUTRAN's release of a held fare (backend.trips.api.views), plus the
announcement of the ride.

Backend apps never import dispatch; the websocket side tells the ride's passenger and the operators, once the
payment or the release is committed (``events.announce``), so the console and the passenger page show it: the
payment, or the fare no longer "em revisão" and payable (docs/payments.md).
"""

from backend.payments.api import views as payments_api
from backend.trips.api import views as trips_api
from backend.trips.models import Ride
from dispatch import wire
from dispatch.events import announcements as events
from dispatch.events import snapshots


def _announce(ride: Ride) -> None:
    frame = wire.RIDE_UPDATE(ride=snapshots.ride(ride))
    events.announce(events.ride_group(ride.pk), frame)
    events.announce(events.OPERATORS, frame)


class RidePaymentView(payments_api.RidePaymentView):
    def post(self, request, ride_id: int):
        response = super().post(request, ride_id)
        _announce(self.recorded.ride)
        return response


class ReleaseFareView(trips_api.ReleaseFareView):
    def post(self, request, pk: int):
        response = super().post(request, pk)
        _announce(Ride.objects.select_related("cab", "passenger").get(pk=pk))
        return response
