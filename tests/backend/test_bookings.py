"""Advance bookings (Art. 66): booked by a passenger or an operator, dispatched once at their time."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from backend.accounts import tokens
from backend.bookings import services
from backend.bookings.models import Booking
from backend.trips.models import Passenger, Ride
from dispatch.models import Cab, Offer
from dispatch.rides import grid
from dispatch.rides.due_bookings import dispatch_due

from .enforcement_helpers import passenger_client

pytestmark = pytest.mark.django_db
PICKUP = {"lat": -21.131, "lon": -42.367, "address": "Rua Coronel Izalino, 100"}
RODOVIARIA = {"lat": -21.1283, "lon": -42.3712, "address": "Rodoviária"}


@pytest.fixture
def maria():
    return Passenger.objects.create(name="Maria", phone="32999990000")


@pytest.fixture
def operator():
    client = APIClient()
    client.force_authenticate(get_user_model().objects.create_user("operadora", password="x", is_staff=True))
    return client


def free_cab(permit):
    return Cab.objects.create(permit=permit, driver=permit.holder, online=True, status="livre", lat=PICKUP["lat"],
                              lon=PICKUP["lon"], cell=grid.cell_of(PICKUP["lat"], PICKUP["lon"]), position_at=timezone.now())


def at(minutes):
    return (timezone.now() + timedelta(minutes=minutes)).isoformat()


@pytest.mark.article("Art. 66")
def test_a_passenger_books_and_sees_it_dispatch_starts_15_minutes_before(maria):
    client = passenger_client(maria)
    r = client.post("/api/bookings/", {"pickup": PICKUP, "destination": RODOVIARIA, "pickup_at": at(120)}, format="json")
    assert r.status_code == 201, r.content
    booking = Booking.objects.get()
    assert booking.pickup_at - booking.dispatch_at == timedelta(minutes=15) and booking.created_by == "passenger"
    assert [b["id"] for b in client.get("/api/bookings/").json()["bookings"]] == [booking.pk]


@pytest.mark.article("Art. 66")
def test_an_operator_books_for_a_caller_and_lists_upcoming(operator, maria):
    missing = operator.post("/api/bookings/", {"pickup": PICKUP, "pickup_at": at(120)}, format="json")
    assert missing.status_code == 400 and "caller_phone" in missing.json()
    r = operator.post("/api/bookings/", {"pickup": PICKUP, "pickup_at": at(90), "caller_name": "Dona Lúcia",
                                         "caller_phone": "(32) 3721-1234"}, format="json")
    assert r.status_code == 201 and r.json()["phone"] == "+553237211234"  # stored in E.164 (taxilaw.brazil)
    passenger_client(maria).post("/api/bookings/", {"pickup": PICKUP, "pickup_at": at(60)}, format="json")
    rows = operator.get("/api/bookings/").json()["bookings"]
    assert [b["passenger"] for b in rows] == ["Maria", "Dona Lúcia"]  # soonest first


@pytest.mark.article("Art. 66")
@pytest.mark.parametrize("body, field", [
    ({"pickup": PICKUP, "pickup_at": "amanhã"}, "pickup_at"),
    ({"pickup": PICKUP, "pickup_at": "2026-03-05T06:00:00"}, "pickup_at"),  # no offset
    ({"pickup": {"lat": -23.55, "lon": -46.63}, "pickup_at": None}, "pickup"),
])
def test_bad_bookings_are_a_400_naming_the_field(maria, body, field):
    body = dict(body, pickup_at=body["pickup_at"] or at(120))
    r = passenger_client(maria).post("/api/bookings/", body, format="json")
    assert r.status_code == 400 and field in r.json(), r.content


@pytest.mark.article("Art. 66")
def test_too_soon_is_refused_citing_the_article(maria):
    r = passenger_client(maria).post("/api/bookings/", {"pickup": PICKUP, "pickup_at": at(10)}, format="json")
    assert r.status_code == 400 and r.json()["reasons"][0]["code"] == "booking_too_soon"
    assert not Booking.objects.exists()


@pytest.mark.article("Art. 66")
def test_a_due_booking_becomes_a_ride_offered_once(working_cab, maria):
    cab = free_cab(working_cab())
    booking = services.book(passenger=maria, pickup=PICKUP, destination=RODOVIARIA, pickup_at=timezone.now() + timedelta(hours=2))
    assert dispatch_due() == []  # not yet
    later = booking.dispatch_at + timedelta(seconds=1)
    (ride,) = dispatch_due(now=later)
    assert dispatch_due(now=later) == []  # claimed: never twice
    booking.refresh_from_db()
    assert (booking.status, booking.ride_id) == ("dispatched", ride.pk)
    assert ride.passenger == maria and ride.destination_address == "Rodoviária"
    assert Offer.objects.get(ride=ride).cab_id == cab.pk


@pytest.mark.article("Art. 66")
def test_a_booking_no_cab_takes_escalates_at_dispatch_time_before_the_pickup():
    booking = services.book(pickup=PICKUP, caller_name="Dona Lúcia", caller_phone="3237211234",
                            pickup_at=timezone.now() + timedelta(hours=2))
    (ride,) = dispatch_due(now=booking.dispatch_at)
    ride.refresh_from_db()
    assert ride.escalated and ride.caller_phone == "3237211234" and ride.created_by == "operator"
    assert booking.pickup_at - timezone.now() > timedelta(minutes=14)  # the operators still have the lead time


@pytest.mark.article("Art. 66")
def test_a_passenger_with_a_ride_open_at_dispatch_time_gets_a_failed_booking_not_a_second_ride(maria):
    Ride.objects.create(passenger=maria, pickup_lat=-21.13, pickup_lon=-42.37, status="requested")
    booking = services.book(passenger=maria, pickup=PICKUP, pickup_at=timezone.now() + timedelta(hours=2))
    assert dispatch_due(now=booking.dispatch_at) == []
    booking.refresh_from_db()
    assert booking.status == "failed" and "corrida em andamento" in booking.note


def test_cancel_own_booking_once(maria):
    booking = services.book(passenger=maria, pickup=PICKUP, pickup_at=timezone.now() + timedelta(hours=2))
    other = Passenger.objects.create(name="João", phone="32988887777")
    assert passenger_client(other).post(f"/api/bookings/{booking.pk}/cancel/").json()["code"] == "not_your_booking"
    assert passenger_client(maria).post(f"/api/bookings/{booking.pk}/cancel/").json()["status"] == "cancelled"
    again = passenger_client(maria).post(f"/api/bookings/{booking.pk}/cancel/")
    assert again.status_code == 400 and again.json()["code"] == "booking_not_scheduled"
    assert dispatch_due(now=booking.dispatch_at) == []


@pytest.mark.article("Art. 66")
def test_dispatchs_background_tick_dispatches_a_booking_whose_time_came(monkeypatch):
    from dispatch.transport import background_tick

    booking = services.book(pickup=PICKUP, caller_name="Dona Lúcia", caller_phone="3237211234",
                            pickup_at=timezone.now() + timedelta(hours=2))
    background_tick.tick({})
    assert Booking.objects.get().status == "scheduled"  # not yet
    Booking.objects.filter(pk=booking.pk).update(dispatch_at=timezone.now() - timedelta(seconds=1))  # its time came
    background_tick.tick({})
    assert Booking.objects.get().ride.escalated


def test_an_expired_operator_token_is_refused(settings):
    token = tokens.issue(get_user_model().objects.create_user("operador2", password="x", is_staff=True))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get("/api/bookings/").status_code == 200
    Token.objects.filter(pk=token.pk).update(created=token.created - settings.AUTH_TOKEN_TTL - timedelta(seconds=1))
    answer = client.get("/api/bookings/")
    assert answer.status_code == 401 and "expirada" in answer.json()["detail"]
