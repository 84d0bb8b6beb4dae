"""Bounded writes (docs/security.md, "Write limits"): a passenger's bookings, complaints and ratings are capped by
named parameters and throttled per passenger; a place outside Muriaé is refused by every door that takes one."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from backend.api.throttling import BookingThrottle, ComplaintThrottle, RatingThrottle
from backend.bookings.models import Booking
from backend.enforcement.models import Complaint
from backend.parameters.models import DatedParameter
from backend.trips.models import Passenger
from dispatch import protocol

from .enforcement_helpers import make_ride, passenger_client

pytestmark = pytest.mark.django_db
PICKUP = {"lat": -21.131, "lon": -42.367, "address": "Rua Coronel Izalino, 100"}
RODOVIARIA = {"lat": -21.1283, "lon": -42.3712, "address": "Rodoviária"}
OUTSIDE = [{"lat": -23.5505, "lon": -46.6333, "address": "Praça da Sé, São Paulo"}, {"lat": 90, "lon": 180}]


def book(client, minutes=120, **extra):
    pickup_at = (timezone.now() + timedelta(minutes=minutes)).isoformat()
    return client.post("/api/bookings/", {"pickup": PICKUP, "pickup_at": pickup_at, **extra}, format="json")


def reasons(response):
    assert response.status_code == 400, response.content
    return [r["code"] for r in response.json()["reasons"]]


@pytest.mark.article("Art. 66")
def test_a_passenger_holds_three_bookings_at_once_and_cancelling_one_frees_a_place():
    client = passenger_client(Passenger.objects.create(name="Maria", phone="32999990000"))
    first, *_ = [book(client, 60 + 10 * n).json()["id"] for n in range(3)]
    refused = book(client, 200)
    assert reasons(refused) == ["booking_too_many_open"]
    assert "limite é 3 por passageiro" in refused.json()["reasons"][0]["message"]
    assert client.post(f"/api/bookings/{first}/cancel/").status_code == 200
    assert book(client, 200).status_code == 201
    other = passenger_client(Passenger.objects.create(name="João", phone="32999990001"))
    assert book(other, 200).status_code == 201  # per passenger: the next one books


@pytest.mark.article("Art. 66")
def test_a_passenger_makes_ten_bookings_a_day_cancelled_ones_included():
    client = passenger_client(Passenger.objects.create(name="Maria", phone="32999990000"))
    for n in range(10):
        made = book(client, 60 + n)
        assert made.status_code == 201, made.content
        assert client.post(f"/api/bookings/{made.json()['id']}/cancel/").status_code == 200
    refused = book(client, 200)
    assert reasons(refused) == ["booking_too_many_today"]
    assert "10 agendamentos por dia" in refused.json()["reasons"][0]["message"]
    DatedParameter.objects.create(name="booking_max_per_day_per_passenger", effective_from=timezone.localdate(),
                                  value=11, source="Decreto (teste)")
    assert book(client, 200).status_code == 201  # a named, dated parameter
    assert Booking.objects.count() == 11


@pytest.mark.article("Art. 66")
def test_an_operator_books_for_callers_beyond_a_passenger_s_caps():
    operator = APIClient()
    operator.force_authenticate(get_user_model().objects.create_user("operadora", password="x", is_staff=True))
    for n in range(4):
        assert book(operator, 60 + n, caller_name="Dona Zica", caller_phone="(32) 3721-0000").status_code == 201


@pytest.mark.article("Art. 60")
def test_one_complaint_a_ride_of_at_most_4000_characters(working_cab):
    ride = make_ride(working_cab())
    client = passenger_client(ride.passenger)
    too_long = client.post("/api/complaints/", {"ride": ride.pk, "description": "x" * 4001}, format="json")
    assert reasons(too_long) == ["complaint_too_long"] and "no máximo 4000" in too_long.json()["reasons"][0]["message"]
    assert too_long.json()["description"]  # the field the form marks
    assert client.post("/api/complaints/", {"ride": ride.pk, "description": "x" * 4000}, format="json").status_code == 201
    second = client.post("/api/complaints/", {"ride": ride.pk, "description": "Esqueci de dizer: cobrou a bagagem."}, format="json")
    assert reasons(second) == ["complaint_limit_per_ride"]
    assert second.json()["reasons"][0]["message"] == "Você já registrou uma reclamação sobre esta corrida; a DIMUTRAN vai analisá-la (Art. 60)."
    assert Complaint.objects.count() == 1
    other = make_ride(ride.permit, passenger=ride.passenger)
    assert client.post("/api/complaints/", {"ride": other.pk, "description": "Outra."}, format="json").status_code == 201


def test_a_ride_is_rated_once(working_cab):
    ride = make_ride(working_cab())
    client = passenger_client(ride.passenger)
    assert client.post("/api/ratings/", {"ride": ride.pk, "stars": 5}, format="json").status_code == 201
    again = client.post("/api/ratings/", {"ride": ride.pk, "stars": 1}, format="json")
    assert again.status_code == 400 and "já foi avaliada" in again.json()["ride"][0]


@pytest.mark.parametrize("throttle, path", [(RatingThrottle, "/api/ratings/"), (ComplaintThrottle, "/api/complaints/"),
                                            (BookingThrottle, "/api/bookings/")])
def test_the_throttles_count_each_authenticated_passenger(working_cab, monkeypatch, throttle, path):
    monkeypatch.setattr(throttle, "rate", "2/hour")
    permit = working_cab()
    maria, joao = (Passenger.objects.create(name=n, phone="32999990000") for n in ("Maria", "João"))
    rides = [make_ride(permit, passenger=maria) for _ in range(3)]
    client = passenger_client(maria)

    def send(ride, who=client):
        body = {"pickup": PICKUP, "pickup_at": (timezone.now() + timedelta(hours=2)).isoformat(),
                "ride": ride.pk, "stars": 4, "description": "Demorou."}
        return who.post(path, body, format="json")

    assert [send(r).status_code for r in rides] == [201, 201, 429]
    assert "Retry-After" in send(rides[2]) and send(make_ride(permit, passenger=joao), passenger_client(joao)).status_code == 201


@pytest.mark.article("Art. 25")
@pytest.mark.parametrize("place", OUTSIDE)
def test_a_destination_outside_muriae_is_refused_by_every_door(place):
    booking = book(passenger_client(Passenger.objects.create(name="Maria", phone="32999990000")), destination=place)
    assert booking.status_code == 400 and "fora do município de Muriaé" in booking.json()["destination"][0]
    estimate = APIClient().post("/api/fare-estimate/", {"origin": PICKUP, "destination": place}, format="json")
    assert estimate.status_code == 400 and "fora do município" in estimate.json()["destination"][0]
    assert not Booking.objects.exists()
    for role, frame in (("passenger", {"type": "ride_request", "pickup": PICKUP, "destination": place}),
                        ("operator", {"type": "ride_create", "pickup": PICKUP, "destination": place,
                                      "caller_name": "Dona Zica", "caller_phone": "3237210000"})):
        with pytest.raises(protocol.ProtocolError) as refused:
            protocol.parse(role, json.dumps(frame))
        assert "fora do município" in refused.value.fields["destination"][0]
    inside = {"type": "ride_request", "pickup": PICKUP, "destination": RODOVIARIA}
    assert protocol.parse("passenger", json.dumps(inside))[1]["destination"]["address"] == "Rodoviária"


def test_the_write_limits_table_lists_every_write():
    """docs/security.md's "Write limits" names every REST write of the OpenAPI schema and every inbound socket frame."""
    import re
    from pathlib import Path

    from drf_spectacular.generators import SchemaGenerator

    doc = Path(__file__).resolve().parents[2].joinpath("docs", "security.md").read_text(encoding="utf-8")
    table = doc.split("## Write limits", 1)[1].split("\n## ", 1)[0]
    listed_paths = set(re.findall(r"(/api/[^\s`]*)`", table))
    socket_rows = [line for line in table.splitlines() if line.startswith("| socket ")]
    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    writes = {p for p, operations in paths.items() if {"post", "put", "patch", "delete"} & set(operations)}
    assert sorted(writes - listed_paths) == []
    frames = {(role, frame) for role, inbound in protocol.INBOUND.items() for frame in inbound if frame != "ping"}
    listed_frames = {(role, frame) for line in socket_rows for role in protocol.INBOUND
                     if line.startswith(f"| socket {role} ") for frame in re.findall(r"`(\w+)`", line.split(" | ")[0])}
    assert sorted(frames - listed_frames) == [] and any("`ping` (every role)" in line for line in socket_rows)
