"""What one socket may cost and how long its credential holds (issue 34, item 2), in process.

Every socket is rate-limited from its first frame, in frames and in characters (``wire.LIMITS``); a trace for
another cab's ride is refused before it is read; a logout, a new login, an erasure or an expiry closes the open
sockets of that credential with 4401. The flood of large frames against a real Daphne is tests/e2e/test_flood.py.
"""

from __future__ import annotations

import asyncio
import json
import time
from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from backend.trips.models import Passenger, Ride
from dispatch import wire
from dispatch.consumers import DriverConsumer, PassengerConsumer

from .ws_helpers import connect, positions_flushed

pytestmark = pytest.mark.django_db(transaction=True)
CENTRE = (-21.1311, -42.3676)
CLOSE_WITHIN_S = 5.0  # the bound for a revoked or expired credential


@pytest.fixture
def drivers(working_cab, make_person, settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    User = get_user_model()
    users = []
    for n in range(2):
        person = make_person(user=User.objects.create_user(f"bounds{n}", password="x"))
        working_cab(holder=person)
        users.append(person.user)
    return users


async def closed_with(client, timeout: float = CLOSE_WITHIN_S) -> tuple[list[dict], int]:
    """The frames a socket gets until its close, and the close code; fails if it is not closed within ``timeout``."""
    frames = []
    deadline = time.monotonic() + timeout
    while True:
        message = await asyncio.wait_for(client.ws.output_queue.get(), max(0.01, deadline - time.monotonic()))
        if message["type"] == "websocket.close":
            return frames, message["code"]
        frames.append(json.loads(message["text"]))


def test_a_passenger_before_auth_is_throttled_and_closed_on_abuse(drivers):
    limit = wire.LIMITS["passenger"].frames.burst

    async def scenario():
        p = await connect(PassengerConsumer, "/ws/passenger/", None, "passenger", set())
        for _ in range(int(limit) * 3):  # as fast as a script can, never authenticating
            await p.send(type="ride_request", pickup={"lat": CENTRE[0], "lon": CENTRE[1]})
        frames, code = await closed_with(p)
        assert code == wire.POLICY_CLOSE
        codes = [f["code"] for f in frames]
        assert codes[-1] == "flood" and set(codes[:-1]) == {"auth_required"} and len(codes) <= limit + 1

    asyncio.run(scenario())


def test_large_frames_before_auth_are_refused_unread_and_spend_the_character_budget(drivers):
    chars = wire.LIMITS["passenger"].chars.burst
    frame = json.dumps({"type": "auth", "token": "x" * (1024 * 1024 - 100)})  # ~1 MiB: not read before auth

    async def scenario():
        p = await connect(PassengerConsumer, "/ws/passenger/", None, "passenger", set())
        for _ in range(int(chars // len(frame)) + 2):
            await p.ws.send_to(text_data=frame)
        frames, code = await closed_with(p)
        assert code == wire.POLICY_CLOSE
        assert [f["code"] for f in frames] == ["auth_required"] * int(chars // len(frame)) + ["flood"]

    asyncio.run(scenario())


def test_a_long_frame_is_read_off_the_loop_and_served_as_usual(drivers):
    """A frame over ``INLINE_FRAME_BYTES`` goes to the offering worker (here a thread) and comes back as a short one."""
    from dispatch import protocol

    passenger = Passenger.objects.create(name="Ana", phone="32999990000")
    pad = "x" * (protocol.INLINE_FRAME_BYTES + 10)

    async def scenario():
        p = await connect(PassengerConsumer, "/ws/passenger/", None, "passenger", set())
        await p.ask("snapshot", type="auth", token=passenger.token)
        ride = await p.ask("ride_update", type="ride_request", pickup={"lat": CENTRE[0], "lon": CENTRE[1]}, pad=pad)
        assert ride["ride"]["status"] in ("requested", "offered")
        error = await p.ask("error", type="ride_request", pickup={"lat": 95, "lon": CENTRE[1]}, pad=pad)
        assert error["code"] == "invalid" and "pickup" in error["fields"]
        await p.ws.disconnect()

    asyncio.run(scenario())


def ten_thousand_fixes(lat: float = 999.0) -> list[dict]:
    start = timezone.now() - timedelta(hours=6)
    return [{"t": (start + timedelta(seconds=2 * i)).isoformat(), "lat": lat, "lon": CENTRE[1], "accuracy_m": 5}
            for i in range(10000)]


@pytest.mark.article("Art. 43")
def test_a_trace_for_another_cabs_ride_is_refused_before_it_is_read(drivers):
    """The other cab's ride is on board; a 1 MB trace for it from this cab is refused ``not_your_ride``, and since its
    fixes are all out of range, an ``invalid`` answer would have shown that the trace had been read first."""
    passenger = Passenger.objects.create(name="Ana", phone="32999990000")
    lat, lon = CENTRE

    async def scenario():
        owner = await connect(DriverConsumer, "/ws/driver/", drivers[0], "driver", set())
        intruder = await connect(DriverConsumer, "/ws/driver/", drivers[1], "driver", set())
        await owner.until("snapshot"), await intruder.until("snapshot")
        await owner.ask("status", type="status", status="livre")
        await owner.send(type="position", lat=lat + 0.003, lon=lon)
        await positions_flushed((lat + 0.003, lon))
        p = await connect(PassengerConsumer, "/ws/passenger/", None, "passenger", set())
        await p.ask("snapshot", type="auth", token=passenger.token)
        await p.send(type="ride_request", pickup={"lat": lat + 0.003, "lon": lon})
        offer = (await owner.until("offer"))["offer"]
        ride_id = (await owner.ask("offer_accepted", type="offer_accept", offer_id=offer["id"]))["ride_id"]
        await owner.ask("ride_updated", type="ride_on_board", ride_id=ride_id)

        frame = {"type": "ride_complete", "ride_id": ride_id, "meter_total": "99.00", "trace": ten_thousand_fixes()}
        assert len(json.dumps(frame)) > 1_000_000 - 200_000
        assert (await intruder.ask("error", **frame))["code"] == "not_your_ride"
        # the owner's own bad trace is read, and refused field by field
        assert (await owner.ask("error", **frame))["code"] == "invalid"
        for client in (owner, intruder, p):
            await client.ws.disconnect()

    asyncio.run(scenario())
    assert Ride.objects.get().status == "on_board"


def test_a_long_street_trip_is_recorded_off_the_loop_and_a_refusal_names_it(drivers):
    import uuid

    start = timezone.now() - timedelta(hours=6)
    trace = [{"t": (start + timedelta(seconds=2 * i)).isoformat(), "lat": CENTRE[0] - i * 0.000001, "lon": CENTRE[1],
              "accuracy_m": 5} for i in range(3000)]
    trip = {"type": "street_trip_complete", "trip_id": str(uuid.uuid4()), "started_at": trace[0]["t"],
            "meter_total": "80.00", "trace": trace}

    async def scenario():
        d = await connect(DriverConsumer, "/ws/driver/", drivers[0], "driver", set())
        await d.until("snapshot")
        recorded = await d.ask("street_trip_recorded", **trip)
        assert recorded["trip_id"] == trip["trip_id"] and not recorded["duplicate"]
        await d.ws.disconnect()

    asyncio.run(scenario())


def test_a_driver_spending_the_character_budget_is_closed(drivers):
    chars = wire.LIMITS["driver"].chars
    frame = json.dumps({"type": "ping", "pad": "x" * 1_000_000})
    fit = int(chars.burst // len(frame))

    async def scenario():
        d = await connect(DriverConsumer, "/ws/driver/", drivers[0], "driver", set())
        await d.until("snapshot")
        for _ in range(fit + 1):
            await d.ws.send_to(text_data=frame)
        frames, code = await closed_with(d, timeout=30)
        assert code == wire.POLICY_CLOSE and [f["type"] for f in frames] == ["pong"] * fit + ["error"]
        assert frames[-1]["code"] == "flood"

    asyncio.run(scenario())


def test_a_driver_logout_closes_the_open_socket_with_4401(drivers):
    async def scenario():
        d = await connect(DriverConsumer, "/ws/driver/", drivers[0], "driver", set())
        other = await connect(DriverConsumer, "/ws/driver/", drivers[1], "driver", set())
        await d.until("snapshot"), await other.until("snapshot")
        key = (await asyncio.to_thread(Token.objects.get, user=drivers[0])).key
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        answer = await asyncio.to_thread(api.post, "/api/auth/logout/")
        assert answer.status_code == 204
        frames, code = await closed_with(d)
        assert code == wire.SESSION_ENDED and frames[-1]["code"] == "session_ended"
        await other.ask("pong", type="ping")  # another driver's socket is untouched
        await other.ws.disconnect()

    asyncio.run(scenario())


def test_a_new_login_closes_the_socket_of_the_old_key(drivers):
    """A login issues a new key and the old one dies (``tokens.issue``): the socket opened with it closes."""
    drivers[0].set_password("segredo123")
    drivers[0].save()

    async def scenario():
        d = await connect(DriverConsumer, "/ws/driver/", drivers[0], "driver", set())
        await d.until("snapshot")
        answer = await asyncio.to_thread(APIClient().post, "/api/auth/token/",
                                         {"username": drivers[0].username, "password": "segredo123"}, format="json")
        assert answer.status_code == 200
        _frames, code = await closed_with(d)
        assert code == wire.SESSION_ENDED

    asyncio.run(scenario())


def test_an_expiring_key_closes_its_socket_when_it_expires(drivers):
    async def scenario():
        expires_in = 1.5
        created = timezone.now() - django_settings.AUTH_TOKEN_TTL + timedelta(seconds=expires_in)
        token, _ = await asyncio.to_thread(Token.objects.get_or_create, user=drivers[0])
        await asyncio.to_thread(Token.objects.filter(pk=token.pk).update, created=created)
        d = await connect(DriverConsumer, "/ws/driver/", drivers[0], "driver", set())
        await d.until("snapshot")
        frames, code = await closed_with(d, timeout=expires_in + CLOSE_WITHIN_S)
        assert code == wire.SESSION_ENDED and frames[-1]["code"] == "session_ended"

    asyncio.run(scenario())


def test_a_passenger_erasure_closes_the_passengers_open_socket(drivers):
    passenger = Passenger.objects.create(name="Ana", phone="32999990000")
    other = Passenger.objects.create(name="Bia", phone="32999990001")

    async def scenario():
        mine = await connect(PassengerConsumer, "/ws/passenger/", None, "passenger", set())
        theirs = await connect(PassengerConsumer, "/ws/passenger/", None, "passenger", set())
        await mine.ask("snapshot", type="auth", token=passenger.token)
        await theirs.ask("snapshot", type="auth", token=other.token)
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Passenger {passenger.token}")
        assert (await asyncio.to_thread(api.delete, "/api/passengers/me/")).status_code == 204
        frames, code = await closed_with(mine)
        assert code == wire.SESSION_ENDED and frames[-1]["code"] == "session_ended"
        await theirs.ask("pong", type="ping")
        await theirs.ws.disconnect()

    asyncio.run(scenario())


def test_a_refusal_raised_in_the_offering_worker_crosses_back_whole():
    """``off_loop.serve`` runs in another process: what it raises is pickled back to the consumer."""
    import pickle

    from dispatch import protocol
    from dispatch.transport import off_loop

    error = protocol.ProtocolError("invalid", "Mensagem inválida.", {"trace": ["Um ponto do trajeto está no futuro."]})
    again = pickle.loads(pickle.dumps(error))
    assert (again.code, again.message, again.fields) == (error.code, error.message, error.fields)
    served = pickle.loads(pickle.dumps(off_loop.Served({"type": "pong"})))
    assert served == off_loop.Served({"type": "pong"})
