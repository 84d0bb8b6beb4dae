"""Booking, cancelling and dispatching advance bookings (Art. 66)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from backend.api_errors import require
from backend.parameters.selectors import current_parameters
from backend.trips.models import Passenger, Ride
from dispatch import services as dispatch
from taxilaw import bookings as law

from .models import Booking, BookingStatus

DUE_PER_TICK = 20  # bookings dispatched by one tick at most: a tick does bounded work


def params(on=None) -> law.BookingParams:
    return law.booking_params_from_table(current_parameters(), timezone.localdate(on))


def book(*, pickup: dict, pickup_at: datetime, destination: dict | None = None, passenger: Passenger | None = None,
         caller_name: str = "", caller_phone: str = "", now: datetime | None = None) -> Booking:
    """A ride for later; refused (400, Art. 66) when too soon (ask now) or too far ahead."""
    now = now or timezone.now()
    p = params(now)
    require(law.check_booking(now, pickup_at, p), "pickup_at")
    return Booking.objects.create(
        passenger=passenger, caller_name=caller_name, caller_phone=caller_phone,
        created_by="passenger" if passenger else "operator",
        pickup_lat=pickup["lat"], pickup_lon=pickup["lon"], pickup_address=pickup.get("address", ""),
        destination_lat=destination["lat"] if destination else None,
        destination_lon=destination["lon"] if destination else None,
        destination_address=destination.get("address", "") if destination else "",
        pickup_at=pickup_at, dispatch_at=law.dispatch_at(pickup_at, p),
    )


def cancel(booking_id: int, *, passenger: Passenger | None = None) -> Booking:
    """Cancel a booking not yet dispatched (once dispatched, the ride itself is cancelled)."""
    mine = Booking.objects.filter(pk=booking_id)
    if passenger is not None:
        mine = mine.filter(passenger=passenger)
    if not mine.exists():
        raise dispatch.DispatchError("not_your_booking", _("Este agendamento não é seu."))
    if mine.filter(status=BookingStatus.SCHEDULED).update(status=BookingStatus.CANCELLED, cancelled_at=timezone.now()) != 1:
        raise dispatch.DispatchError("booking_not_scheduled", _("Este agendamento já foi despachado ou cancelado."))
    return mine.get()


def dispatch_due(now: datetime | None = None, limit: int = DUE_PER_TICK) -> list[Ride]:
    """Turn the bookings due by ``now`` into rides; each is claimed by one process only.

    The claim is a conditional UPDATE (status still ``scheduled``) in the same transaction as the ride:
    a second process's UPDATE waits on the row and then matches nothing, and a process that dies
    before its commit leaves the booking scheduled for the next tick.
    """
    now = now or timezone.now()
    due = list(Booking.objects.filter(status=BookingStatus.SCHEDULED, dispatch_at__lte=now)
               .order_by("dispatch_at").values_list("pk", flat=True)[:limit])
    rides = []
    for pk in due:
        try:
            with transaction.atomic():
                if Booking.objects.filter(pk=pk, status=BookingStatus.SCHEDULED).update(
                        status=BookingStatus.DISPATCHED, dispatched_at=now) != 1:
                    continue  # another process took it
                b = Booking.objects.select_related("passenger").get(pk=pk)
                ride = dispatch.request_ride(
                    pickup={"lat": b.pickup_lat, "lon": b.pickup_lon, "address": b.pickup_address},
                    destination={"lat": b.destination_lat, "lon": b.destination_lon, "address": b.destination_address}
                    if b.destination_lat is not None else None,
                    passenger=b.passenger, caller_name=b.caller_name, caller_phone=b.caller_phone)
                Booking.objects.filter(pk=pk).update(ride=ride)
                rides.append(ride)
        except dispatch.DispatchError as exc:  # the passenger has another ride open at that moment
            Booking.objects.filter(pk=pk, status=BookingStatus.SCHEDULED).update(
                status=BookingStatus.FAILED, note=str(exc.message)[:255])
    return rides


def upcoming(limit: int = 100):
    """Bookings still to dispatch, soonest first (the console's list)."""
    return Booking.objects.filter(status=BookingStatus.SCHEDULED).select_related("passenger").order_by("pickup_at")[:limit]
