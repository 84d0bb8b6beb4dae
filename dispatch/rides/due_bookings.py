"""Advance bookings whose time came become rides (Art. 66), from every serving process's background tick and, for
those still waiting ``SCHEDULER_GRACE`` after their time, from the scheduler (``dispatch.jobs``): a booking falls
due whether or not a socket is connected, or a serving process running. backend.bookings holds them."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from backend.bookings.models import Booking, BookingStatus
from backend.trips.models import Ride
from dispatch import errors
from dispatch.rides import offers

DUE_PER_TICK = 20  # bookings dispatched by one tick at most: a tick does bounded work
# The ticks (each second) dispatch bookings on time, and their offers leave through their own process's outbox
# (the in-memory channel layer reaches no other process); the scheduler takes the bookings still scheduled this
# long after their time: no serving process runs, or every tick is stalled.
SCHEDULER_GRACE = timedelta(seconds=30)
DUE_PER_SCHEDULER_RUN = 200  # a backlog after an outage (66 bookings were seen) within one run


def dispatch_due(now: datetime | None = None, limit: int = DUE_PER_TICK, overdue: timedelta = timedelta(0)) -> list[Ride]:
    """Turn the bookings due by ``now - overdue`` into rides; each is claimed by one process only.

    The claim is a conditional UPDATE (status still ``scheduled``) in the same transaction as the ride:
    a second process's UPDATE waits on the row and then matches nothing, and a process that dies
    before its commit leaves the booking scheduled for the next tick.
    """
    now = now or timezone.now()
    due = list(Booking.objects.filter(status=BookingStatus.SCHEDULED, dispatch_at__lte=now - overdue)
               .order_by("dispatch_at").values_list("pk", flat=True)[:limit])
    rides = []
    for pk in due:
        try:
            with transaction.atomic():
                if Booking.objects.filter(pk=pk, status=BookingStatus.SCHEDULED).update(
                        status=BookingStatus.DISPATCHED, dispatched_at=now) != 1:
                    continue  # another process took it
                b = Booking.objects.select_related("passenger").get(pk=pk)
                ride = offers.request_ride(
                    pickup={"lat": b.pickup_lat, "lon": b.pickup_lon, "address": b.pickup_address},
                    destination={"lat": b.destination_lat, "lon": b.destination_lon, "address": b.destination_address}
                    if b.destination_lat is not None else None,
                    passenger=b.passenger, caller_name=b.caller_name, caller_phone=b.caller_phone)
                Booking.objects.filter(pk=pk).update(ride=ride)
                rides.append(ride)
        except errors.DispatchError as exc:  # the passenger has another ride open at that moment
            Booking.objects.filter(pk=pk, status=BookingStatus.SCHEDULED).update(
                status=BookingStatus.FAILED, note=str(exc.message)[:255])
    return rides
