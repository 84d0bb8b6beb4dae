"""Exactly one cab wins a ride, even when accepts race in several connections (Art. 66)."""

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from backend.trips.models import Passenger, Ride
from dispatch import errors
from dispatch.models import Cab, Offer
from dispatch.rides import grid, offers, ride_steps

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks across connections need PostgreSQL; CI runs it there"),
]


def _race(target, args_list):
    barrier = threading.Barrier(len(args_list))
    outcomes = []

    def run(*args):
        try:
            barrier.wait()
            target(*args)
            outcomes.append("won")
        except errors.DispatchError as exc:
            outcomes.append(exc.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=args) for args in args_list]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


def _ride():
    return Ride.objects.create(pickup_lat=-21.13, pickup_lon=-42.367, status="offered", created_by="operator")


def _offer(ride, cab):
    return Offer.objects.create(ride=ride, cab=cab, driver=cab.driver, expires_at=timezone.now() + timedelta(seconds=30), reason="teste")


@pytest.mark.article("Art. 66")
def test_many_concurrent_accepts_of_one_offer_one_wins(working_cab):
    permit = working_cab()
    cab = Cab.objects.create(permit=permit, driver=permit.holder, online=True, status="livre")
    ride = _ride()
    offer = _offer(ride, cab)
    outcomes = _race(offers.accept_offer, [(offer.pk, cab.pk)] * 8)
    assert sorted(outcomes) == ["offer_gone"] * 7 + ["won"]
    ride.refresh_from_db()
    assert ride.status == "accepted" and ride.cab_id == cab.pk


@pytest.mark.article("Art. 66")
def test_a_cab_with_an_active_ride_cannot_win_another(working_cab):
    permit = working_cab()
    cab = Cab.objects.create(permit=permit, driver=permit.holder, online=True, status="livre", lat=-21.13, lon=-42.367)
    offers.accept_offer(_offer(_ride(), cab).pk, cab.pk)
    second = offers.assign_by_operator(_ride().pk, permit.pk)  # an operator may still pick the busy cab by hand
    with pytest.raises(errors.DispatchError) as refused:
        offers.accept_offer(second.pk, cab.pk)
    assert refused.value.code == "cab_busy"
    assert Ride.objects.filter(cab=cab, status="accepted").count() == 1


@pytest.mark.article("Art. 66")
def test_rides_requested_at_once_near_one_free_cab_offer_it_once(working_cab):
    """Each request chooses outside any lock; ``one_pending_offer_per_cab`` leaves one offer, the rest go to operators."""
    permit = working_cab()
    cab = Cab.objects.create(
        permit=permit, driver=permit.holder, online=True, status="livre", lat=-21.13, lon=-42.367,
        cell=grid.cell_of(-21.13, -42.367), position_at=timezone.now(),
    )
    outcomes = _race(lambda: offers.request_ride(pickup={"lat": -21.131, "lon": -42.366}), [()] * 6)
    assert outcomes == ["won"] * 6
    assert Offer.objects.filter(cab=cab).count() == 1
    assert sorted(Ride.objects.values_list("status", "escalated")) == [("offered", False)] + [("requested", True)] * 5


@pytest.mark.article("Art. 66")
def test_requests_of_one_passenger_at_once_open_one_ride(working_cab):
    """Two connections of one passenger (or two processes) asking at once: ``one_open_ride_per_passenger`` keeps one."""
    for _ in range(2):
        permit = working_cab()
        Cab.objects.create(permit=permit, driver=permit.holder, online=True, status="livre", lat=-21.13, lon=-42.367,
                           cell=grid.cell_of(-21.13, -42.367), position_at=timezone.now())
    passenger = Passenger.objects.create(name="Ana", phone="32999990000")
    outcomes = _race(lambda: offers.request_ride(pickup={"lat": -21.131, "lon": -42.366}, passenger=passenger), [()] * 6)
    assert sorted(outcomes) == ["ride_open"] * 5 + ["won"]
    assert Ride.objects.filter(passenger=passenger).count() == 1 and Offer.objects.count() == 1


# --- one lock order: the loser of every race gets a specific answer, never a deadlock (issue 14) -------------------

ROUNDS = 200
LOSERS = {"ride_taken", "ride_cancelled", "offer_gone", "cab_has_offer"}


