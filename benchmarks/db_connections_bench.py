"""PostgreSQL connections under load: compose's old persistent connections against the pool (docs/operations.md).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/taxi_bench REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python benchmarks/db_connections_bench.py [--requests 2400] [--clients 50]

Two Daphne processes with compose's settings (DEBUG off, Redis for the layer and the cache), the same load on
each setting in one run: ``--requests`` authenticated API reads (permits, people, parameters, vehicles) from
``--clients`` concurrent clients, spread over both processes. ``pg_stat_activity`` is sampled for
the database throughout (every 50 ms) and once the load is over. The settings:

* ``old``   ``DATABASE_CONN_MAX_AGE=60`` (compose until issue 34): each thread keeps its own connection;
* ``fresh`` ``DATABASE_CONN_MAX_AGE=0`` (the default without compose): a connection opened and closed per request;
* ``pool``  ``DATABASE_POOL_SIZE`` (compose's 10) and ``DATABASE_POOL_TIMEOUT`` 5 s: psycopg's pool per process.

The database named in DATABASE_URL is dropped and created afresh (use one of your own). On a shared server the
old setting's run is stopped once the server's connections reach ``max_connections - --spare``, so that others
keep theirs; the table then says so.
"""

from __future__ import annotations

import argparse
import collections
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import psycopg

