"""When an escalated ride (no cab could take it) stops being offered again and is cancelled (Art. 66, Art. 67).

The law leaves the radio-taxi service's operation to the regulation (Art. 67); the reading (docs/readings-dispatch.md)
is a dated parameter, ``escalation_give_up_minutes``, counted from the request or, for a booking, from its pickup
time (a booking is dispatched ``booking_lead_minutes`` early: the passenger is not waiting yet). The operators see
the moment as a countdown, the passenger the reason.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.translation import gettext as _

from backend.bookings.models import Booking
from backend.parameters.selectors import current_parameters
from backend.trips.models import Ride, RideStatus
from taxilaw.parameters import default_parameters

PARAMETER = "escalation_give_up_minutes"
CANCELLED_BY = "no_cab"  # Ride.cancelled_by of a ride given up: the passenger page explains it


def minutes(on: datetime | None = None) -> int:
    """The dated parameter in force on ``on``'s local day (the law core's default if the table lacks it)."""
    day = timezone.localdate(on or timezone.now())
    try:
        return int(current_parameters().as_of(PARAMETER, day))
    except LookupError:
        return int(default_parameters().as_of(PARAMETER, day))


def waiting_since(ride: Ride) -> datetime:
    """From when the passenger waits: the request, or the booked pickup time if later."""
    pickup_at = Booking.objects.filter(ride_id=ride.pk).values_list("pickup_at", flat=True).first()
    return max(ride.requested_at, pickup_at) if pickup_at else ride.requested_at


def gives_up_at(ride: Ride) -> datetime | None:
    """When an escalated ride still waiting for a cab is given up; None for any other ride."""
    if not ride.escalated or ride.status not in (RideStatus.REQUESTED, RideStatus.OFFERED) or ride.requested_at is None:
        return None
    since = waiting_since(ride)
    return since + timedelta(minutes=minutes(since))


def reason(waited_minutes: int) -> str:
    """What the passenger reads (pt-BR) on a ride given up."""
    return _("nenhum táxi ficou livre para atender em %(minutes)d minutos") % {"minutes": waited_minutes}