def _pair(first, second):
    """Run two calls at once on two threads (two connections); each outcome is "won", a DispatchError code, or the
    name of any other exception (a deadlock, an internal error)."""
    barrier = threading.Barrier(2)
    outcomes = [None, None]

    def run(i, call):
        try:
            barrier.wait(timeout=10)
            call()
            outcomes[i] = "won"
        except errors.DispatchError as exc:
            outcomes[i] = exc.code
        except Exception as exc:  # noqa: BLE001 - the test counts them: there must be none
            outcomes[i] = f"{type(exc).__name__}: {exc}"
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate((first, second))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return outcomes


def _free_cab(permit):
    return Cab.objects.create(permit=permit, driver=permit.holder, online=True, status="livre", lat=-21.13, lon=-42.367,
                              cell=grid.cell_of(-21.13, -42.367), position_at=timezone.now())


def _settle(ride_id):
    """After a round: the ride is in one consistent state; the cab it holds (if any) is the accepted offer's."""
    ride = Ride.objects.get(pk=ride_id)
    accepted = list(Offer.objects.filter(ride_id=ride_id, status="accepted").values_list("cab_id", flat=True))
    pending = Offer.objects.filter(ride_id=ride_id, status="pending").count()
    assert len(accepted) <= 1, "double assignment"
    if ride.status == "accepted":
        assert accepted == [ride.cab_id]
    elif ride.status == "cancelled":
        assert pending == 0
    else:  # still waiting: offered to one cab or back with the operators, never lost
        assert ride.status in ("offered", "requested") and pending <= 1 and not accepted
    return ride


def _reset(*cabs):
    Ride.objects.filter(status__in=["accepted", "offered", "requested"]).update(status="cancelled")
    Offer.objects.filter(status="pending").update(status="withdrawn")
    Cab.objects.filter(pk__in=[c.pk for c in cabs]).update(status="livre")


def _no_internal(outcomes):
    odd = [o for o in outcomes if o != "won" and o not in LOSERS]
    assert not odd, odd[:5]


@pytest.mark.article("Art. 66")
def test_cancel_against_accept_200_rounds(working_cab):
    permit = working_cab()
    cab = _free_cab(permit)
    passenger = Passenger.objects.create(name="Ana", phone="32999990000")
    outcomes = []
    for _ in range(ROUNDS):
        ride = Ride.objects.create(passenger=passenger, pickup_lat=-21.13, pickup_lon=-42.367, status="offered")
        offer = _offer(ride, cab)
        pair = _pair(lambda offer=offer: offers.accept_offer(offer.pk, cab.pk),
                     lambda ride=ride: ride_steps.cancel_ride(ride.pk, by="passenger", passenger=passenger))
        outcomes += pair
        ride = _settle(ride.pk)
        assert pair[1] == "won" and ride.status == "cancelled"  # accepted or not, the passenger's cancel stands
        assert Cab.objects.get(pk=cab.pk).status == "livre"
        _reset(cab)
    _no_internal(outcomes)


@pytest.mark.article("Art. 66")
def test_operator_assignment_against_accept_200_rounds(working_cab):
    first, second = working_cab(), working_cab()
    cab, other = _free_cab(first), _free_cab(second)
    outcomes = []
    for _ in range(ROUNDS):
        ride = _ride()
        offer = _offer(ride, cab)
        pair = _pair(lambda offer=offer: offers.accept_offer(offer.pk, cab.pk),
                     lambda ride=ride: offers.assign_by_operator(ride.pk, second.pk))
        outcomes += pair
        ride = _settle(ride.pk)
        assert sorted(pair) in (["ride_taken", "won"], ["offer_gone", "won"]), pair
        assert (ride.status == "accepted") == (pair[0] == "won")
        _reset(cab, other)
    _no_internal(outcomes)


@pytest.mark.article("Art. 66")
def test_expiry_against_accept_200_rounds(working_cab):
    permit, spare = working_cab(), working_cab()
    cab, other = _free_cab(permit), _free_cab(spare)
    outcomes = []
    for _ in range(ROUNDS):
        ride = _ride()
        offer = Offer.objects.create(ride=ride, cab=cab, driver=cab.driver, reason="teste",
                                     expires_at=timezone.now() + timedelta(milliseconds=2))
        pair = _pair(lambda offer=offer: offers.accept_offer(offer.pk, cab.pk),
                     lambda: offers.expire_offers(now=timezone.now() + timedelta(seconds=1)))
        outcomes.append(pair[0])
        assert pair[1] == "won", pair  # the sweep never fails, whoever holds the ride
        ride = _settle(ride.pk)
        offer.refresh_from_db()
        assert (offer.status == "accepted") == (pair[0] == "won") and offer.status in ("accepted", "expired", "pending")
        _reset(cab, other)
    _no_internal(outcomes)
