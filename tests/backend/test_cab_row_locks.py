"""An offer's INSERT never queues behind a transaction that holds its cab's row (issue 33, the 8-process tail).

The offer's foreign key makes PostgreSQL take ``FOR KEY SHARE`` on the cab's row. A ``FOR UPDATE`` of that row (a
status or connection batch, an offline sweep, a rank check-in) conflicts with it, so the offer waited for the whole
batch's commit (533 ms seen); every path that holds a cab's row now takes ``FOR NO KEY UPDATE`` (its writes touch no
key), which does not. Each case holds the row through the real code path in one connection and inserts an offer
for that cab in another under ``lock_timeout``: a lock wait fails the insert, a free path never meets the timeout
(it counts only time spent waiting for a lock, so a slow machine cannot fail it). The first case shows that the
check can fail: the old ``FOR UPDATE OF c`` makes the insert wait, and the timeout says so.
"""

import threading
from contextlib import contextmanager
from datetime import timedelta

import pytest
from django.db import OperationalError, connection, connections, transaction
from django.utils import timezone

from backend.trips.models import Ride
from dispatch.models import Cab, CabStatus, Offer, RideShare
from dispatch.rides import cabs, positions
from dispatch.rides.ride_writes import lock_ride
from dispatch.transport import connection_sql

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="row lock modes (FOR NO KEY UPDATE, FOR KEY SHARE) are PostgreSQL's; SQLite locks the whole file"),
]

LOCK_TIMEOUT = "500ms"  # only a lock wait counts against it; the insert itself takes a few ms on any machine
HANDSHAKE_S = 30  # the most either side waits for the other's step: a bound for a broken test, not a duration


@contextmanager
def _held(hold):
    """Run ``hold()`` in a transaction of another connection and keep that transaction open for the block."""
    holding, release, failed = threading.Event(), threading.Event(), []

    def run():
        try:
            with transaction.atomic():
                hold()
                holding.set()
                release.wait(HANDSHAKE_S)
        except Exception as exc:  # noqa: BLE001 - reported to the test below
            failed.append(exc)
            holding.set()
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    try:
        assert holding.wait(HANDSHAKE_S), "the holding transaction never took its lock"
        assert not failed, failed
        yield
    finally:
        release.set()
        thread.join(HANDSHAKE_S)
    assert not failed, failed


def _insert_offer(cab: Cab) -> Offer:
    ride = Ride.objects.create(pickup_lat=-21.13, pickup_lon=-42.367, status="offered", created_by="operator")
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'")
        return Offer.objects.create(ride=ride, cab=cab, driver=cab.driver, reason="teste",
                                    expires_at=timezone.now() + timedelta(seconds=30))


@pytest.fixture
def cab(working_cab):
    permit = working_cab()
    return Cab.objects.create(permit=permit, driver=permit.holder, online=True, status=CabStatus.FREE,
                              lat=-21.13, lon=-42.367)


def _old_for_update(cab):
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT c.id FROM {connection_sql.CAB} c WHERE c.id = %s FOR UPDATE OF c", [cab.pk])


def test_the_check_fails_when_the_cab_row_is_held_for_update(cab):
    """The lock of before the cure: the offer's foreign-key check waits for it and meets the timeout."""
    with _held(lambda: _old_for_update(cab)), pytest.raises(OperationalError, match="lock timeout"):
        _insert_offer(cab)
    assert not Offer.objects.filter(cab=cab).exists()


HOLDERS = {
    # A driver's status frame, batched (cabs.set_status_many): the row read and locked with its names, then written.
    "status batch": lambda cab: (connection_sql.with_names([cab.pk], lock=True),
                                 connection_sql.update([cab.pk], "status", CabStatus.FREE)),
    # A reconnection (cabs.go_online_many) and a disconnection or offline sweep (cabs.go_offline_many, sweep_presence).
    "connection batch": lambda cab: (connection_sql.lock_by_permit([cab.permit_id]), connection_sql.update([cab.pk], "online", True)),
    "offline sweep": lambda cab: (connection_sql.with_names([cab.pk], lock=True), connection_sql.update([cab.pk], "online", True)),
    # The rank check-in's read of the cab (cabs.seen), held for the check-in's transaction.
    "rank check-in": lambda cab: cabs.seen(cab.permit_id),
    # The position flush: one UPDATE of many cabs' positions, cells and zones.
    "position flush": lambda cab: positions.flush({cab.pk: (-21.131, -42.368, timezone.now())}),
    # A ride step: the ride's row first (every ride-and-offer path), then the cab's status.
    "ride write": lambda cab: (lock_ride(Ride.objects.create(pickup_lat=-21.13, pickup_lon=-42.367, status="offered",
                                                             created_by="operator").pk),
                               Cab.objects.filter(pk=cab.pk).update(status=CabStatus.EN_ROUTE)),
}


@pytest.mark.parametrize("path", sorted(HOLDERS))
def test_an_offer_to_a_cab_whose_row_is_held_does_not_wait(cab, path):
    with _held(lambda: HOLDERS[path](cab)):
        offer = _insert_offer(cab)
    assert Offer.objects.filter(pk=offer.pk, cab=cab).exists()


def test_the_cab_row_writers_still_exclude_each_other(cab):
    """What the locks are for holds: a second status batch on the same cab waits for the first (and times out here)."""
    with _held(lambda: connection_sql.with_names([cab.pk], lock=True)), pytest.raises(OperationalError, match="lock timeout"):
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'")
            connection_sql.with_names([cab.pk], lock=True)


def test_a_row_that_references_a_locked_ride_is_written_without_waiting(cab):
    """``lock_ride`` (every ride-and-offer path's first lock) is ``FOR NO KEY UPDATE`` too: a passenger sharing the
    ride while a ride step holds it is not queued behind that step; two ride steps still take turns."""
    ride = Ride.objects.create(pickup_lat=-21.13, pickup_lon=-42.367, status="offered", created_by="operator")
    with _held(lambda: lock_ride(ride.pk)):
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'")
            RideShare.objects.create(ride=ride, token_hash="0" * 64)
        with pytest.raises(OperationalError, match="lock timeout"), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'")
            lock_ride(ride.pk)
    assert RideShare.objects.filter(ride=ride).exists()
