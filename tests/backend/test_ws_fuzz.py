"""Hostile websocket input: every inbound frame type of every role, fuzzed (hypothesis), in process.

Whatever arrives, the answer is an error frame (or a normal answer, or a policy close), never ``internal``,
never an exception logged, never a 1011 close (issue 14: a 50,000-level nested frame raised RecursionError;
``ride_assign`` for an unknown ride logged a traceback).
"""

from __future__ import annotations

import asyncio
import json
import logging

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backend.trips.models import Passenger
from dispatch import protocol
from dispatch.consumers import DriverConsumer, OperatorConsumer, PassengerConsumer

from .ws_helpers import connect

pytestmark = pytest.mark.django_db(transaction=True)

POLICY_CLOSES = {4008, 1008, 4403, 4401}
scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=False),
                    st.text(max_size=30), st.sampled_from(["2026-12-01T10:00:00-03:00", "12.50", "-21.13", ""]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                      max_leaves=8)
FIELDS = ["lat", "lon", "accuracy", "status", "rank_id", "offer_id", "ride_id", "permit_id", "meter_total", "trace",
          "trip_id", "started_at", "stopped_at", "pickup", "destination", "reason", "token", "caller_name",
          "caller_phone", "text", "t", "address"]


def frames(role):
    kinds = st.sampled_from(sorted(protocol.INBOUND[role]))
    body = st.dictionaries(st.sampled_from(FIELDS), values, max_size=5)
    return st.builds(lambda kind, fields: json.dumps({**fields, "type": kind}, default=str), kinds, body)


def nested(depth):
    return '{"type": "ping", "x": ' + "[" * depth + "]" * depth + "}"


HOSTILE = [nested(50_000), "[" * 50_000 + "]" * 50_000, '{"type": "auth", "token": ' + "[" * 5000 + "]" * 5000 + "}",
           nested(9), "null", "[]", '"x"', '{"type": 5}', "{}"]


@pytest.fixture
def people(working_cab, make_person, settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    User = get_user_model()
    person = make_person(user=User.objects.create_user("fuzz-driver", password="x"))
    working_cab(holder=person)
    return {"driver": person.user, "operator": User.objects.create_user("fuzz-op", password="x", is_staff=True),
            "passenger": Passenger.objects.create(name="Fuzz", phone="32999990000")}


async def _answers(client, texts):
    """Send each text; collect every frame until quiet, or the close."""
    got = []
    for text in texts:
        await client.ws.send_to(text_data=text)
        while True:
            try:
                message = await asyncio.wait_for(client.ws.output_queue.get(), 3.0)  # a loaded CI machine
            except asyncio.TimeoutError:
                break
            if message["type"] == "websocket.close":
                return got, message.get("code")
            got.append(json.loads(message["text"]))
            if not await client.ws.receive_nothing(0.05):
                continue
            break
    return got, None


ROUTES = {"driver": (DriverConsumer, "/ws/driver/"), "passenger": (PassengerConsumer, "/ws/passenger/"),
          "operator": (OperatorConsumer, "/ws/operator/")}


def _session(people, role, texts, authenticate):
    async def run():
        consumer, path = ROUTES[role]
        client = await connect(consumer, path, people["driver"] if role == "driver" else people["operator"], role, set())
        if role == "passenger" and authenticate:
            texts.insert(0, json.dumps({"type": "auth", "token": people["passenger"].token}))
        got, code = await _answers(client, texts)
        if code is None:
            await client.ws.disconnect()
        return got, code

    return async_to_sync(run)()


def _check(got, code, caplog):
    assert code is None or code in POLICY_CLOSES, code
    assert not [f for f in got if f.get("type") == "error" and f.get("code") == "internal"], got
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info], caplog.records


@pytest.mark.article("Art. 66")
@pytest.mark.parametrize("role", ["driver", "operator", "passenger"])
def test_hostile_frames_get_error_frames(people, role, caplog):
    for authenticate in (False, True) if role == "passenger" else (True,):
        got, code = _session(people, role, list(HOSTILE), authenticate)
        _check(got, code, caplog)
        errors = [f["code"] for f in got if f["type"] == "error"]
        assert ("too_deep" in errors) or (role == "passenger" and not authenticate and "auth_required" in errors)


@pytest.mark.article("Art. 66")
@pytest.mark.parametrize(("role", "authenticate"), [("driver", True), ("operator", True), ("passenger", False),
                                                    ("passenger", True)])
def test_fuzzed_frames_of_every_type_never_fail_inside(people, role, authenticate, caplog):
    @settings(max_examples=12, deadline=None, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(st.lists(frames(role), min_size=1, max_size=6))
    def session(texts):
        got, code = _session(people, role, texts, authenticate)
        _check(got, code, caplog)

    session()


@pytest.mark.article("Art. 66")
def test_assigning_an_unknown_ride_is_an_error_frame_not_a_traceback(people, caplog):
    got, code = _session(people, "operator", [json.dumps({"type": "ride_assign", "ride_id": 999999, "permit_id": 1})], True)
    _check(got, code, caplog)
    assert [f["code"] for f in got if f["type"] == "error"] == ["unknown_ride"]
