"""Consumers without a server (Channels' ``WebsocketCommunicator``): bad frames, refusals, floods, auth.

What needs no real Daphne runs here, in process; tests/e2e keeps what does (several processes, the
offering worker, the browser, the app against a real socket).
"""

from __future__ import annotations

import asyncio
import json
import uuid
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.authtoken.models import Token

from backend.trips.models import Passenger, Ride
from dispatch.consumers import DriverConsumer, PassengerConsumer

from .ws_helpers import connect, positions_flushed, through_routing

pytestmark = pytest.mark.django_db(transaction=True)
CENTRE = (-21.1311, -42.3676)


@pytest.fixture
def drivers(working_cab, make_person, settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    User = get_user_model()
    users = []
    for n in range(2):
        person = make_person(user=User.objects.create_user(f"inproc{n}", password="x"))
        working_cab(holder=person)
        users.append(person.user)
    return users


def street_trip(minutes: float = 3, points: int = 20) -> dict:
    start = timezone.now() - timedelta(minutes=minutes + 1)
    trace = [{"t": (start + timedelta(seconds=i * minutes * 60 / points)).isoformat(), "lat": CENTRE[0] - i * 0.0003,
              "lon": CENTRE[1], "accuracy_m": 6} for i in range(points)]
    return {"type": "street_trip_complete", "trip_id": str(uuid.uuid4()), "started_at": trace[0]["t"],
            "meter_total": "9.90", "trace": trace}


def test_bad_frames_get_error_frames_and_floods_a_policy_close(drivers):
    async def scenario():
        d = await connect(DriverConsumer, "/ws/driver/", drivers[0], "driver", set())
        await d.until("snapshot")
        await d.ws.send_to(text_data="{not json")
        assert (await d.until("error"))["code"] == "malformed_json"
        assert (await d.ask("error", type="teleport"))["code"] == "unknown_type"
        error = await d.ask("error", type="position", lat=200, lon="x")
        assert error["code"] == "invalid" and {"lat", "lon"} <= set(error["fields"])
        await d.ws.send_to(text_data='{"type": "ping", "pad": "' + "x" * (1024 * 1024 + 10) + '"}')
        assert (await d.until("error"))["code"] == "too_large"
        assert (await d.ask("error", type="offer_accept", offer_id=999999))["code"] == "offer_gone"
        await d.ask("pong", type="ping")  # still connected and served
        for _ in range(200):
            await d.send(type="ping")
        frames = []
        while not frames or frames[-1]["type"] != "closed":
            frames.append(await d.recv())
        assert [f["code"] for f in frames if f["type"] == "error"] == ["flood"]
        await d.ws.disconnect()

    asyncio.run(scenario())


def test_the_policy_close_code_is_4008(drivers):
    async def scenario():
        d = await connect(DriverConsumer, "/ws/driver/", drivers[0], "driver", set())
        await d.until("snapshot")
        for _ in range(200):
            await d.send(type="ping")
        while True:
            message = await asyncio.wait_for(d.ws.output_queue.get(), 5)
            if message["type"] == "websocket.close":
                return message["code"]

    assert asyncio.run(scenario()) == 4008  # 1008 in the range Daphne lets applications send


def test_a_driver_without_a_valid_token_is_refused_at_the_handshake_and_one_with_a_token_is_served(drivers):
    async def scenario():
        _ws, connected, code = await through_routing("/ws/driver/", [(b"authorization", b"Token wrong-token")])
        assert not connected and code == 4401
        _ws, connected, code = await through_routing("/ws/driver/")
        assert not connected and code == 4401
        key = (await asyncio.to_thread(Token.objects.create, user=drivers[0])).key
        ws, connected, _code = await through_routing("/ws/driver/", [(b"authorization", f"Token {key}".encode())])
        assert connected and json.loads(await ws.receive_from(5))["type"] == "snapshot"
        await ws.disconnect()

    asyncio.run(scenario())


def test_an_operator_must_be_staff(drivers):
    async def scenario():
        _ws, connected, code = await through_routing("/ws/operator/")
        return connected, code

    assert asyncio.run(scenario()) == (False, 4403)


def test_a_passenger_must_authenticate_first_and_cannot_cancel_anothers_ride(drivers):
    mine_p = Passenger.objects.create(name="Ana", phone="32999990000")
    other_p = Passenger.objects.create(name="Bia", phone="32999990001")
    lat, lon = CENTRE

    async def scenario():
        mine = await connect(PassengerConsumer, "/ws/passenger/", None, "passenger", set())
        assert (await mine.ask("error", type="ride_request", pickup={"lat": lat, "lon": lon}))["code"] == "auth_required"
        await mine.ask("snapshot", type="auth", token=mine_p.token)
        ride = (await mine.ask("ride_update", type="ride_request", pickup={"lat": lat - 0.02, "lon": lon - 0.02}))["ride"]
        assert (await mine.ask("error", type="ride_request", pickup={"lat": lat, "lon": lon}))["code"] == "ride_open"
        other = await connect(PassengerConsumer, "/ws/passenger/", None, "passenger", set())
        await other.ask("snapshot", type="auth", token=other_p.token)
        assert (await other.ask("error", type="ride_cancel", ride_id=ride["id"]))["code"] == "not_your_ride"
        await mine.send(type="ride_cancel", ride_id=ride["id"])
        await mine.until("ride_update", where=lambda m: m["ride"]["status"] == "cancelled")
        bad = await connect(PassengerConsumer, "/ws/passenger/", None, "passenger", set())
        assert (await bad.ask("error", type="auth", token="nope"))["code"] == "bad_token"
        for client in (mine, other, bad):
            await client.ws.disconnect()

    asyncio.run(scenario())


@pytest.mark.article("Art. 43")
def test_bad_street_trips_get_field_errors_and_a_cab_on_a_dispatched_ride_cab_busy_with_the_trip_id(drivers):
    passenger = Passenger.objects.create(name="Ana", phone="32999990000")
    lat, lon = CENTRE

    async def scenario():
        d = await connect(DriverConsumer, "/ws/driver/", drivers[1], "driver", set())
        await d.until("snapshot")
        good = street_trip()
        bad = [
            ({k: v for k, v in good.items() if k != "trace"}, {"trace"}),
            (dict(good, trace=[]), {"trace"}),
            (dict(good, trip_id="not-a-uuid"), {"trip_id"}),
            (dict(good, started_at=good["started_at"][:19]), {"started_at"}),  # no UTC offset
            (dict(good, stopped_at="2020-01-01T00:00:00+00:00"), {"stopped_at"}),  # before the start
            (dict(good, meter_total="-1"), {"meter_total"}),
        ]
        for frame, fields in bad:
            error = await d.ask("error", **frame)
            assert error["code"] == "invalid" and set(error["fields"]) == fields and "trip_id" not in error, error
        await d.ask("pong", type="ping")  # the connection stays open

        await d.ask("status", type="status", status="livre")
        await d.send(type="position", lat=lat + 0.003, lon=lon)
        await positions_flushed((lat + 0.003, lon))
        p = await connect(PassengerConsumer, "/ws/passenger/", None, "passenger", set())
        await p.ask("snapshot", type="auth", token=passenger.token)
        await p.send(type="ride_request", pickup={"lat": lat + 0.003, "lon": lon})
        offer = (await d.until("offer"))["offer"]
        await d.ask("offer_accepted", type="offer_accept", offer_id=offer["id"])
        error = await d.ask("error", **good)
        assert error["code"] == "cab_busy" and error["trip_id"] == good["trip_id"] and error["message"]
        await d.ws.disconnect(), await p.ws.disconnect()

    asyncio.run(scenario())
    assert not Ride.objects.filter(created_by="street").exists()


def test_an_erased_passengers_open_socket_is_told_and_closed(drivers):
    from channels.db import database_sync_to_async

    from backend.privacy.retention import erase_passenger

    passenger = Passenger.objects.create(name="Gil", phone="32999990009")

    async def scenario():
        mine = await connect(PassengerConsumer, "/ws/passenger/", None, "passenger", set())
        await mine.ask("snapshot", type="auth", token=passenger.token)
        await database_sync_to_async(erase_passenger)(passenger.pk)
        error = await mine.recv()
        assert (error["type"], error["code"]) == ("error", "session_ended")
        assert (await mine.recv())["type"] == "closed"
        await mine.ws.disconnect()

    asyncio.run(scenario())
    assert not Ride.objects.filter(passenger=passenger).exists()
