"""Dispatch runs without sockets (issue 34, item 4): advance bookings fall due from the scheduler or a tick that no
websocket started, each claimed once; an escalated ride is offered again when a cab frees, and given up after
``escalation_give_up_minutes`` with the reason the passenger reads (Art. 66, Art. 67)."""

import math
import threading
from datetime import date, timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from backend.bookings import services
from backend.bookings.models import Booking
from backend.parameters.models import DatedParameter
from backend.registry.models import Suspension
from backend.scheduler import jobs as scheduler
from backend.trips.models import Passenger, Ride
from dispatch.events import snapshots
from dispatch.models import Cab, Offer
from dispatch.rides import due_bookings, escalations, give_up, grid, offers
from dispatch.transport import background_tick, presence

from .enforcement_helpers import passenger_client

pytestmark = pytest.mark.django_db
PICKUP = {"lat": -21.131, "lon": -42.367, "address": "Rua Coronel Izalino, 100"}


def free_cab(permit, lat=PICKUP["lat"], lon=PICKUP["lon"]):
    """A cab online and free at the pickup with a live connection row, as a serving process records it (no socket
    here: the ticks' presence sweep keeps it online)."""
    cab = Cab.objects.create(permit=permit, driver=permit.holder, online=True, status="livre", lat=lat, lon=lon,
                             cell=grid.cell_of(lat, lon), position_at=timezone.now())
    presence.renew()
    presence.open_connections([(cab, permit.holder_id, f"test.{cab.pk}")])
    return cab


def booked(minutes_ahead=120, passenger=None):
    if passenger is not None:
        return services.book(passenger=passenger, pickup=PICKUP, pickup_at=timezone.now() + timedelta(minutes=minutes_ahead))
    return services.book(pickup=PICKUP, caller_name="Dona Lúcia", caller_phone="3237211234",
                         pickup_at=timezone.now() + timedelta(minutes=minutes_ahead))


def escalated_ride():
    ride = offers.request_ride(pickup=PICKUP, caller_name="Seu Zé", caller_phone="3237219999")
    ride.refresh_from_db()
    assert ride.escalated and ride.status == "requested"
    return ride


# --- bookings ---------------------------------------------------------------------------------------


@pytest.mark.article("Art. 66")
def test_the_scheduler_turns_an_overdue_booking_into_an_offer_with_no_socket_ever_connected(working_cab):
    before = background_tick._task
    assert before is None or before.done()  # no tick runs here: no websocket, no server
    cab = free_cab(working_cab())
    booking = booked()
    on_time = booking.dispatch_at + timedelta(seconds=1)
    assert scheduler.run_every_tick(on_time) == {}  # on time: left to the serving processes' ticks
    late = booking.dispatch_at + due_bookings.SCHEDULER_GRACE + timedelta(seconds=1)
    assert scheduler.run_every_tick(late) == {"overdue_bookings": "1 agendamento(s) despachado(s)"}
    booking.refresh_from_db()
    assert booking.status == "dispatched" and Offer.objects.get(ride=booking.ride).cab_id == cab.pk
    assert booking.situation() == "despachada: oferecida a um táxi, aguardando o motorista"
    assert background_tick._task is before  # the scheduler did it: no tick was started


@pytest.mark.article("Art. 66")
def test_a_tick_and_the_scheduler_dispatch_each_booking_once():
    due = [booked(120 + i) for i in range(3)]
    late = max(b.dispatch_at for b in due) + due_bookings.SCHEDULER_GRACE + timedelta(seconds=1)
    first = due_bookings.dispatch_due(now=late)  # a tick
    assert len(first) == 3
    assert scheduler.run_every_tick(late) == {}  # the scheduler after it: nothing left
    assert Ride.objects.count() == 3
    assert sorted(Booking.objects.values_list("ride_id", flat=True)) == sorted(r.pk for r in first)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks across connections need PostgreSQL; CI runs it there")
@pytest.mark.article("Art. 66")
def test_two_runners_at_once_the_tick_and_the_scheduler_claim_each_booking_once():
    due = [booked(120 + i) for i in range(6)]
    late = max(b.dispatch_at for b in due) + due_bookings.SCHEDULER_GRACE + timedelta(seconds=1)
    barrier, results = threading.Barrier(4), []
    runners = [lambda: due_bookings.dispatch_due(now=late), lambda: due_bookings.dispatch_due(now=late),
               lambda: scheduler.run_every_tick(late), lambda: scheduler.run_every_tick(late)]

    def run(runner):
        try:
            barrier.wait()
            results.append(runner())
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(r,)) for r in runners]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert Ride.objects.count() == 6
    assert Booking.objects.filter(status="dispatched", ride__isnull=False).count() == 6
    assert len(set(Booking.objects.values_list("ride_id", flat=True))) == 6


# --- escalated rides --------------------------------------------------------------------------------


