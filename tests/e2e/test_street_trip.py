"""Street-hail and rank trips end to end (protocol 1.1, ``street_trip_complete``): real websocket clients and
the driver app's client layer against a running Daphne.  A trip is recorded once however often it is sent,
the server keeps its own recomputation of the trace beside the meter's fare (Art. 43), the trip reaches the
permit's weekly statement (Art. 1, §3), and the app's offline queue sends it when the network returns."""

from __future__ import annotations

import asyncio
import json
import urllib.request
import uuid
from datetime import datetime, timedelta, timezone
from decimal import Decimal

import pytest

from .client import driver, operator
from .conftest import free_port
from .test_driver_app_e2e import api_get, app_session, drive, login, until

pytestmark = pytest.mark.e2e


def api_post(port: int, path: str, token: str, body: dict) -> dict:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), method="POST",
                                     headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def street_trip(lat: float, lon: float, minutes: float = 3, points: int = 60) -> dict:
    """A trip that ended a few seconds ago: picked up at (lat, lon), ~8 m/s south-east, one fix every 3 s."""
    stopped = datetime.now(timezone.utc) - timedelta(seconds=5)
    started = stopped - timedelta(minutes=minutes)
    step = minutes * 60 / points
    trace = [{"t": (started + timedelta(seconds=(i + 1) * step)).isoformat(), "lat": lat - i * 0.0002,
              "lon": lon + i * 0.0001, "accuracy_m": 6} for i in range(points)]
    return {"trip_id": str(uuid.uuid4()), "started_at": started.isoformat(), "stopped_at": stopped.isoformat(),
            "trace": trace}


def recomputed(port: int, token: str, trip: dict, phone_total: str) -> dict:
    """The server's recomputation of a trace through the REST endpoint (``POST /api/meter/recompute/``)."""
    return api_post(port, "/api/meter/recompute/", token, {"trace": trip["trace"], "phone_total": phone_total,
                                                          "started_at": trip["started_at"],
                                                          "stopped_at": trip["stopped_at"]})


@pytest.mark.article("Art. 43", "Art. 45, §5", "Art. 1, §3")
def test_street_trip_recorded_once_with_the_servers_recomputation_and_in_the_weekly_statement(platform):
    world, port = platform.world, platform.ports[0]
    lat, lon = world["centre"]
    cab = world["cabs"][0]
    agreed, overcharged = street_trip(lat, lon), street_trip(lat - 0.01, lon, minutes=2)
    server_total = recomputed(port, cab["token"], agreed, "0.00")["server_total"]
    other_server_total = recomputed(port, cab["token"], overcharged, "0.00")["server_total"]

    async def scenario():
        ops = await operator(port, world["operator"]["session"])
        await ops.recv_until("snapshot")
        d = await driver(port, cab["token"])
        await d.recv_until("snapshot")

        # a phone that agrees with the server, its trip sent twice (a lost answer): one ride
        frame = dict(agreed, type="street_trip_complete", meter_total=server_total)
        await d.send(**frame)
        first = await d.recv_until("street_trip_recorded")
        await d.send(**dict(frame, trip_id=uuid.UUID(agreed["trip_id"]).hex))  # the same UUID, spelt without dashes
        again = await d.recv_until("street_trip_recorded")
        assert first["trip_id"] == agreed["trip_id"] and not first["duplicate"]
        assert again["ride_id"] == first["ride_id"] and again["duplicate"]
        assert first["fare"] == server_total == first["server_total"] and not first["meter_disagreement"]
        announced = await ops.recv_until("ride_update", where=lambda m: m["ride"]["id"] == first["ride_id"])
        assert announced["ride"]["status"] == "completed" and announced["ride"]["permit"] == cab["permit"]
        assert announced["ride"]["fare"] == server_total and announced["ride"]["passenger"] == ""

        # a phone that shows R$ 3,00 more: the fare is the meter's (Art. 43), the server's figure is its own
        phone = str(Decimal(other_server_total) + Decimal("3.00"))
        await d.send(**dict(overcharged, type="street_trip_complete", meter_total=phone))
        other = await d.recv_until("street_trip_recorded")
        assert other["ride_id"] != first["ride_id"] and other["fare"] == phone
        assert other["server_total"] == other_server_total and other["meter_disagreement"]
        await d.close(), await ops.close()
        return Decimal(server_total) + Decimal(phone)

    gross = asyncio.run(scenario())
    running = api_get(port, "/api/statements/current/", cab["token"])
    rows = [r for r in running["statements"] if r["permit"] == cab["permit_id"] and r["driver"] == cab["person_id"]]
    assert len(rows) == 1 and rows[0]["rides"] == 2 and Decimal(rows[0]["gross"]) == gross


@pytest.mark.article("Art. 43", "Art. 1, §3")
def test_the_apps_offline_queue_sends_a_street_trip_when_the_network_returns(platform, tmp_path):
    world, port = platform.world, platform.ports[0]
    lat, lon = world["centre"]
    cab = world["cabs"][2]
    session, ui, clock = app_session(tmp_path, port, (lat + 0.01, lon + 0.01))

    async def scenario():
        await login(session, ui, "driver3")
        await until(ui, lambda: session.ride.online, what="the socket")
        assert session.flag.go_free()
        session.start_trip()  # a passenger flags the cab in the street: no dispatched ride
        assert session.meter.ride_id is None
        drive(session, clock, 60)
        # the network goes while the trip runs
        good_url, session.dispatch.url = session.dispatch.url, f"ws://127.0.0.1:{free_port()}/ws/driver/"
        session.dispatch.interrupt()
        await until(ui, lambda: session.ride.online is False, what="offline")
        drive(session, clock, 20)
        session.stop_trip()  # returns at once: queued on the phone
        total = session.meter.last.total
        assert session.meter.sending is None and session.meter.sync_text == "1 corrida aguardando conexão"
        queued = session.store.load("sync_queue")
        assert len(queued) == 1 and queued[0]["ride_id"] is None

        session.dispatch.url = good_url
        await until(ui, lambda: not session.meter.queue, timeout=15, what="the queued street trip sent")
        assert session.meter.sync_text.startswith("Corrida de rua registrada na central (nº ")
        # the Partilha screen is reloaded (off the UI thread) when the central confirms the trip
        await until(ui, lambda: not session.split.loading and session.split.rides, what="the Partilha reloaded")
        return total

    try:
        total = asyncio.run(scenario())
    finally:
        session.dispatch.close()
    running = api_get(port, "/api/statements/current/", session.login.token)
    rows = [r for r in running["statements"] if r["driver"] == cab["person_id"]]
    assert len(rows) == 1 and rows[0]["rides"] == 1 and Decimal(rows[0]["gross"]) == total
    assert session.split.this_week is not None and session.split.this_week.split.gross == total
    assert [(r.origin, r.disagreement) for r in session.split.rides] == [("rua", "")]  # hailed, not at a ponto
