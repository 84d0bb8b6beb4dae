"""No announcement lost, without Redis (issue 33): a channel layer that fails a group's sends N times.

A send that fails is tried again and delivered; one that fails every attempt is counted as lost and its group is
sent a ``resync``, on which each real consumer (Channels' communicators) sends its client a fresh snapshot with the
ride's state (``dispatch.events.announcements``, ``dispatch.consumers``). The same on Redis with a pool of one connection:
tests/backend/test_announcement_pool.py.
"""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import InMemoryChannelLayer
from django.contrib.auth import get_user_model
from prometheus_client import REGISTRY

from backend.trips.models import Passenger
from dispatch.consumers import DriverConsumer, PassengerConsumer
from dispatch.events import announcements

from .ws_helpers import connect, positions_flushed

pytestmark = pytest.mark.django_db(transaction=True)
CENTRE = (-21.1311, -42.3676)


class FailingLayer(InMemoryChannelLayer):
    """The in-memory layer whose ``group_send`` to a group in ``failures`` raises that many times first."""

    failures: dict[str, int] = {}
    attempts: dict[str, int] = {}

    async def group_send(self, group, message):
        FailingLayer.attempts[group] = FailingLayer.attempts.get(group, 0) + 1
        if FailingLayer.failures.get(group, 0) > 0:
            FailingLayer.failures[group] -= 1
            raise ConnectionError(f"the layer refused a send to {group}")
        await super().group_send(group, message)


@pytest.fixture
def cab_and_passenger(working_cab, make_person, settings, monkeypatch):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": f"{__name__}.FailingLayer"}}
    monkeypatch.setattr(FailingLayer, "failures", {})
    monkeypatch.setattr(FailingLayer, "attempts", {})
    monkeypatch.setattr(announcements, "RETRY_PAUSES_SECONDS", (0.01, 0.02, 0.03))
    monkeypatch.setattr(announcements, "RESYNC_EVERY_SECONDS", 0.1)
    monkeypatch.setattr(announcements, "_layer_failing", False)
    monkeypatch.setattr(announcements, "_owed", {})
    for name in ("_loop", "_outbox", "_sender"):  # this test's event loop gets its own outbox
        monkeypatch.setattr(announcements, name, getattr(announcements, name))
    user = get_user_model().objects.create_user("resync", password="x")
    permit = working_cab(holder=make_person(user=user))
    return user, permit, Passenger.objects.create(name="Ana", phone="32999990000")


def counted(name: str) -> float:
    return REGISTRY.get_sample_value(f"dispatch_{name}_total") or 0.0


async def _offered(user, passenger):
    """A free cab near a passenger who asks for a ride: the driver's client, and the passenger's after the request."""
    lat, lon = CENTRE
    d = await connect(DriverConsumer, "/ws/driver/", user, "driver", set())
    await d.until("snapshot")
    await d.ask("status", type="status", status="livre")
    await d.send(type="position", lat=lat + 0.003, lon=lon)
    await positions_flushed((lat + 0.003, lon))
    p = await connect(PassengerConsumer, "/ws/passenger/", None, "passenger", set())
    await p.ask("snapshot", type="auth", token=passenger.token)
    await p.send(type="ride_request", pickup={"lat": lat + 0.003, "lon": lon})
    ride = (await p.until("ride_update", where=lambda f: f["ride"]["status"] == "offered"))["ride"]
    return d, p, ride


def test_a_send_that_fails_twice_is_tried_again_and_the_cab_gets_its_offer_counted(cab_and_passenger):
    user, permit, passenger = cab_and_passenger
    FailingLayer.failures[announcements.cab_group(permit.pk)] = 2
    before = {name: counted(name) for name in ("announcement_failures", "announcements_lost")}

    async def scenario():
        d, p, ride = await _offered(user, passenger)
        offer = (await d.until("offer"))["offer"]
        await d.ws.disconnect(), await p.ws.disconnect()
        return offer, ride

    offer, ride = asyncio.run(scenario())
    assert offer["ride_id"] == ride["id"]
    assert FailingLayer.attempts[announcements.cab_group(permit.pk)] >= 3
    assert counted("announcement_failures") == before["announcement_failures"] + 2
    assert counted("announcements_lost") == before["announcements_lost"] and not announcements.owed_resyncs()


def test_an_offer_lost_after_every_attempt_is_counted_and_the_cab_gets_a_snapshot_with_it(cab_and_passenger):
    user, permit, passenger = cab_and_passenger
    cab = announcements.cab_group(permit.pk)
    FailingLayer.failures[cab] = 1 + len(announcements.RETRY_PAUSES_SECONDS)  # every attempt of the offer fails
    before = {name: counted(name) for name in ("announcement_failures", "announcements_lost", "resyncs")}

    async def scenario():
        d, p, ride = await _offered(user, passenger)
        snapshot = await d.until("snapshot")  # the resync's, in place of the lost offer
        await d.ws.disconnect(), await p.ws.disconnect()
        return snapshot, ride

    snapshot, ride = asyncio.run(scenario())
    assert snapshot["offer"] is not None and snapshot["offer"]["ride_id"] == ride["id"]  # the ride's state reached the cab
    assert FailingLayer.attempts[cab] == 1 + len(announcements.RETRY_PAUSES_SECONDS) + 1  # every attempt, then the resync
    assert counted("announcement_failures") == before["announcement_failures"] + 1 + len(announcements.RETRY_PAUSES_SECONDS)
    assert counted("announcements_lost") == before["announcements_lost"] + 1
    assert counted("resyncs") == before["resyncs"] + 1 and not announcements.owed_resyncs()


def test_resyncs_owed_while_the_layer_fails_wait_for_it_oldest_first_and_are_bounded(monkeypatch):
    """The unit: a lost group is owed a resync; a failing layer keeps it owed; the bound forgets the oldest."""
    monkeypatch.setattr(announcements, "_owed", {})
    monkeypatch.setattr(announcements, "_layer_failing", False)
    monkeypatch.setattr(announcements, "RETRY_PAUSES_SECONDS", ())
    monkeypatch.setattr(announcements, "RESYNC_GROUPS_MAX", 2)
    layer = FailingLayer()
    monkeypatch.setattr(FailingLayer, "failures", {"ride.1": 1, "ride.2": 1, "ride.3": 2})
    monkeypatch.setattr(FailingLayer, "attempts", {})
    event = {"type": "relay", "message": {"type": "ride_update"}}
    for group in ("ride.1", "ride.2", "ride.3"):
        assert asyncio.run(announcements.send_with_retries(layer, group, event)) is False
    assert announcements.owed_resyncs() == ["ride.2", "ride.3"]  # ride.1, the oldest, forgotten beyond the bound
    assert asyncio.run(announcements.resync_owed(layer)) == 1 and announcements.owed_resyncs() == ["ride.3"]  # ride.3 fails once more
    assert asyncio.run(announcements.send_with_retries(layer, "operators", event)) is True and not announcements.owed_resyncs()
