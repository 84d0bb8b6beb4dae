"""A ride after a cab accepted it: arriving, on board, completed (the trip recorded by ``backend.trips``), cancelled.

Consumers call these through ``database_sync_to_async``; every change is committed before it is announced
(``dispatch.events.announcements``), and the ride's row is locked first (``dispatch.rides.ride_writes``).
"""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from backend.api_errors import require
from backend.parameters.selectors import current_parameters
from backend.trips.models import DriverCancellation, Passenger, Ride, RideStatus
from backend.trips.services import record_finished_trip
from dispatch import wire
from dispatch.errors import DispatchError
from dispatch.events import announcements
from dispatch.models import Cab, CabStatus, OfferStatus
from dispatch.rides.offers import close_offer, offer_next
from dispatch.rides.ride_writes import announce_ride, lock_ride, ride_closed, set_cab_status
from taxilaw import arrival, cancellation
from taxilaw.geodesy import distance_m


def passenger_by_token(token: str) -> Passenger | None:
    return Passenger.objects.filter(token=token).first()


def _not_yours() -> DispatchError:
    return DispatchError("not_your_ride", _("Esta corrida não é deste táxi."))


def check_drivers_ride(ride_id: int, cab_id: int) -> None:
    """``not_your_ride`` unless the ride is this cab's: one indexed read, before anything reads the frame's trace."""
    if not Ride.objects.filter(pk=ride_id, cab_id=cab_id).exists():
        raise _not_yours()


def _driver_ride(ride_id: int, cab_id: int, allowed: tuple) -> Ride:
    ride = lock_ride(ride_id)
    if ride is None or ride.cab_id != cab_id:
        raise _not_yours()
    if ride.status not in allowed:
        raise DispatchError("wrong_state", _("A corrida está em “%(status)s”.") % {"status": ride.get_status_display()})
    return ride


def _advance(ride: Ride, status: str, stamp: str, **fields) -> Ride:
    """Move a ride the caller locked to ``status``, stamp the time, announce it on commit."""
    changes = {"status": status, "version": ride.version + 1, stamp: timezone.now(), **fields}
    for name, value in changes.items():
        setattr(ride, name, value)
    ride.save(update_fields=list(changes))
    announce_ride(ride)
    return ride


def _distance_to_pickup(ride: Ride, cab_id: int, fix: tuple[float, float] | None) -> float | None:
    """How far the server last saw the cab from the pickup: ``fix`` is the latest one its connection holds (not yet
    flushed, ``dispatch.rides.positions``), else the cab's row; None when the server never had one."""
    position = fix or Cab.objects.filter(pk=cab_id, lat__isnull=False).values_list("lat", "lon").first()
    return distance_m(position[0], position[1], ride.pickup_lat, ride.pickup_lon) if position else None


def _arrival_radius_m() -> float:
    return float(current_parameters().as_of("arrival_radius_m", timezone.localdate()))


@transaction.atomic
def ride_arriving(ride_id: int, cab_id: int, fix: tuple[float, float] | None = None) -> Ride:
    """"Cheguei": only where the server sees the cab at the pickup (``taxilaw.arrival``)."""
    ride = _driver_ride(ride_id, cab_id, (RideStatus.ACCEPTED,))
    require(arrival.at_pickup(_distance_to_pickup(ride, cab_id, fix), _arrival_radius_m()), "position")
    return _advance(ride, RideStatus.ARRIVING, "arriving_at")


@transaction.atomic
def ride_on_board(ride_id: int, cab_id: int) -> Ride:
    ride = _advance(_driver_ride(ride_id, cab_id, (RideStatus.ACCEPTED, RideStatus.ARRIVING)), RideStatus.ON_BOARD, "on_board_at")
    set_cab_status(cab_id, CabStatus.BUSY)
    return ride


