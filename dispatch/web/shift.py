"""The operators' shift (Art. 66): the rides of the last hours with their outcome, filtered and searched, and the
shift's totals. Read-only and bounded: at most ``MAX_HOURS`` back, ``PAGE_SIZE`` rides a page.

Search takes what an operator has at hand when someone phones: a phone number (8 digits or more; the last 8 decide,
so "(32) 99999-1234" and "999991234" are one caller), a plate ("ABC1D23", "ABC-1234") or a ride number ("123",
"nº 123")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Q, QuerySet
from django.utils import timezone

from backend.trips.models import OPEN_RIDE_STATUSES, Ride, RideStatus
from taxilaw.brazil import phone_tail

MAX_HOURS = 24
DEFAULT_HOURS = 8
PAGE_SIZE = 50
STATES = ("open", "served", "escalated", "cancelled")
PLATE = re.compile(r"^[A-Z]{3}-?[0-9][A-Z0-9][0-9]{2}$")
CANCELLED_BY = {"passenger": "pelo passageiro", "operator": "pela central", "driver": "pelo motorista", "no_cab": "por falta de táxi"}


@dataclass(frozen=True)
class ShiftQuery:
    hours: int = DEFAULT_HOURS
    state: str = ""
    search: str = ""
    page: int = 1

    @classmethod
    def parse(cls, body: dict) -> ShiftQuery:
        """A query from an untrusted JSON body: numbers clamped, unknown states ignored, the search trimmed."""
        def number(key, default, low, high):
            try:
                return max(low, min(high, int(body.get(key, default))))
            except (TypeError, ValueError):
                return default
        state = body.get("state") if body.get("state") in STATES else ""
        search = body.get("search") if isinstance(body.get("search"), str) else ""
        return cls(hours=number("hours", DEFAULT_HOURS, 1, MAX_HOURS), state=state, search=search.strip()[:40],
                   page=number("page", 1, 1, 10_000))


def _in_state(rides: QuerySet, state: str) -> QuerySet:
    if state == "open":
        return rides.filter(status__in=OPEN_RIDE_STATUSES)
    if state == "served":
        return rides.filter(status=RideStatus.COMPLETED)
    if state == "escalated":
        return rides.filter(escalated=True)
    if state == "cancelled":
        return rides.filter(status=RideStatus.CANCELLED)
    return rides


def _phone_of(ride: Ride) -> str:
    return re.sub(r"\D", "", ride.passenger.phone if ride.passenger_id else ride.caller_phone)


def callers_rides(rides: QuerySet, tail: str) -> QuerySet:
    """The rides that may be the caller's whose phone ends in ``tail`` (``taxilaw.brazil.phone_tail``). Older rides keep
    the caller's phone as typed ("(32) 3721-4455"), newer ones in E.164: narrowed in SQL by the last four digits, each
    then decided by :func:`is_callers` (the last eight)."""
    return rides.filter(Q(caller_phone__contains=tail[-4:]) | Q(passenger__phone__endswith=tail)).select_related("passenger")


def is_callers(ride: Ride, tail: str) -> bool:
    return phone_tail(ride.passenger.phone if ride.passenger_id else ride.caller_phone) == tail


def _searched(rides: QuerySet, search: str) -> QuerySet:
    """The rides that match a phone, a plate or a ride number (module docstring)."""
    if not search:
        return rides
    plate = search.upper().replace(" ", "")
    if PLATE.match(plate):
        return rides.filter(permit__vehicles__plate=plate.replace("-", "")).distinct()
    digits = re.sub(r"\D", "", search)
    if len(digits) >= 8:
        tail = phone_tail(digits)
        return rides.filter(pk__in=[r.pk for r in callers_rides(rides, tail) if is_callers(r, tail)])
    if digits:
        return rides.filter(pk=int(digits))
    return rides.none()


def pickup_wait(ride: Ride) -> timedelta | None:
    """From the request to the cab at the door ("Cheguei"; the boarding when the driver did not tap it)."""
    at = ride.arriving_at or ride.on_board_at
    return at - ride.requested_at if at and ride.requested_at else None


def duration_text(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    minutes, secs = divmod(round(seconds), 60)
    return f"{minutes} min {secs:02d} s" if minutes else f"{secs} s"


def outcome(ride: Ride) -> str:
    """What became of the ride, in the operators' words."""
    if ride.status == RideStatus.CANCELLED:
        by = CANCELLED_BY.get(ride.cancelled_by, "")
        return "cancelada" + (f" {by}" if by else "") + (f": {ride.cancel_reason}" if ride.cancel_reason else "")
    if ride.status == RideStatus.COMPLETED:
        return "concluída"
    return "em aberto: " + str(ride.get_status_display())


def totals(rides: QuerySet) -> dict:
    """The shift's counts and the average time to pickup (of the rides a cab reached)."""
    waits = [pickup_wait(r) for r in rides.only("requested_at", "arriving_at", "on_board_at")]
    waits = [w.total_seconds() for w in waits if w is not None]
    average = sum(waits) / len(waits) if waits else None
    return {
        "requested": rides.count(),
        "served": rides.filter(status=RideStatus.COMPLETED).count(),
        "escalated": rides.filter(escalated=True).count(),
        "cancelled": rides.filter(status=RideStatus.CANCELLED).count(),
        "open": rides.filter(status__in=OPEN_RIDE_STATUSES).count(),
        "average_pickup_s": round(average) if average is not None else None,
        "average_pickup_display": duration_text(average),
    }


def _row(ride: Ride) -> dict:
    vehicle = next((v for v in ride.permit.vehicles.all() if v.in_service), None) if ride.permit_id else None
    wait = pickup_wait(ride)
    return {
        "id": ride.pk,
        "requested_at": ride.requested_at.isoformat(),
        "passenger": ride.caller_name or (ride.passenger.name if ride.passenger_id else ""),
        "phone": _phone_of(ride),
        "pickup": ride.pickup_address,
        "destination": ride.destination_address,
        "permit": ride.permit.number if ride.permit_id else "",
        "plate": vehicle.plate if vehicle else "",
        "status": ride.status,
        "escalated": ride.escalated,
        "outcome": outcome(ride),
        "pickup_wait_s": round(wait.total_seconds()) if wait else None,
        "pickup_wait_display": duration_text(wait.total_seconds()) if wait else "—",
        "fare": str(ride.fare) if ride.fare is not None else None,
    }


def shift_report(query: ShiftQuery, now: datetime | None = None) -> dict:
    """One page of the shift's rides (newest first) and the totals of the whole shift (filters aside)."""
    since = (now or timezone.now()) - timedelta(hours=query.hours)
    window = Ride.objects.filter(requested_at__gte=since)
    chosen = _searched(_in_state(window, query.state), query.search).order_by("-requested_at", "-pk")
    count = chosen.count()
    pages = max(1, -(-count // PAGE_SIZE))
    page = min(query.page, pages)
    rows = chosen.select_related("passenger", "permit").prefetch_related("permit__vehicles")[(page - 1) * PAGE_SIZE:page * PAGE_SIZE]
    return {
        "since": since.isoformat(), "hours": query.hours, "state": query.state, "search": query.search,
        "count": count, "page": page, "pages": pages, "page_size": PAGE_SIZE,
        "totals": totals(window), "rides": [_row(r) for r in rows],
    }
