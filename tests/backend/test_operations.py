"""The operations view (issue 34, item 6): /healthz, /readyz, /metrics, the scheduler's heartbeat, JSON logs.

Each fault is caused, not described: a database whose every query fails (Django's ``execute_wrapper``), a channel
layer pointed at a Redis port nobody listens on, a tick that stopped running, a scheduler that stopped beating.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import OperationalError, connection
from django.test import Client
from django.utils import timezone
from prometheus_client import REGISTRY

from backend.scheduler import heartbeat
from backend.trips.models import Passenger
from dispatch.consumers import DriverConsumer, PassengerConsumer
from dispatch.ops import metrics
from dispatch.rides.positions import buffer
from dispatch.transport import background_tick

from .ws_helpers import connect, positions_flushed

ROOT = Path(__file__).resolve().parents[2]
CENTRE = (-21.1311, -42.3676)
OUTSIDER = "203.0.113.9"  # TEST-NET-3: not loopback, not in METRICS_ALLOWED_NETWORKS


def _database_down(execute, sql, params, many, context):
    raise OperationalError("connection refused (the test's fault)")


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def ready(db, settings):
    """Everything readiness checks, really done: the scheduler ran once (its heartbeat) and so did the tick."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    call_command("scheduler", "--once", stdout=open(os.devnull, "w"))
    background_tick.tick(buffer.take())


def _readyz(client=None):
    response = (client or Client()).get("/readyz")
    return response.status_code, response.json()


def test_healthz_answers_without_touching_any_dependency(db, settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                                           "CONFIG": {"hosts": [f"redis://127.0.0.1:{_free_port()}/0"]}}}
    with connection.execute_wrapper(_database_down):
        response = Client().get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


def test_readyz_is_ready_when_the_database_the_channel_layer_the_tick_and_the_scheduler_answer(ready):
    status, body = _readyz()
    assert status == 200, body
    assert body["status"] == "ok" and body["failing"] == []
    assert set(body["checks"]) == {"database", "channel_layer", "tick", "scheduler"}
    assert all(check["ok"] for check in body["checks"].values())


def test_readyz_is_503_naming_the_database_when_it_fails(ready):
    with connection.execute_wrapper(_database_down):
        status, body = _readyz()
    assert status == 503
    assert "database" in body["failing"] and "OperationalError" in body["checks"]["database"]["detail"]
    assert body["checks"]["channel_layer"]["ok"] and body["checks"]["tick"]["ok"]


def test_readyz_is_503_naming_the_channel_layer_when_redis_is_unreachable(ready, settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                                           "CONFIG": {"hosts": [f"redis://127.0.0.1:{_free_port()}/0"]}}}
    status, body = _readyz()
    assert status == 503 and body["failing"] == ["channel_layer"]
    assert "Redis" in body["checks"]["channel_layer"]["detail"]


def test_readyz_is_503_naming_the_tick_when_it_stopped_running(ready, settings, monkeypatch):
    settings.DISPATCH_PROCESS_LEASE_SECONDS = 5
    monkeypatch.setattr(metrics, "_last_tick", time.monotonic() - 12)  # the tick's last run, 12 s ago
    status, body = _readyz()
    assert status == 503 and body["failing"] == ["tick"]
    assert "há 12" in body["checks"]["tick"]["detail"]
    monkeypatch.setattr(metrics, "_last_tick", None)  # a process whose tick never ran
    status, body = _readyz()
    assert status == 503 and body["failing"] == ["tick"]
    background_tick.tick(buffer.take())  # it runs again: ready
    assert _readyz()[0] == 200


def test_readyz_is_503_naming_the_scheduler_when_its_heartbeat_is_old(ready, settings):
    from backend.scheduler.models import Heartbeat

    Heartbeat.objects.update(beat_at=timezone.now() - timedelta(seconds=settings.READYZ_SCHEDULER_MAX_AGE_SECONDS + 60))
    status, body = _readyz()
    assert status == 503 and body["failing"] == ["scheduler"]
    Heartbeat.objects.all().delete()
    assert _readyz()[1]["failing"] == ["scheduler"]
    settings.READYZ_SCHEDULER_MAX_AGE_SECONDS = 0  # reported, not required
    status, body = _readyz()
    assert status == 200 and "nunca" in body["checks"]["scheduler"]["detail"]


