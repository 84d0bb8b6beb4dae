"""Retention of the trip record's personal data (LGPD): traces, callers' and passengers' names and phones.

The periods are dated parameters (``taxilaw.retention``; docs/security.md). What the weekly statements count
(fare, permit, driver, times) is kept; what identifies or follows a passenger is erased when no act of the
law needs it any more. Each call does bounded work (``batch`` rows); the scheduler calls again next time.
"""

from __future__ import annotations

import secrets
from datetime import datetime

from django.db import transaction
from django.db.models import Exists, Max, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from backend.enforcement.models import Complaint
from backend.parameters.selectors import current_parameters
from taxilaw.compliance import local_date
from taxilaw.retention import cutoff, trace_may_be_purged

from .models import OPEN_RIDE_STATUSES, Passenger, Ride

BATCH = 1000
COARSE_DIGITS = 2  # an anonymised ride keeps its pickup and destination to ~1 km (zone statistics), no closer


class PassengerHasOpenRide(Exception):
    """Erasure waits until the passenger's open ride ends."""


def _open_complaint():
    return Exists(Complaint.objects.filter(ride=OuterRef("pk"), status=Complaint.Status.RECEIVED))


def retention_days(name: str, now: datetime) -> int:
    return int(current_parameters().as_of(name, local_date(now)))


def purge_traces(now: datetime, batch: int = BATCH) -> int:
    """Erase the GPS traces of rides ended ``retention_trace_days`` ago, unless a held fare or an open complaint needs them."""
    days = retention_days("retention_trace_days", now)
    rows = (Ride.objects.exclude(trace=[]).filter(completed_at__lt=cutoff(now, days))
            .annotate(complaint_open=_open_complaint())
            .values_list("pk", "completed_at", "fare_held", "complaint_open")[:batch])
    ids = [pk for pk, ended, held, complaint in rows
           if trace_may_be_purged(ended_at=ended, now=now, days=days, fare_held=held, complaint_open=complaint)]
    return Ride.objects.filter(pk__in=ids).update(trace=[])


def purge_callers(now: datetime, batch: int = BATCH) -> int:
    """Forget the name and phone of whoever phoned for a ride that ended ``retention_passenger_days`` ago."""
    before = cutoff(now, retention_days("retention_passenger_days", now))
    ended = Q(completed_at__lt=before) | Q(cancelled_at__lt=before)
    ids = list(Ride.objects.filter(ended).exclude(caller_name="", caller_phone="").values_list("pk", flat=True)[:batch])
    return Ride.objects.filter(pk__in=ids).update(caller_name="", caller_phone="")


def anonymise_inactive_passengers(now: datetime, batch: int = BATCH) -> int:
    """Anonymise passengers with no ride (and no sign-up) for ``retention_passenger_days``."""
    before = cutoff(now, retention_days("retention_passenger_days", now))
    idle = (Passenger.objects.filter(anonymised_at__isnull=True, created_at__lt=before)
            .annotate(last=Max("rides__requested_at")).filter(Q(last__isnull=True) | Q(last__lt=before))
            .values_list("pk", flat=True)[:batch])
    count = 0
    for pk in list(idle):
        try:
            erase_passenger(pk, now=now)
            count += 1
        except PassengerHasOpenRide:
            continue
    return count


@transaction.atomic
def erase_passenger(passenger_id: int, now: datetime | None = None) -> Passenger:
    """A passenger's right to erasure (LGPD, art. 18, VI): their name, phone and token go; their rides stay, anonymised.

    The rides keep what the statements count (fare, permit, driver, times) and their places only to ~1 km; the
    addresses go, and so do the traces except those a held fare or an open complaint still needs (they follow
    ``retention_trace_days``). The old token stops working at once. Refused while a ride is open.
    """
    now = now or timezone.now()
    passenger = Passenger.objects.select_for_update().get(pk=passenger_id)
    if passenger.rides.filter(status__in=OPEN_RIDE_STATUSES).exists():
        raise PassengerHasOpenRide(_("Conclua ou cancele a corrida em andamento antes de apagar seus dados."))
    for ride in passenger.rides.annotate(complaint_open=_open_complaint()):
        ride.pickup_address = ride.destination_address = ""
        ride.pickup_lat, ride.pickup_lon = round(ride.pickup_lat, COARSE_DIGITS), round(ride.pickup_lon, COARSE_DIGITS)
        if ride.destination_lat is not None:
            ride.destination_lat = round(ride.destination_lat, COARSE_DIGITS)
            ride.destination_lon = round(ride.destination_lon, COARSE_DIGITS)
        if not (ride.fare_held or ride.complaint_open):
            ride.trace = []
        ride.save(update_fields=["pickup_address", "destination_address", "pickup_lat", "pickup_lon",
                                 "destination_lat", "destination_lon", "trace"])
    passenger.name, passenger.phone, passenger.anonymised_at = "", "", now
    passenger.token = secrets.token_urlsafe(32)  # nobody holds this one: the old token no longer authenticates
    passenger.save(update_fields=["name", "phone", "anonymised_at", "token"])
    return passenger


def purge(now: datetime | None = None) -> dict[str, int]:
    """The trips' share of the scheduled purge: traces, callers, inactive passengers (counts of rows changed)."""
    now = now or timezone.now()
    return {"traces": purge_traces(now), "callers": purge_callers(now),
            "passengers": anonymise_inactive_passengers(now)}
