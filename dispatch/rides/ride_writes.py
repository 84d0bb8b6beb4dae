"""The steps every path that changes a ride shares: lock its row, refuse it closed, move its cab, announce it.

One lock order in every path that changes a ride and its offers (accept, decline, expiry, cancel, manual
assignment): the ride's row first (:func:`lock_ride`), then its offers. Two paths that took them in opposite
orders deadlocked on PostgreSQL. A locked ride is read without joins: PostgreSQL re-reads a row it waited for
but not the rows joined to it, so ``select_related`` beside ``select_for_update`` returned a stale cab.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from backend.trips.models import Ride, RideStatus
from dispatch import wire
from dispatch.errors import DispatchError
from dispatch.events import announcements, snapshots
from dispatch.models import Cab


def lock_ride(ride_id: int, *, skip_locked: bool = False) -> Ride | None:
    """The ride's row, locked for this transaction (the first lock of every ride-and-offer path); no join.

    ``FOR NO KEY UPDATE``: these paths write the ride's status, cab and times, never its id, and they exclude each
    other as before (exactly one winner); what no longer waits is another transaction's INSERT that references the
    ride (an SOS alert, a share), whose foreign key only needs the ride to exist. Every offer of a ride is written
    under this lock or in the transaction that created the ride, so no offer race rests on the key lock."""
    return Ride.objects.select_for_update(skip_locked=skip_locked, no_key=True).filter(pk=ride_id).first()


def ride_closed(ride: Ride) -> DispatchError:
    """The specific answer to whoever lost a race for a ride that is no longer waiting for a cab."""
    if ride.status == RideStatus.CANCELLED:
        return DispatchError("ride_cancelled", _("Esta corrida foi cancelada."))
    return DispatchError("ride_taken", _("Esta corrida já foi atendida por outro táxi."))


def set_cab_status(cab_id: int, status: str) -> None:
    """The cab's status as the ride moves it, told to the operators on commit like every other change."""
    Cab.objects.filter(pk=cab_id).update(status=status)
    cab = Cab.objects.select_related("permit", "driver").get(pk=cab_id)
    announcements.announce(announcements.OPERATORS, wire.CAB_UPDATE(cab=snapshots.cab(cab)))


def fresh_ride(ride_id: int) -> Ride:
    """The ride with what its snapshot reads (passenger, cab) in one query."""
    return Ride.objects.select_related("cab", "passenger").get(pk=ride_id)


def announce_ride(ride: Ride, escalation: bool = False) -> None:
    body = snapshots.ride(ride)
    announcements.announce(announcements.ride_group(ride.pk), wire.RIDE_UPDATE(ride=body))
    announcements.announce(announcements.OPERATORS, (wire.ESCALATION if escalation else wire.RIDE_UPDATE)(ride=body))