def test_the_scheduler_check_command_fails_without_a_recent_heartbeat(db):
    with pytest.raises(CommandError):
        call_command("scheduler", "--check", stdout=open(os.devnull, "w"))
    heartbeat.beat(timezone.now() - timedelta(minutes=10))
    with pytest.raises(CommandError):
        call_command("scheduler", "--check", "--interval", "30", stdout=open(os.devnull, "w"))
    heartbeat.beat()
    call_command("scheduler", "--check", stdout=open(os.devnull, "w"))


def test_metrics_are_refused_to_anonymous_outsiders_and_served_to_loopback_staff_and_allowed_networks(db, settings):
    assert Client(REMOTE_ADDR=OUTSIDER).get("/metrics").status_code == 403
    assert Client(REMOTE_ADDR="127.0.0.1").get("/metrics").status_code == 200
    # Through a reverse proxy on the same host that nobody declared trusted: every outsider would look loopback.
    assert Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=OUTSIDER).get("/metrics").status_code == 403
    User = get_user_model()
    plain, staff = Client(REMOTE_ADDR=OUTSIDER), Client(REMOTE_ADDR=OUTSIDER)
    plain.force_login(User.objects.create_user("motorista", password="x"))
    staff.force_login(User.objects.create_user("dimutran", password="x", is_staff=True))
    assert plain.get("/metrics").status_code == 403
    scraped = staff.get("/metrics")
    assert scraped.status_code == 200 and scraped["Content-Type"].startswith("text/plain")
    settings.METRICS_ALLOWED_NETWORKS = [__import__("ipaddress").ip_network("203.0.113.0/24")]
    assert Client(REMOTE_ADDR=OUTSIDER).get("/metrics").status_code == 200
    text = scraped.content.decode()
    for name in ("dispatch_driver_sockets", "dispatch_offers_total", "dispatch_escalations_total",
                 "dispatch_request_to_offer_seconds_bucket", "dispatch_tick_lag_seconds_bucket", "dispatch_tick_age_seconds",
                 "dispatch_frames_rejected_total", "dispatch_announcement_failures_total", "dispatch_db_connections",
                 "dispatch_cabs_registered"):
        assert name in text, name


