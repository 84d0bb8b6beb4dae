"""The driver app's client layer against a running platform (no window): login, the real dispatch
socket, an offer accepted and driven to the end with the app's meter, the fare on the server and in
the running weekly statement; the network lost mid-trip and the finished trip sent when it returns."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from datetime import datetime, timedelta, timezone
from decimal import Decimal

import pytest

from driver_app.gps import ReplayGps
from driver_app.session import build_session
from driver_app.viewmodels import DriverState
from driver_app.ws import UiQueue
from taxilaw.brazil import brl

from .client import Client, flushed, passenger
from .conftest import free_port

pytestmark = pytest.mark.e2e



class RunningClock:
    """Real time plus an offset the test moves forward while it replays a trace (1 s per fix)."""

    def __init__(self):
        self.offset = timedelta(0)

    def __call__(self) -> datetime:
        return datetime.now(timezone.utc) + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += timedelta(seconds=seconds)


def trip_points(lat: float, lon: float, n: int = 90) -> list[tuple[float, float, float]]:
    """Parked at (lat, lon), then ~8 m/s south-east: one point per second."""
    return [(lat, lon, 6.0)] + [(lat - i * 0.00006, lon + i * 0.00003, 6.0) for i in range(1, n)]


async def until(ui: UiQueue, condition, timeout: float = 10.0, what: str = "") -> None:
    """Run the UI thread's queue (the dispatch callbacks) until ``condition()``."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        ui.drain()
        if condition():
            return
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what or condition}")
        await asyncio.sleep(0.05)