@pytest.mark.article("Art. 66")
def test_an_escalated_booking_is_offered_by_the_tick_when_a_cab_frees_and_the_booking_says_so(working_cab, monkeypatch):
    def a_round_is_due():
        monkeypatch.setattr(escalations, "_retried_at", -math.inf)  # RETRY_EVERY_SECONDS passed

    booking = booked()
    (ride,) = due_bookings.dispatch_due(now=booking.dispatch_at)
    booking = Booking.objects.select_related("ride").get(pk=booking.pk)
    assert booking.situation().startswith("despachada: nenhum táxi livre ainda")
    a_round_is_due()
    background_tick.tick({})
    assert not Offer.objects.exists()  # still no cab: nothing written, nothing announced again
    version = Ride.objects.get(pk=ride.pk).version
    cab = free_cab(working_cab())  # a cab frees near the pickup
    background_tick.tick({})
    assert not Offer.objects.exists()  # within RETRY_EVERY_SECONDS of the last round: not yet
    a_round_is_due()
    background_tick.tick({})
    offer = Offer.objects.get(ride=ride)
    ride.refresh_from_db()
    assert offer.cab_id == cab.pk and ride.status == "offered" and ride.version == version + 1
    assert "mais próximo" in offer.reason and offer.candidates  # the normal path's reason and audit
    booking = Booking.objects.select_related("ride").get(pk=booking.pk)
    assert booking.situation() == "despachada: oferecida a um táxi, aguardando o motorista"


@pytest.mark.article("Art. 54, b", "Art. 66")
def test_a_retry_respects_the_law_a_suspended_cab_and_a_cab_offered_before_are_not_offered(working_cab, today):
    ride = escalated_ride()
    suspended = free_cab(working_cab())
    Suspension.objects.create(permit=suspended.permit, starts_on=today, ends_on=today + timedelta(days=3), reason="teste")
    assert escalations.retry() == 0
    declined = free_cab(working_cab())
    Offer.objects.create(ride=ride, cab=declined, driver=declined.driver, status="declined", expires_at=timezone.now())
    assert escalations.retry() == 0 and Ride.objects.get(pk=ride.pk).status == "requested"
    allowed = free_cab(working_cab())
    assert escalations.retry() == 1
    assert Offer.objects.get(ride=ride, status="pending").cab_id == allowed.pk


def test_retries_are_bounded_per_tick_oldest_first_in_rounds(working_cab, monkeypatch):
    rides = [escalated_ride() for _ in range(5)]
    tried = []
    monkeypatch.setattr(escalations, "offer_escalated", lambda pk: tried.append(pk))
    monkeypatch.setattr(escalations, "_after", 0)
    free_cab(working_cab())
    for _ in range(4):
        escalations.retry(limit=2)
    ids = [r.pk for r in rides]
    assert tried == ids + ids[:2]  # 2, 2, the last one, then the round starts again


@pytest.mark.article("Art. 66", "Art. 67")
def test_an_escalated_ride_is_given_up_after_the_parameter_with_the_reason_the_passenger_reads():
    maria = Passenger.objects.create(name="Maria", phone="32999990000")
    ride = offers.request_ride(pickup=PICKUP, passenger=maria)
    ride.refresh_from_db()
    body = snapshots.ride(ride)
    deadline = ride.requested_at + timedelta(minutes=15)
    assert body["gives_up_at"] == deadline.isoformat()  # the console's countdown
    assert escalations.give_up(now=deadline - timedelta(seconds=1)) == 0
    assert escalations.give_up(now=deadline + timedelta(seconds=1)) == 1
    ride.refresh_from_db()
    assert (ride.status, ride.cancelled_by) == ("cancelled", "no_cab")
    assert ride.cancel_reason == "nenhum táxi ficou livre para atender em 15 minutos"
    assert "gives_up_at" not in snapshots.ride(ride)
    assert not maria.rides.filter(status="requested").exists()  # she may ask again


@pytest.mark.article("Art. 66", "Art. 67")
def test_the_give_up_is_a_dated_parameter_and_a_booking_counts_from_its_pickup_time():
    DatedParameter.objects.create(name=give_up.PARAMETER, effective_from=date(2026, 2, 1), value=5, source="teste")
    booking = booked()
    (ride,) = due_bookings.dispatch_due(now=booking.dispatch_at)
    ride.refresh_from_db()
    assert give_up.minutes(booking.pickup_at) == 5
    assert give_up.gives_up_at(ride) == booking.pickup_at + timedelta(minutes=5)  # not from the early dispatch
    assert escalations.give_up(now=booking.pickup_at + timedelta(minutes=4)) == 0
    assert escalations.give_up(now=booking.pickup_at + timedelta(minutes=5, seconds=1)) == 1
    booking = Booking.objects.select_related("ride").get(pk=booking.pk)
    assert booking.situation() == "despachada: corrida cancelada (nenhum táxi ficou livre para atender em 5 minutos)"


def test_a_ride_an_operator_is_assigning_is_not_given_up(working_cab):
    ride = escalated_ride()
    cab = free_cab(working_cab())
    offers.assign_by_operator(ride.pk, cab.permit_id)
    assert escalations.give_up(now=timezone.now() + timedelta(hours=1)) == 0
    assert Ride.objects.get(pk=ride.pk).status == "offered"


@pytest.mark.article("Art. 66")
def test_the_passengers_booking_list_tells_what_became_of_the_ride(working_cab):
    maria = Passenger.objects.create(name="Maria", phone="32999990000")
    booking = booked(passenger=maria)
    due_bookings.dispatch_due(now=booking.dispatch_at)
    (row,) = passenger_client(maria).get("/api/bookings/").json()["bookings"]
    assert (row["status"], row["ride_status"]) == ("dispatched", "requested")
    assert row["status_label"].startswith("despachada: nenhum táxi livre ainda; a central foi avisada")
