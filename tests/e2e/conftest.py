"""A running platform for end-to-end tests: its own database, migrated and populated, served by real Daphne processes.

On the embedded defaults it is a fresh SQLite file and one Daphne; with
DATABASE_URL/REDIS_URL (CI's second run) it is a fresh PostgreSQL database and
the Redis channel layer, so several processes can share the work.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from contextlib import closing
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


def _on_postgres() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith("postgres")


def _postgres_url(db_name: str) -> str:
    return urlunparse(urlparse(os.environ["DATABASE_URL"])._replace(path="/" + db_name))


def _admin_sql(sql: str) -> None:
    import psycopg

    with psycopg.connect(_postgres_url("postgres"), autocommit=True) as conn:
        conn.execute(sql)


def _manage(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, check=True, capture_output=True, text=True)


class MigratedDatabase:
    """The schema every platform starts from, migrated once per test process and copied for each platform.

    Running the migrations takes several seconds per platform on a loaded machine; a copy (SQLite's backup API,
    PostgreSQL's ``CREATE DATABASE ... TEMPLATE``) takes a fraction of one, and each platform still gets a
    database of its own.
    """

    def __init__(self):
        self.folder: Path | None = None
        self.sqlite_file: Path | None = None
        self.postgres_name: str | None = None

    def _var_dir(self) -> Path:
        """The migrating process's TAXI_VAR_DIR, which also holds the SQLite file."""
        if self.folder is None:
            self.folder = Path(tempfile.mkdtemp(prefix="taxi-e2e-migrated-"))
        return self.folder

    def _migrate(self, database_url: str) -> None:
        env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings", DJANGO_DEBUG="1", DATABASE_URL=database_url,
                   TAXI_VAR_DIR=str(self._var_dir()), PYTHONPATH=str(ROOT))
        _manage(env, "manage.py", "migrate", "--no-input")

    def clone_sqlite(self, target: Path) -> None:
        if self.sqlite_file is None:
            migrated = self._var_dir() / "migrated.sqlite3"
            self._migrate(f"sqlite:///{migrated}")
            self.sqlite_file = migrated
        with closing(sqlite3.connect(self.sqlite_file)) as source, closing(sqlite3.connect(target)) as copy:
            source.backup(copy)

    def clone_postgres(self, target: str) -> None:
        if self.postgres_name is None:
            name = f"taxi_e2e_migrated_{uuid.uuid4().hex[:8]}"
            _admin_sql(f'CREATE DATABASE "{name}"')
            self.postgres_name = name  # set before migrating: dropped at the end even if migrating fails
            self._migrate(_postgres_url(name))
        _admin_sql(f'CREATE DATABASE "{target}" TEMPLATE "{self.postgres_name}"')

    def drop(self) -> None:
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
        if self.postgres_name is not None:
            _admin_sql(f'DROP DATABASE IF EXISTS "{self.postgres_name}" WITH (FORCE)')


MIGRATED = MigratedDatabase()


@pytest.fixture(autouse=True, scope="session")
def _drop_migrated_database():
    yield
    MIGRATED.drop()


class Platform:
    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings", DJANGO_DEBUG="1", DISPATCH_OFFER_SECONDS="3",
                        DISPATCH_TICK_SECONDS="0.3", TAXI_VAR_DIR=str(tmp), PYTHONPATH=str(ROOT),
                        CACHE_KEY_PREFIX=f"e2e-{uuid.uuid4().hex[:8]}")  # its own rate-limit counts, as its own database
        if _on_postgres():
            self.db_name = f"taxi_e2e_{uuid.uuid4().hex[:8]}"
            self.env["DATABASE_URL"] = _postgres_url(self.db_name)
        else:
            self.db_name = None
            self.db_file = tmp / "e2e.sqlite3"
            self.env["DATABASE_URL"] = f"sqlite:///{self.db_file}"
        self.processes: list[subprocess.Popen] = []
        self.ports: list[int] = []

    def prepare(self) -> dict:
        """A fresh copy of the migrated database (``MIGRATED``), then this platform's world in it."""
        if self.db_name:
            MIGRATED.clone_postgres(self.db_name)
        else:
            MIGRATED.clone_sqlite(self.db_file)
        world = _manage(self.env, str(ROOT / "tests" / "e2e" / "world.py"))
        self.world = json.loads(world.stdout.strip().splitlines()[-1])
        self.world["database_url"] = self.env["DATABASE_URL"]  # the tests read where a cab is as the dispatcher does
        return self.world

    def start(self, count: int = 1) -> list[int]:
        for _ in range(count):
            port = free_port()
            log = open(self.tmp / f"daphne-{port}.log", "w")
            process = subprocess.Popen(
                [sys.executable, "-m", "dispatch.transport.server", "-b", "127.0.0.1", "-p", str(port),
                 "--websocket_connect_timeout", "10", "--websocket-max-message-size", "2097152",
                 "--websocket-max-frame-size", "2097152", "config.asgi:application"],
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
            _admin_sql(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def platform(tmp_path_factory):
    p = Platform(tmp_path_factory.mktemp("e2e"))
    try:
        p.prepare()
        p.start(1)
        yield p
    finally:
        p.stop()


def descendants(pid: int) -> list[int]:
    """The processes under ``pid`` (its children, theirs...), read from /proc (Linux)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):  # gone meanwhile
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def running(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie, dead and not yet reaped, does not)."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def still_running(pids: list[int], within: float) -> list[int]:
    """Those of ``pids`` still running after ``within`` seconds (polled)."""
    deadline = time.monotonic() + within
    while True:
        left = [pid for pid in pids if running(pid)]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.1)


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


def fill_address(page, selector: str, text: str) -> None:
    """Write an address the way a person does, who sees the page's street lookup land in the field mid-typing.

    The passenger page and the console put a looked-up street into an address field nobody wrote in yet; when its
    answer lands while Playwright types (after it selected the empty field, before it inserted the text), the two
    join. Once the field holds just the text, the page never overwrites it (the ``input`` event marks it written).
    """
    for _ in range(3):
        page.fill(selector, text)
        if page.input_value(selector) == text:
            return
    raise AssertionError(f"{selector} kept {page.input_value(selector)!r} instead of {text!r}")


def mark_pickup(page, lat: float, lon: float) -> None:
    """Mark the passenger's pickup as a tap on the map at (lat, lon) does: the page shows no coordinate boxes."""
    page.evaluate("([lat, lon]) => window.TaxiPassenger.mark('pickup', lat, lon)", [lat, lon])
