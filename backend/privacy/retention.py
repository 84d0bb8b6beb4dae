"""Retention of the trip record's personal data (LGPD): traces, callers' and passengers' names and phones.

The periods are dated parameters (``taxilaw.retention``; docs/security.md). What the weekly statements count
(fare, permit, driver, times) is kept; what identifies or follows a passenger is erased when no act of the
law needs it any more. Each purge walks its rows in bounded batches (``batch`` rows, keyset order by id), with
what must be kept (a held fare, an open complaint) filtered in the query, so rows it must keep never fill a batch:
one run finishes every eligible row.

A passenger's erasure (:func:`erase_passenger`) reaches everything that names or follows them: their bookings
(scheduled ones cancelled), their rides' addresses and traces, their ratings' comments, their complaints' texts
(the complaint stays, anonymised), the receipts' links (revoked: ``backend.trips.receipt_links.linkable``) and
their open sockets (the token is replaced, and dispatch closes every socket opened with the old one:
``dispatch.transport.credential_changes``).
"""

from __future__ import annotations

import secrets
from datetime import datetime

from django.db import transaction
from django.db.models import Exists, Max, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from backend.bookings.models import Booking, BookingStatus
from backend.enforcement.models import Complaint
from backend.parameters.selectors import current_parameters
from backend.ratings.models import RideRating
from backend.receipts import receipt_cache
from backend.trips.models import OPEN_RIDE_STATUSES, Passenger, Ride
from backend.trips.redaction import redact
from taxilaw.compliance import local_date
from taxilaw.retention import cutoff, trace_may_be_purged

BATCH = 1000
COARSE_DIGITS = 2  # an anonymised ride keeps its pickup and destination to ~1 km (zone statistics), no closer


class PassengerHasOpenRide(Exception):
    """Erasure waits until the passenger's open ride ends."""


def _open_complaint():
    return Exists(Complaint.objects.filter(ride=OuterRef("pk"), status=Complaint.Status.RECEIVED))


def retention_days(name: str, now: datetime) -> int:
    return int(current_parameters().as_of(name, local_date(now)))


def batches(rows, batch: int):
    """Ids of ``rows`` (a queryset already filtered to the eligible ones), ``batch`` at a time in id order: each
    query reads one bounded slice after the last id seen, so the walk ends after the last eligible row."""
    last = 0
    while True:
        ids = list(rows.filter(pk__gt=last).order_by("pk").values_list("pk", flat=True)[:batch])
        if not ids:
            return
        yield ids
        last = ids[-1]


def purge_traces(now: datetime, batch: int = BATCH) -> int:
    """Erase the GPS traces of rides ended ``retention_trace_days`` ago, unless a held fare or an open complaint needs them."""
    days = retention_days("retention_trace_days", now)
    eligible = (Ride.objects.exclude(trace=[]).filter(completed_at__lt=cutoff(now, days), fare_held=False)
                .exclude(_open_complaint()))
    erased = 0
    for ids in batches(eligible, batch):
        rows = Ride.objects.filter(pk__in=ids).annotate(complaint_open=_open_complaint())
        purgeable = [pk for pk, ended, held, complaint in rows.values_list("pk", "completed_at", "fare_held", "complaint_open")
                     if trace_may_be_purged(ended_at=ended, now=now, days=days, fare_held=held, complaint_open=complaint)]
        erased += Ride.objects.filter(pk__in=purgeable).update(trace=[])
    return erased


def purge_callers(now: datetime, batch: int = BATCH) -> int:
    """Forget the name and phone of whoever phoned for a ride that ended ``retention_passenger_days`` ago."""
    before = cutoff(now, retention_days("retention_passenger_days", now))
    ended = Q(completed_at__lt=before) | Q(cancelled_at__lt=before)
    eligible = Ride.objects.filter(ended).exclude(caller_name="", caller_phone="")
    return sum(Ride.objects.filter(pk__in=ids).update(caller_name="", caller_phone="")
               for ids in batches(eligible, batch))


def anonymise_inactive_passengers(now: datetime, batch: int = BATCH) -> int:
    """Anonymise passengers with no ride (and no sign-up) for ``retention_passenger_days``; one with a ride
    open (booked long ago, say) is passed over until it ends."""
    before = cutoff(now, retention_days("retention_passenger_days", now))
    idle = (Passenger.objects.filter(anonymised_at__isnull=True, created_at__lt=before)
            .annotate(last=Max("rides__requested_at")).filter(Q(last__isnull=True) | Q(last__lt=before))
            .exclude(rides__status__in=OPEN_RIDE_STATUSES))
    count = 0
    for ids in batches(idle, batch):
        for pk in ids:
            try:
                erase_passenger(pk, now=now)
                count += 1
            except PassengerHasOpenRide:  # a ride opened since the query
                continue
    return count


