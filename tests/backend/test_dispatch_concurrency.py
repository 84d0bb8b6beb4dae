"""Exactly one cab wins a ride, even when accepts race in several connections (Art. 66)."""

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from backend.trips.models import Passenger, Ride
from dispatch import grid, services
from dispatch.models import Cab, Offer

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
        except services.DispatchError as exc:
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
    outcomes = _race(services.accept_offer, [(offer.pk, cab.pk)] * 8)
    assert sorted(outcomes) == ["offer_gone"] * 7 + ["won"]
    ride.refresh_from_db()
    assert ride.status == "accepted" and ride.cab_id == cab.pk


@pytest.mark.article("Art. 66")
def test_a_cab_with_an_active_ride_cannot_win_another(working_cab):
    permit = working_cab()
    cab = Cab.objects.create(permit=permit, driver=permit.holder, online=True, status="livre", lat=-21.13, lon=-42.367)
    services.accept_offer(_offer(_ride(), cab).pk, cab.pk)
    second = services.assign_by_operator(_ride().pk, permit.pk)  # an operator may still pick the busy cab by hand
    with pytest.raises(services.DispatchError) as refused:
        services.accept_offer(second.pk, cab.pk)
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
    outcomes = _race(lambda: services.request_ride(pickup={"lat": -21.131, "lon": -42.366}), [()] * 6)
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
    outcomes = _race(lambda: services.request_ride(pickup={"lat": -21.131, "lon": -42.366}, passenger=passenger), [()] * 6)
    assert sorted(outcomes) == ["ride_open"] * 5 + ["won"]
    assert Ride.objects.filter(passenger=passenger).count() == 1 and Offer.objects.count() == 1
