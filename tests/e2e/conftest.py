"""A running platform for end-to-end tests: its own database, migrated and populated, served by real Daphne processes.

On the embedded defaults it is a fresh SQLite file and one Daphne; with
DATABASE_URL/REDIS_URL (CI's second run) it is a fresh PostgreSQL database and
the Redis channel layer, so several processes can share the work.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_port(port: int, process: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"daphne exited with {process.returncode}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise TimeoutError(f"daphne did not listen on {port}")


class Platform:
    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.env = dict(os.environ, DJANGO_SETTINGS_MODULE="backend.settings", DJANGO_DEBUG="1", DISPATCH_OFFER_SECONDS="3",
                        DISPATCH_TICK_SECONDS="0.3", TAXI_VAR_DIR=str(tmp), PYTHONPATH=str(ROOT))
        base = os.environ.get("DATABASE_URL")
        if base and base.startswith("postgres"):
            self.db_name = f"taxi_e2e_{uuid.uuid4().hex[:8]}"
            self._admin_sql(f'CREATE DATABASE "{self.db_name}"')
            self.env["DATABASE_URL"] = urlunparse(urlparse(base)._replace(path="/" + self.db_name))
        else:
            self.db_name = None
            self.env["DATABASE_URL"] = f"sqlite:///{tmp / 'e2e.sqlite3'}"
        self.processes: list[subprocess.Popen] = []
        self.ports: list[int] = []

    def _admin_sql(self, sql: str) -> None:
        import psycopg

        url = urlparse(os.environ["DATABASE_URL"])._replace(path="/postgres")
        with psycopg.connect(urlunparse(url), autocommit=True) as conn:
            conn.execute(sql)

    def prepare(self) -> dict:
        run = lambda *args: subprocess.run([sys.executable, *args], cwd=ROOT, env=self.env, check=True, capture_output=True, text=True)  # noqa: E731
        run("manage.py", "migrate", "--no-input")
        self.world = json.loads(run(str(ROOT / "tests" / "e2e" / "world.py")).stdout.strip().splitlines()[-1])
        return self.world

    def start(self, count: int = 1) -> list[int]:
        for _ in range(count):
            port = free_port()
            log = open(self.tmp / f"daphne-{port}.log", "w")
            process = subprocess.Popen(
                [sys.executable, "-m", "dispatch.server", "-b", "127.0.0.1", "-p", str(port),
                 "--websocket_connect_timeout", "10", "--websocket-max-message-size", "2097152",
                 "--websocket-max-frame-size", "2097152", "backend.asgi:application"],
                cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
            )
            _wait_port(port, process)
            self.processes.append(process)
            self.ports.append(port)
        return self.ports

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        if self.db_name:
            self._admin_sql(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def platform(tmp_path_factory):
    p = Platform(tmp_path_factory.mktemp("e2e"))
    try:
        p.prepare()
        p.start(1)
        yield p
    finally:
        p.stop()


# --- shared by the browser tests ------------------------------------------------------------------

CHROMIUM = "/usr/bin/chromium"


class Drivers:
    """An asyncio loop in a background thread: the driver websockets live there."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="drivers", daemon=True)
        self.thread.start()

    def run(self, coro, timeout: float = 20):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def stop(self):
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture(scope="module")
def drivers():
    d = Drivers()
    yield d
    d.stop()


@pytest.fixture(scope="module")
def browser():
    from playwright import sync_api

    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        yield b
        b.close()