def _value(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.mark.django_db(transaction=True)
def test_metrics_count_sockets_rejected_frames_offers_and_the_request_to_offer_latency(working_cab, make_person, settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    driver = make_person(user=get_user_model().objects.create_user("metricas", password="x"))
    working_cab(holder=driver)
    passenger = Passenger.objects.create(name="Ana", phone="32999990000")
    lat, lon = CENTRE
    before = {
        "sockets": _value("dispatch_driver_sockets"), "protocol": _value("dispatch_frames_rejected_total", reason="protocol"),
        "auth": _value("dispatch_frames_rejected_total", reason="auth_required"),
        "flood": _value("dispatch_frames_rejected_total", reason="flood"), "offers": _value("dispatch_offers_total"),
        "requests": _value("dispatch_request_to_offer_seconds_count", outcome="offered"),
    }

    async def scenario():
        d = await connect(DriverConsumer, "/ws/driver/", driver.user, "driver", set())
        await d.until("snapshot")
        assert _value("dispatch_driver_sockets") == before["sockets"] + 1
        assert _value("dispatch_db_connections") >= 1
        assert (await d.ask("error", type="teleport"))["code"] == "unknown_type"
        await d.ask("status", type="status", status="livre")
        await d.send(type="position", lat=lat + 0.001, lon=lon)
        await positions_flushed((lat + 0.001, lon))
        p = await connect(PassengerConsumer, "/ws/passenger/", None, "passenger", set())
        assert (await p.ask("error", type="ride_request", pickup={"lat": lat, "lon": lon}))["code"] == "auth_required"
        await p.ask("snapshot", type="auth", token=passenger.token)
        await p.ask("ride_update", type="ride_request", pickup={"lat": lat, "lon": lon})
        await d.until("offer")
        for _ in range(200):
            await d.send(type="ping")
        while (await d.recv())["type"] != "closed":
            pass
        await d.ws.disconnect()
        await p.ws.disconnect()

    asyncio.run(scenario())
    assert _value("dispatch_driver_sockets") == before["sockets"]
    assert _value("dispatch_frames_rejected_total", reason="protocol") == before["protocol"] + 1
    assert _value("dispatch_frames_rejected_total", reason="auth_required") == before["auth"] + 1
    assert _value("dispatch_frames_rejected_total", reason="flood") == before["flood"] + 1
    assert _value("dispatch_offers_total") == before["offers"] + 1
    assert _value("dispatch_request_to_offer_seconds_count", outcome="offered") == before["requests"] + 1
    assert metrics.tick_age() is not None  # the tick ran while the sockets were open (dispatch_tick_age_seconds)


def test_json_logs_by_setting():
    code = ("import django, logging; django.setup(); "
            "logging.getLogger('dispatch.transport.background_tick').warning('ciclo atrasado %s s', 7)")
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings", DJANGO_DEBUG="1", LOG_FORMAT="json",
               TAXI_VAR_DIR=str(ROOT / "var"))
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    line = json.loads(run.stderr.strip().splitlines()[-1])
    assert line["message"] == "ciclo atrasado 7 s" and line["level"] == "WARNING"
    assert line["logger"] == "dispatch.transport.background_tick" and line["pid"] > 0 and "time" in line
    plain = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=dict(env, LOG_FORMAT="text"),
                           capture_output=True, text=True, check=True)
    assert plain.stderr.strip().splitlines()[-1] == "ciclo atrasado 7 s"


def test_an_announcement_the_channel_layer_fails_to_send_is_counted(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                                           "CONFIG": {"hosts": [f"redis://127.0.0.1:{_free_port()}/0"]}}}
    from dispatch import wire
    from dispatch.events import announcements

    before = _value("dispatch_announcement_failures_total")

    async def scenario():
        announcements.start_outbox()
        announcements.post(announcements.OPERATORS, wire.BROADCAST_SENT())
        deadline = time.monotonic() + 10
        while _value("dispatch_announcement_failures_total") == before and time.monotonic() < deadline:
            await asyncio.sleep(0.05)

    asyncio.run(scenario())
    assert _value("dispatch_announcement_failures_total") == before + 1


def test_a_tick_the_database_could_not_answer_says_so_in_one_line_and_the_loop_goes_on(settings, monkeypatch, caplog):
    """SQLite's one writer held by another process (a scheduler job) longer than the wait: one warning line naming the
    cause, not a traceback a newcomer would take for a crash, and the next tick runs."""
    import asyncio

    from django.db import OperationalError

    settings.DISPATCH_TICK_SECONDS = 0.01
    calls = []

    def busy_then_fine(batch, audit=False):
        calls.append(batch)
        if len(calls) == 1:
            raise OperationalError("database is locked")
        return None

    monkeypatch.setattr(background_tick, "tick", busy_then_fine)

    async def two_ticks():
        task = asyncio.get_running_loop().create_task(background_tick._loop())
        try:
            for _ in range(1000):
                if len(calls) >= 2:
                    return
                await asyncio.sleep(0.01)
        finally:
            task.cancel()

    with caplog.at_level("WARNING", logger="dispatch.transport.background_tick"):
        asyncio.run(two_ticks())
    assert len(calls) >= 2
    [line] = [r for r in caplog.records if "did not answer" in r.getMessage()]
    assert "database is locked" in line.getMessage() and line.exc_info is None
