"""Exactly one cab wins a ride, even when accepts race in several connections (Art. 66)."""

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from dispatch import services
from dispatch.models import Cab, Offer, Ride

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
def test_one_cab_cannot_win_two_rides_at_once(working_cab):
    permit = working_cab()
    cab = Cab.objects.create(permit=permit, driver=permit.holder, online=True, status="livre")
    offers = [_offer(_ride(), cab) for _ in range(6)]
    outcomes = _race(services.accept_offer, [(o.pk, cab.pk) for o in offers])
    assert sorted(outcomes) == ["cab_busy"] * 5 + ["won"]
    assert Ride.objects.filter(cab=cab, status="accepted").count() == 1