@transaction.atomic
def ride_complete(ride_id: int, cab_id: int, meter_total: Decimal, trace: list[dict]) -> Ride:
    """The fare is the meter's total (Art. 43); the server recomputes the trace and records any disagreement.

    Sending it again for a ride already completed changes nothing and is not an error.
    """
    ride = _driver_ride(ride_id, cab_id, (RideStatus.ON_BOARD, RideStatus.COMPLETED))
    if ride.status == RideStatus.COMPLETED:
        return ride  # a repeat from a phone that missed the answer: recorded once, the first total stands
    ride = record_finished_trip(ride, meter_total=meter_total, trace=trace, stopped_at=timezone.now())
    announce_ride(ride)
    set_cab_status(cab_id, CabStatus.FREE)
    return ride


@transaction.atomic
def cancel_ride(ride_id: int, *, by: str, passenger: Passenger | None = None, reason: str = "") -> Ride:
    ride = lock_ride(ride_id)
    if ride is None or (passenger is not None and ride.passenger_id != passenger.pk):
        raise DispatchError("not_your_ride", _("Esta corrida não é sua."))
    if ride.status == RideStatus.CANCELLED:
        raise ride_closed(ride)
    if ride.status in (RideStatus.COMPLETED, RideStatus.ON_BOARD):
        raise DispatchError("wrong_state", _("A corrida está em “%(status)s” e não pode ser cancelada.") % {"status": ride.get_status_display()})
    for pending in ride.offers.filter(status=OfferStatus.PENDING):
        close_offer(pending, OfferStatus.WITHDRAWN)
    if ride.cab_id:
        set_cab_status(ride.cab_id, CabStatus.FREE)
        announcements.announce(announcements.cab_group(ride.permit_id), wire.RIDE_CANCELLED(ride_id=ride.pk))
    return _advance(ride, RideStatus.CANCELLED, "cancelled_at", cancelled_by=by, cancel_reason=reason)


@transaction.atomic
def driver_cancel(ride_id: int, cab_id: int, reason: str, fix: tuple[float, float] | None = None) -> tuple[int, str]:
    """The driver gives up the ride before boarding, for a reason the law core accepts (``taxilaw.cancellation``).

    The cancellation is recorded for DIMUTRAN's report (the offer log reads its reason) and the offer is marked; the
    cab is free again. A vehicle problem sends the ride to the next cab (never this one again: it has an offer
    of the ride); otherwise the ride ends. Returns the ride's id and ``reoffer`` or ``end``.
    """
    ride = _driver_ride(ride_id, cab_id, (*cancellation.BEFORE_BOARDING, RideStatus.ON_BOARD))
    now = timezone.now()
    wait = current_parameters().as_of("no_show_wait_minutes", timezone.localdate(now))
    require(cancellation.may_driver_cancel(cancellation.DriverCancelFacts(
        reason=reason, ride_status=ride.status, arrived_at=ride.arriving_at, now=now, no_show_wait_minutes=wait,
        distance_to_pickup_m=_distance_to_pickup(ride, cab_id, fix), arrival_radius_m=_arrival_radius_m(),
    )), "reason")
    step = cancellation.NEXT_STEP[cancellation.CancelReason(reason)]
    DriverCancellation.objects.create(
        ride=ride, permit_id=ride.permit_id, driver_id=ride.driver_id, reason=reason, ride_status=ride.status,
        waited_s=int((now - ride.arriving_at).total_seconds()) if ride.arriving_at else None,
        reoffered=step == cancellation.REOFFER,
    )
    ride.offers.filter(cab_id=cab_id, status=OfferStatus.ACCEPTED).update(status=OfferStatus.CANCELLED)
    set_cab_status(cab_id, CabStatus.FREE)
    if step == cancellation.END:
        _advance(ride, RideStatus.CANCELLED, "cancelled_at", cancelled_by="driver", cancel_reason=reason)
        return ride.pk, step
    # Back to the queue of rides waiting for a cab: the passenger and the operators see it offered again.
    changes = {"status": RideStatus.REQUESTED, "version": ride.version + 1, "cab": None, "permit": None, "driver": None,
               "accepted_at": None, "arriving_at": None, "credentials": {}}
    for name, value in changes.items():
        setattr(ride, name, value)
    ride.save(update_fields=list(changes))
    announce_ride(ride)
    offer_next(ride.pk)
    return ride.pk, step