ROOT = Path(__file__).resolve().parents[1]
PATHS = ("/api/permits/?limit=20", "/api/people/?limit=20", "/api/parameters/?limit=20", "/api/vehicles/?limit=20")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _listens(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def _admin(url: str):
    return psycopg.connect(urlunparse(urlparse(url)._replace(path="/postgres")), autocommit=True)


class Server:
    """Two Daphne processes on one setting; their database's connections sampled on a thread."""

    def __init__(self, env: dict, database: str, admin_url: str, spare: int):
        self.env, self.database, self.admin_url, self.spare = env, database, admin_url, spare
        self.processes: list[subprocess.Popen] = []
        self.ports: list[int] = []
        self.peak = 0
        self.stopped_at: int | None = None  # server-wide connections when the run was stopped to spare the server
        self._sampling = threading.Event()

    def start(self, log_dir: Path) -> None:
        for _ in range(2):
            port = _free_port()
            log = open(log_dir / f"daphne-{port}.log", "w")
            self.processes.append(subprocess.Popen(
                [sys.executable, "-m", "dispatch.transport.server", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
                cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT))
            self.ports.append(port)
        for port in self.ports:
            deadline = time.monotonic() + 60
            while not _listens(port):
                if time.monotonic() > deadline:
                    raise TimeoutError(f"daphne did not listen on {port}")
                time.sleep(0.1)

    def count(self) -> tuple[int, int, int]:
        """(this database's connections, the server's, max_connections)."""
        with _admin(self.admin_url) as conn:
            ours, everyone = conn.execute(
                "SELECT count(*) FILTER (WHERE datname = %s), count(*) FILTER (WHERE backend_type = 'client backend')"
                " FROM pg_stat_activity", (self.database,)).fetchone()
            limit = int(conn.execute("SHOW max_connections").fetchone()[0])
        return ours, everyone, limit

    def sample(self) -> None:
        self._sampling.set()
        with _admin(self.admin_url) as conn:
            limit = int(conn.execute("SHOW max_connections").fetchone()[0])
            while self._sampling.is_set():
                ours, everyone = conn.execute(
                    "SELECT count(*) FILTER (WHERE datname = %s), count(*) FILTER (WHERE backend_type = 'client backend')"
                    " FROM pg_stat_activity", (self.database,)).fetchone()
                self.peak = max(self.peak, ours)
                if everyone >= limit - self.spare and self.stopped_at is None:
                    self.stopped_at = everyone
                    self.stop()
                time.sleep(0.05)

    def stop(self) -> None:
        self._sampling.clear()
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()


def _get(port: int, path: str, token: str) -> tuple[int, float]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Authorization": f"Token {token}"})
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            answer.read()
            status = answer.status
    except urllib.error.HTTPError as refused:
        status = refused.code
    except OSError:
        status = 0  # refused or reset: the server is gone (stopped to spare the shared server)
    return status, time.perf_counter() - started


def _run(server: Server, token: str, requests: int, clients: int) -> dict:
    sampler = threading.Thread(target=server.sample, daemon=True)
    sampler.start()
    started = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        results = list(pool.map(lambda n: _get(server.ports[n % 2], PATHS[n % len(PATHS)], token), range(requests)))
    wall = time.perf_counter() - started
    time.sleep(2)  # what is still open once the load is over
    after = server.count()[0] if server.stopped_at is None else None
    server.stop()
    sampler.join(5)
    statuses = collections.Counter(status for status, _ in results)
    latencies = sorted(seconds for status, seconds in results if status == 200)
    return {"peak": server.peak, "after": after, "statuses": statuses, "wall": wall, "stopped_at": server.stopped_at,
            "p50": statistics.median(latencies) * 1000 if latencies else None,
            "p99": latencies[int(len(latencies) * 0.99) - 1] * 1000 if latencies else None}


def _prepare(env: dict, database: str, admin_url: str) -> str:
    with _admin(admin_url) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{database}"')
    subprocess.run([sys.executable, "manage.py", "migrate", "--no-input"], cwd=ROOT, env=env, check=True, capture_output=True)
    made = subprocess.run([sys.executable, "manage.py", "shell", "-c", (
        "from django.contrib.auth import get_user_model; from backend.accounts import tokens; "
        "u = get_user_model().objects.create_user('bench', password='x', is_staff=True); print(tokens.issue(u).key)")],
        cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    return made.stdout.strip().splitlines()[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2400)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--pool-size", type=int, default=10)
    parser.add_argument("--spare", type=int, default=30, help="connections left to others on a shared server")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("DATABASE_URL must name a PostgreSQL database of your own (it is dropped and created)")
    database = urlparse(url).path.strip("/")
    base = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings", DJANGO_DEBUG="0", DJANGO_HTTPS="0",
                DJANGO_SECRET_KEY="bench-" + uuid.uuid4().hex, DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
                CACHE_KEY_PREFIX=f"bench-{uuid.uuid4().hex[:8]}", TAXI_VAR_DIR=tempfile.mkdtemp(prefix="db-bench-"),
                PYTHONPATH=str(ROOT))
    base.pop("DATABASE_CONN_MAX_AGE", None), base.pop("DATABASE_POOL_SIZE", None)
    token = _prepare(base, database, url)
    settings = {"old": {"DATABASE_CONN_MAX_AGE": "60"}, "fresh": {"DATABASE_CONN_MAX_AGE": "0"},
                "pool": {"DATABASE_POOL_SIZE": str(args.pool_size), "DATABASE_POOL_TIMEOUT": "5"}}
    print(f"{args.requests} requests, {args.clients} concurrent clients, 2 Daphne processes, DEBUG off, "
          f"REDIS_URL={'set' if os.environ.get('REDIS_URL') else 'unset'}; {os.cpu_count()} CPUs")
    results = {}
    for name, extra in settings.items():
        server = Server(dict(base, **extra), database, url, args.spare)
        server.start(Path(base["TAXI_VAR_DIR"]))
        results[name] = _run(server, token, args.requests, args.clients)
    print(f"{'setting':<8} {'peak conns':>10} {'after load':>10} {'200':>6} {'503':>5} {'other 5xx':>9} {'no answer':>9}"
          f" {'p50 ms':>7} {'p99 ms':>7} {'wall s':>7}")
    for name, r in results.items():
        s = r["statuses"]
        other = sum(n for code, n in s.items() if code >= 500 and code != 503)
        print(f"{name:<8} {r['peak']:>10} {r['after'] if r['after'] is not None else '-':>10} {s[200]:>6} {s[503]:>5} {other:>9}"
              f" {s[0]:>9} {r['p50'] or 0:>7.1f} {r['p99'] or 0:>7.1f} {r['wall']:>7.1f}")
        if r["stopped_at"] is not None:
            print(f"         (stopped when the server held {r['stopped_at']} connections: max_connections - {args.spare})")
    print(f"peak connections, old / pool: {results['old']['peak']} / {results['pool']['peak']}"
          f" = {results['old']['peak'] / max(1, results['pool']['peak']):.1f}x")
    with _admin(url) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


if __name__ == "__main__":
    main()
