"""A connection budget per process on PostgreSQL (issue 34): psycopg's pool through Django's pool option.

A real Daphne with a tiny pool under many concurrent API clients: the database never sees more connections than
the pool allows, and no request gets a 500; one that finds the pool busy for longer than its timeout gets a 503
(``backend.error_views.DatabaseBusyMiddleware``). Measured at compose's size: benchmarks/db_connections_bench.py.
"""

import os
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest

from .conftest import Platform, _postgres_url

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                       reason="the pool is psycopg's, for PostgreSQL; CI's second run has it"),
]
PATHS = ("/api/permits/?limit=20", "/api/people/?limit=20", "/api/parameters/?limit=20", "/api/vehicles/?limit=20")


def _served_with_a_pool(p: Platform, size: int, timeout: str) -> None:
    """The world made as usual, then Daphne with the pool (the world's script needs no budget)."""
    p.prepare()
    p.env.update(DATABASE_POOL_SIZE=str(size), DATABASE_POOL_TIMEOUT=timeout)
    p.env.pop("DATABASE_CONN_MAX_AGE", None)
    p.start(1)


def _hammer(p: Platform, requests: int = 240, clients: int = 30) -> tuple[list[int], int]:
    """(the answers' statuses, the most connections the platform's database had at once)."""
    token, port = p.world["operator"]["token"], p.ports[0]
    peak, done = 0, threading.Event()

    def sample():
        nonlocal peak
        with psycopg.connect(_postgres_url("postgres"), autocommit=True) as conn:
            while not done.is_set():
                count = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (p.db_name,)).fetchone()[0]
                peak = max(peak, count)
                time.sleep(0.02)

    def get(n: int) -> int:
        request = urllib.request.Request(f"http://127.0.0.1:{port}{PATHS[n % len(PATHS)]}",
                                         headers={"Authorization": f"Token {token}"})
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status
        except urllib.error.HTTPError as refused:
            assert refused.code != 503 or refused.headers["Retry-After"]
            return refused.code

    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        with ThreadPoolExecutor(clients) as pool:
            statuses = list(pool.map(get, range(requests)))
    finally:
        done.set()
        sampler.join(10)
    return statuses, peak


def test_a_small_pool_serves_many_clients_within_its_budget(tmp_path):
    p = Platform(tmp_path)
    try:
        _served_with_a_pool(p, size=2, timeout="10")
        statuses, peak = _hammer(p)
    finally:
        p.stop()
    assert set(statuses) == {200}, sorted(set(statuses))  # waited for a connection, then answered
    assert peak <= 2


def test_a_pool_busy_past_its_timeout_answers_503_never_500(tmp_path):
    p = Platform(tmp_path)
    try:
        _served_with_a_pool(p, size=1, timeout="0.001")  # a wait of a millisecond: most requests find it busy
        statuses, peak = _hammer(p)
    finally:
        p.stop()
    assert set(statuses) <= {200, 503} and 503 in statuses, sorted(set(statuses))
    assert peak <= 1
