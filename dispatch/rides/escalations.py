"""Escalated rides (no cab could take them): offered again when a cab frees, given up after ``dispatch.rides.give_up``.

A ride escalates to the operators when no cab may take it (``offers.offer_next``); before, nothing offered it
again when a cab freed (docs/operations.md). Every serving process's tick retries a few of them every ``RETRY_EVERY_SECONDS`` (:func:`retry`) through the offer path itself
(``offers.offer_escalated``: the rank queue, the nearest free cab, the registry's compliance at offer time, one
pending offer per cab, the ride's lock), and cancels those whose time ran out (:func:`give_up`). The operators
can still assign one by hand meanwhile.
"""

from __future__ import annotations

import math
import time
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from backend.trips.models import Ride, RideStatus
from dispatch.errors import DispatchError
from dispatch.models import Cab, CabStatus, Offer, OfferStatus
from dispatch.rides import give_up as deadline
from dispatch.rides.choosing import POSITION_FRESH
from dispatch.rides.offers import offer_escalated
from dispatch.rides.ride_steps import cancel_ride
from dispatch.rides.ride_writes import lock_ride

RETRIES_PER_TICK = 10  # escalated rides tried per round at most: a choice is a few milliseconds and queries each
# A round at most this often per process: a ride no free cab may take (all tried, too far, not allowed) costs a
# choice each round, in every process; a cab that frees is offered a ride within this and a tick.
RETRY_EVERY_SECONDS = 2.0
GIVE_UPS_PER_TICK = 50
_after = 0  # this process's place in the round: the id after which the next tick's retries start
_retried_at = -math.inf  # time.monotonic() of this process's last round


def waiting():
    return Ride.objects.filter(status=RideStatus.REQUESTED, escalated=True)


def any_cab_free(now: datetime) -> bool:
    """Whether some cab might take a ride now (connected, free, seen lately, no offer pending): else nothing to try."""
    return (Cab.objects.filter(online=True, status=CabStatus.FREE, position_at__gte=now - POSITION_FRESH)
            .exclude(pk__in=Offer.objects.filter(status=OfferStatus.PENDING).values("cab_id")).exists())


def retry(now: datetime | None = None, limit: int = RETRIES_PER_TICK) -> int:
    """Offer again up to ``limit`` escalated rides, oldest first in rounds (a ride no free cab may take does not
    keep the younger ones waiting); the number offered."""
    global _after
    now = now or timezone.now()
    ids = list(waiting().filter(pk__gt=_after).order_by("pk").values_list("pk", flat=True)[:limit])
    _after = ids[-1] if len(ids) == limit else 0
    if not ids or not any_cab_free(now):
        return 0
    return sum(offer_escalated(pk) is not None for pk in ids)


def retry_when_due() -> int:
    """:func:`retry`, at most every ``RETRY_EVERY_SECONDS`` (the background tick calls it)."""
    global _retried_at
    if time.monotonic() - _retried_at < RETRY_EVERY_SECONDS:
        return 0
    _retried_at = time.monotonic()
    return retry()


def give_up(now: datetime | None = None, limit: int = GIVE_UPS_PER_TICK) -> int:
    """Cancel the escalated rides still without a cab ``escalation_give_up_minutes`` after the passenger began to wait."""
    now = now or timezone.now()
    if not waiting().exists():  # most ticks: no parameter read
        return 0
    minutes = deadline.minutes(now)
    cut = now - timedelta(minutes=minutes)
    due = list(waiting().filter(requested_at__lte=cut).filter(Q(booking__isnull=True) | Q(booking__pickup_at__lte=cut))
               .order_by("pk").values_list("pk", flat=True)[:limit])
    count = 0
    for pk in due:
        with transaction.atomic():
            ride = lock_ride(pk, skip_locked=True)
            if ride is None or ride.status != RideStatus.REQUESTED or not ride.escalated:
                continue  # offered or assigned meanwhile
            try:
                cancel_ride(pk, by=deadline.CANCELLED_BY, reason=deadline.reason(minutes))
            except DispatchError:
                continue
            count += 1
    return count
