"""Booking, cancelling and dispatching advance bookings (Art. 66)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from backend.api_errors import require
from backend.parameters.selectors import current_parameters
from backend.trips.models import Passenger
from taxilaw import bookings as law

from .models import Booking, BookingStatus


class BookingError(Exception):
    """A booking the passenger or operator may not change; the API answers it as a 400 with its code."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, str(message)


def params(on=None) -> law.BookingParams:
    return law.booking_params_from_table(current_parameters(), timezone.localdate(on))


def book(*, pickup: dict, pickup_at: datetime, destination: dict | None = None, passenger: Passenger | None = None,
         caller_name: str = "", caller_phone: str = "", now: datetime | None = None) -> Booking:
    """A ride for later; refused (400, Art. 66) when too soon (ask now) or too far ahead, or beyond the passenger's
    bookings at once or in the day (``taxilaw.bookings.check_passenger_quota``)."""
    now = now or timezone.now()
    p = params(now)
    require(law.check_booking(now, pickup_at, p), "pickup_at")
    with transaction.atomic():
        if passenger is not None:
            _require_quota(passenger, now, p)
        return _create(passenger, caller_name, caller_phone, pickup, destination, pickup_at, p)


def _require_quota(passenger: Passenger, now: datetime, p: law.BookingParams) -> None:
    """The passenger's row is locked first: two bookings at once count each other."""
    Passenger.objects.select_for_update().filter(pk=passenger.pk).first()
    mine = Booking.objects.filter(passenger=passenger)
    day_start = timezone.localtime(now).replace(hour=0, minute=0, second=0, microsecond=0)
    require(law.check_passenger_quota(mine.filter(status=BookingStatus.SCHEDULED).count(),
                                      mine.filter(created_at__gte=day_start).count(), p), "pickup_at")


def _create(passenger, caller_name, caller_phone, pickup, destination, pickup_at, p) -> Booking:
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
        raise BookingError("not_your_booking", _("Este agendamento não é seu."))
    if mine.filter(status=BookingStatus.SCHEDULED).update(status=BookingStatus.CANCELLED, cancelled_at=timezone.now()) != 1:
        raise BookingError("booking_not_scheduled", _("Este agendamento já foi despachado ou cancelado."))
    return mine.get()


def upcoming(limit: int = 100):
    """Bookings still to dispatch, soonest first (the console's list)."""
    return Booking.objects.filter(status=BookingStatus.SCHEDULED).select_related("passenger").order_by("pickup_at")[:limit]
