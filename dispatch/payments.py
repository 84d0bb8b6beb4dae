"""``/api/rides/<id>/payment/``: the payments API (backend.payments.api.views) plus the announcement of the paid ride.

Backend apps never import dispatch; the websocket side tells the ride's passenger and the operators, once the
payment is committed (``events.announce``), so the console and the passenger page show it (docs/payments.md).
"""

from backend.payments.api import views as payments_api

from . import events, snapshots


class RidePaymentView(payments_api.RidePaymentView):
    def post(self, request, ride_id: int):
        response = super().post(request, ride_id)
        ride = self.recorded.ride
        frame = {"type": "ride_update", "ride": snapshots.ride(ride)}
        events.announce(events.ride_group(ride.pk), frame)
        events.announce(events.OPERATORS, frame)
        return response
