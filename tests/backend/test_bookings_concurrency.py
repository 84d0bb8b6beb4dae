"""A due booking is dispatched once even when every process's tick claims it at the same moment, and one passenger's
bookings at once count each other (Art. 66)."""

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from backend.bookings import services
from backend.bookings.models import Booking
from backend.trips.models import Ride
from dispatch.rides.due_bookings import dispatch_due

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks across connections need PostgreSQL; CI runs it there"),
]


@pytest.mark.article("Art. 66")
def test_eight_ticks_at_once_dispatch_a_booking_once():
    booking = services.book(pickup={"lat": -21.131, "lon": -42.367}, caller_name="Dona Lúcia", caller_phone="3237211234",
                            pickup_at=timezone.now() + timedelta(hours=2))
    barrier, results = threading.Barrier(8), []

    def tick():
        try:
            barrier.wait()
            results.append(len(dispatch_due(now=booking.dispatch_at)))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=tick) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [0] * 7 + [1]
    assert Ride.objects.count() == 1 and Booking.objects.get().ride_id == Ride.objects.get().pk


@pytest.mark.article("Art. 66")
def test_twelve_bookings_at_once_by_one_passenger_leave_three_open():
    from backend.api_errors import LawViolation
    from backend.trips.models import Passenger

    maria = Passenger.objects.create(name="Maria", phone="32999990000")
    barrier, outcomes = threading.Barrier(12), []

    def book(n):
        try:
            barrier.wait()
            services.book(passenger=maria, pickup={"lat": -21.131, "lon": -42.367},
                          pickup_at=timezone.now() + timedelta(hours=2, minutes=n))
            outcomes.append("booked")
        except LawViolation as exc:
            outcomes.append(exc.decision.codes[0])
        finally:
            connections.close_all()

    threads = [threading.Thread(target=book, args=(n,)) for n in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["booked"] * 3 + ["booking_too_many_open"] * 9
    assert Booking.objects.filter(passenger=maria).count() == 3