@transaction.atomic
def erase_passenger(passenger_id: int, now: datetime | None = None) -> Passenger:
    """A passenger's right to erasure (LGPD, art. 18, VI): their name, phone and token go; their rides stay, anonymised.

    The rides keep what the statements count (fare, permit, driver, times) and their places only to ~1 km; the
    addresses go, and so do the traces except those a held fare or an open complaint still needs (they follow
    ``retention_trace_days``). Scheduled bookings are cancelled (before the open-ride check: a booking being
    dispatched at this moment has either committed its ride, and then erasure waits for that ride, or is
    cancelled here and never becomes one) and every booking is anonymised like a ride. Rating comments go (the
    stars stay for the report); complaints stay, their accounts without the passenger's identifiers and their
    copies of the ride without addresses (and without the trace once closed). Receipt links stop working, cached
    receipts are dropped, and the passenger's open sockets are told to close. The old token stops working at
    once. Refused while a ride is open.
    """
    now = now or timezone.now()
    # FOR UPDATE, not no_key: it must conflict with the FOR KEY SHARE a ride INSERT in flight holds on the passenger
    # (its foreign key), so that the open-ride check below waits for that ride and sees it (docs/scaling.md).
    passenger = Passenger.objects.select_for_update().get(pk=passenger_id)
    Booking.objects.filter(passenger=passenger, status=BookingStatus.SCHEDULED).update(
        status=BookingStatus.CANCELLED, cancelled_at=now, note=_("Cancelado: o passageiro apagou seus dados (LGPD)."))
    if passenger.rides.filter(status__in=OPEN_RIDE_STATUSES).exists():
        raise PassengerHasOpenRide(_("Conclua ou cancele a corrida em andamento antes de apagar seus dados."))
    addresses = set()
    for booking in passenger.bookings.all():
        addresses.update((booking.pickup_address, booking.destination_address))
        _coarsen(booking)
        booking.caller_name = booking.caller_phone = ""
        booking.save(update_fields=["pickup_address", "destination_address", "pickup_lat", "pickup_lon",
                                    "destination_lat", "destination_lon", "caller_name", "caller_phone"])
    ride_ids = []
    for ride in passenger.rides.annotate(complaint_open=_open_complaint()):
        addresses.update((ride.pickup_address, ride.destination_address))
        ride_ids.append(ride.pk)
        _coarsen(ride)
        ride.caller_name = ride.caller_phone = ""
        if not (ride.fare_held or ride.complaint_open):
            ride.trace = []
        ride.save(update_fields=["pickup_address", "destination_address", "pickup_lat", "pickup_lon",
                                 "destination_lat", "destination_lon", "trace", "caller_name", "caller_phone"])
    RideRating.objects.filter(passenger=passenger).exclude(comment="").update(comment="")
    for complaint in passenger.complaints.all():
        complaint.description = redact(complaint.description, names=[passenger.name],
                                       phrases=[*addresses, passenger.phone])
        data = dict(complaint.ride_data or {}, pickup_address="", destination_address="")
        if complaint.status != Complaint.Status.RECEIVED:
            data["trace"] = []
        complaint.ride_data = data
        complaint.save(update_fields=["description", "ride_data"])
    receipt_cache.forget(ride_ids)
    passenger.name, passenger.phone, passenger.anonymised_at = "", "", now
    passenger.token = secrets.token_urlsafe(32)  # nobody holds this one: the old token no longer authenticates
    passenger.save(update_fields=["name", "phone", "anonymised_at", "token"])
    return passenger


def _coarsen(place) -> None:
    """A ride's or booking's places to ~1 km, without their addresses."""
    place.pickup_address = place.destination_address = ""
    place.pickup_lat, place.pickup_lon = round(place.pickup_lat, COARSE_DIGITS), round(place.pickup_lon, COARSE_DIGITS)
    if place.destination_lat is not None:
        place.destination_lat = round(place.destination_lat, COARSE_DIGITS)
        place.destination_lon = round(place.destination_lon, COARSE_DIGITS)


def purge(now: datetime | None = None) -> dict[str, int]:
    """The trips' share of the scheduled purge: traces, callers, inactive passengers (counts of rows changed)."""
    now = now or timezone.now()
    return {"traces": purge_traces(now), "callers": purge_callers(now),
            "passengers": anonymise_inactive_passengers(now)}