def api_get(port: int, path: str, token: str):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Authorization": f"Token {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def app_session(tmp_path, port: int, start: tuple[float, float]):
    ui, clock = UiQueue(), RunningClock()
    gps = ReplayGps(trip_points(*start), clock)
    session = build_session(tmp_path / "app", api=f"http://127.0.0.1:{port}", clock=clock, post=ui, gps=gps)
    session.dispatch.backoff = (0.3,)
    return session, ui, clock


async def login(session, ui: UiQueue, username: str) -> None:
    """Log in and wait for what ``after_login`` asks off the UI thread: the cards and the tariff."""
    session.login.login(username, "x", then=session.after_login)
    await until(ui, lambda: session.login.error or (session.cards.loaded and not session.cards.loading
                                                   and not session.meter.tariff_loading), what="the login")
    assert session.login.logged_in, session.login.error


def drive(session, clock, seconds: int) -> None:
    """The replayed GPS feeds the meter (and the position reporter), one fix per second of the app's clock."""
    for _ in range(seconds):
        clock.advance(1)
        session.gps.step()
        session.reporter.tick()


@pytest.mark.article("Art. 43", "Art. 1, §3", "Art. 32")
def test_app_takes_a_ride_and_its_fare_reaches_the_statement(platform, tmp_path):
    world, port = platform.world, platform.ports[0]
    lat, lon = world["centre"]
    cab = world["cabs"][0]
    session, ui, clock = app_session(tmp_path, port, (lat + 0.0005, lon))  # ~55 m from the rank

    async def scenario():
        await login(session, ui, "driver1")
        # the tariff in force comes from the server (not the built-in fallback)
        assert session.meter.tariff_note == ""
        current = api_get(port, "/api/tariffs/current/", session.login.token)  # the login rotated the key
        assert session.meter.tariff.to_dict()["bandeirada"] == current["tariff"]["bandeirada"]
        await until(ui, lambda: session.ride.online, what="the socket")
        snapshot = session.dispatch.last_snapshot
        assert snapshot["cab"]["permit"] == cab["permit"] and snapshot["ride"] is None
        assert "Authorization" not in session.dispatch.url and cab["token"] not in session.dispatch.url

        assert session.flag.go_free()
        session.tick()
        session.tick()  # the GPS is on while free: the first fix goes to the central
        assert session.reporter.sent == 1
        session.ranks.check_in(world["rank_id"])
        await until(ui, lambda: session.ride.rank is not None, what="rank_checked_in")
        assert session.ride.rank["queue_position"] == 1 and "1º na fila" in session.ride.rank_text
        # the rank screen reads the queues again (GET /api/driver/ranks/, off the UI thread)
        await until(ui, lambda: session.ranks.rows and not session.ranks.loading, what="the ranks near the cab")
        here = next(r for r in session.ranks.rows if r.rank_id == world["rank_id"])
        assert here.here and here.verdict == "Você está neste ponto" and "1 na fila" in here.detail
        assert session.ranks.here_text.endswith(": 1º na fila")
        await flushed(world, (cab, lat + 0.0005, lon))

        p = await passenger(port, world["passenger_token"])
        await p.send(type="ride_request", pickup={"lat": lat, "lon": lon, "address": "Praça Cel. Pacheco de Medeiros"})
        await until(ui, lambda: session.offer.active, what="the offer")
        assert session.offer.pickup_text == "Praça Cel. Pacheco de Medeiros"
        assert session.offer.distance_text.endswith("até o passageiro")
        assert session.offer.accept()
        assert session.flag.state == DriverState.A_CAMINHO
        await until(ui, lambda: session.ride.status == "accepted", what="offer_accepted")
        ride_id = session.ride.ride_id
        assert session.ride.rank is None  # accepting left the rank queue
        accepted = await p.recv_until("ride_update", where=lambda m: m["ride"]["status"] == "accepted")
        assert accepted["ride"]["permit"] == cab["permit"]

        assert session.ride.arriving()
        await p.recv_until("ride_update", where=lambda m: m["ride"]["status"] == "arriving")
        # The app applies "Cheguei" when the central answers it (ride_updated, 1.2); until then no next step.
        await until(ui, lambda: session.ride.status == "arriving" and not session.ride.pending, what="ride_updated arriving")
        assert session.start_trip()  # passenger on board: the meter starts for this ride
        assert session.ride.status == "on_board" and session.meter.ride_id == ride_id
        await p.recv_until("ride_update", where=lambda m: m["ride"]["status"] == "on_board")

        drive(session, clock, 90)
        assert session.flag.label in ("Bandeira I", "Bandeira II")
        assert session.meter.last.total > session.meter.tariff.bandeirada
        session.stop_trip()  # ride_complete {meter_total, trace} on the socket, without waiting for the answer
        total = session.meter.last.total
        assert session.flag.state == DriverState.LIVRE and not session.ride.active
        assert session.meter.sync_text == "Enviando à central: aguardando confirmação…"
        await until(ui, lambda: session.meter.sending is None, what="the central's answer")
        assert session.meter.queue == [] and session.meter.sync_text == "Corridas sincronizadas"

        done = await p.recv_until("ride_update", where=lambda m: m["ride"]["status"] == "completed")
        assert Decimal(done["ride"]["fare"]) == total  # Art. 43: the phone's total is the fare
        # the payment screen opened with the fare; the passenger pays in cash (docs/payments.md)
        assert session.payment.pending and session.payment.fare == total
        session.payment.choose("cash")
        assert session.payment.queue_text == "Enviando o pagamento à central…"  # off the UI thread
        await until(ui, lambda: not session.payment.queue, what="the payment sent")
        assert session.payment.message == ""
        paid = await p.recv_until("ride_update", where=lambda m: m["ride"].get("payment"))
        assert paid["ride"]["payment"]["method"] == "cash" and paid["ride"]["payment"]["receiver"] == "Motorista 1"
        await p.close()

        running = api_get(port, "/api/statements/current/", session.login.token)
        rows = [r for r in running["statements"] if r["driver"] == cab["person_id"]]
        assert len(rows) == 1 and Decimal(rows[0]["gross"]) == total and rows[0]["rides"] == 1
        # the app's Partilha screen reads the same week
        session.split.load(session.today(), session.cards.role)
        await until(ui, lambda: not session.split.loading, what="the statements")
        week = session.extras["statements"].weekly(session.login.token)["weeks"][0]
        assert week["week_start"] == str(running["week_start"]) and Decimal(week["gross"]) == total
        assert session.split.this_week is not None and session.split.this_week.split.gross == total
        # the week's rides as the server counted them, and its 25/75 split equal to the app's to the centavo
        assert [(r.fare, r.origin, r.disagreement) for r in session.split.rides] == [(brl(total), "central", "")]
        split = session.split.this_week.split
        assert (split.auxiliary, split.permit_holder) == (Decimal(rows[0]["auxiliary_part"]), Decimal(rows[0]["holder_part"]))
        assert session.split.server_check == "Confere com o extrato da central."

    try:
        asyncio.run(scenario())
    finally:
        session.dispatch.close()


def test_network_lost_mid_trip_the_trip_waits_and_is_sent_when_it_returns(platform, tmp_path):
    world, port = platform.world, platform.ports[0]
    lat, lon = world["centre"]
    session, ui, clock = app_session(tmp_path, port, (lat - 0.01, lon - 0.01))

    async def scenario():
        await login(session, ui, "driver2")
        await until(ui, lambda: session.ride.online, what="the socket")
        session.flag.go_free()
        session.tick()
        session.tick()
        await flushed(world, (session.dispatch.last_snapshot["cab"], lat - 0.01, lon - 0.01))
        p = await passenger(port, world["other_passenger_token"])
        await p.send(type="ride_request", pickup={"lat": lat - 0.0105, "lon": lon - 0.01})
        await until(ui, lambda: session.offer.active, what="the offer")
        assert session.offer.accept()
        await until(ui, lambda: session.ride.status == "accepted", what="offer_accepted")
        session.start_trip()  # straight on board
        await p.recv_until("ride_update", where=lambda m: m["ride"]["status"] == "on_board")
        drive(session, clock, 40)

        # the network goes: the socket cannot come back until the test restores the URL
        good_url, session.dispatch.url = session.dispatch.url, f"ws://127.0.0.1:{free_port()}/ws/driver/"
        session.dispatch.interrupt()
        await until(ui, lambda: session.ride.online is False, what="offline")
        assert session.ride.connection_text == "Sem conexão com a central"
        drive(session, clock, 20)
        session.stop_trip()
        total = session.meter.last.total
        assert len(session.meter.queue) == 1 and session.meter.sync_text == "1 corrida aguardando conexão"
        session.tick()  # still offline: nothing is lost
        assert len(session.meter.queue) == 1
        assert session.store.load("sync_queue")[0]["ride_id"] is not None

        session.dispatch.url = good_url
        await until(ui, lambda: not session.meter.queue, timeout=15, what="the queued trip sent")
        assert session.dispatch.connections >= 2
        done = await p.recv_until("ride_update", where=lambda m: m["ride"]["status"] == "completed")
        assert Decimal(done["ride"]["fare"]) == total

        # the same trip again (a phone that missed the answer): answered as the first time, nothing changes
        trip = {"trip_id": "again", "ride_id": done["ride"]["id"], "total": str(total + 1), "trace": []}
        session.meter.queue.append(trip)
        session.meter.sync()
        await until(ui, lambda: session.meter.sending is None, what="the answer")
        assert session.meter.queue == [] and "descartada" not in session.meter.sync_text
        assert not session.store.load("sync_rejected")
        again = await Client.open(f"ws://127.0.0.1:{port}/ws/passenger/", origin=f"http://127.0.0.1:{port}")
        await again.send(type="auth", token=world["other_passenger_token"])
        snapshot = await again.recv_until("snapshot")
        assert not any(r["id"] == done["ride"]["id"] for r in snapshot["rides"])  # completed once, not reopened
        await again.close()
        await p.close()

    try:
        asyncio.run(scenario())
    finally:
        session.dispatch.close()
