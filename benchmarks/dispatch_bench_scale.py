"""The multi-process parts of benchmarks/dispatch_bench.py (issue 33; docs/dispatch-benchmark.md, "K processes").

* ``--processes K[,K...]``: one ``redis`` scenario per K, K Daphne processes on the Redis channel layer, with
  ``--cabs`` cabs *per process* (the fleet is built once for the largest K, in parallel on PostgreSQL);
* ``--burn DUTY``: a second load, a process that burns ``DUTY`` of one core (busy, then asleep, every 100 ms),
  started before the servers and measured beside the figures;
* on PostgreSQL, the wait events of the benchmark database's backends (``pg_stat_activity``), sampled during the
  requests window, and lock waits longer than ``--lock-wait-ms`` logged by PostgreSQL (``log_lock_waits``).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import threading
import time
from collections import Counter

BURN_PERIOD_S = 0.1
SAMPLE_EVERY_S = 0.02


def parse_processes(text: str) -> list[int]:
    """``"1,2,4"`` -> ``[1, 2, 4]`` (each at least 1, in the order given)."""
    counts = [int(part) for part in text.split(",") if part.strip()]
    if not counts or min(counts) < 1:
        raise ValueError(f"--processes wants positive counts, got {text!r}")
    return counts


def scenario_name(k: int) -> str:
    return f"redis-k{k}"


# --- the fleet, built in parallel ----------------------------------------------------------------------


def _build_part(env: dict, first: int, last: int, part: int, parts: int) -> None:
    """In a fresh process: cabs ``first`` to ``last - 1`` of the fleet (``dispatch_bench_fleet.build_fleet``), with
    document numbers of their own (``part`` of ``parts``) so that no two parts make the same CPF, CNH or RENAVAM."""
    os.environ.update(env)
    import django

    django.setup()
    from benchmarks import dispatch_bench_fleet

    dispatch_bench_fleet.build_fleet(last - first, 0, first=first, part=(part, parts))


def build_fleet_parallel(n: int, passengers: int, workers: int) -> tuple[list[str], list[str]]:
    """``dispatch_bench_fleet.build_fleet`` of ``n`` cabs by ``workers`` processes at once (PostgreSQL), then the
    passengers; the tokens in the cabs' order."""
    from django.db import connections

    from benchmarks import dispatch_bench_fleet

    connections.close_all()
    ctx = mp.get_context("spawn")
    bounds = [n * w // workers for w in range(workers + 1)]
    env = {k: v for k, v in os.environ.items() if k in ("DJANGO_SETTINGS_MODULE", "DJANGO_DEBUG", "DATABASE_URL", "TAXI_VAR_DIR",
                                                          "LOG_LEVEL")}
    procs = [ctx.Process(target=_build_part, args=(env, bounds[w], bounds[w + 1], w, workers)) for w in range(workers)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
        if p.exitcode:
            raise RuntimeError(f"a fleet builder exited with {p.exitcode}")
    dispatch_bench_fleet.build_fleet(0, passengers)
    return dispatch_bench_fleet.fleet_tokens()


# --- a second load: a process burning a share of one core ----------------------------------------------


def _burn(duty: float, stop) -> None:
    busy = duty * BURN_PERIOD_S
    while not stop.is_set():
        start = time.perf_counter()
        while time.perf_counter() - start < busy:
            pass
        time.sleep(max(0.0, BURN_PERIOD_S - (time.perf_counter() - start)))


class Burner:
    """A process at ``duty`` of one core (0 < duty <= 1) for as long as the benchmark runs."""

    def __init__(self, duty: float):
        ctx = mp.get_context("spawn")
        self.duty, self._stop = duty, ctx.Event()
        self.process = ctx.Process(target=_burn, args=(duty, self._stop), daemon=True)
        self.process.start()

    def cpu(self) -> float:
        from benchmarks.dispatch_bench_servers import cpu_seconds

        return cpu_seconds(self.process.pid)

    def stop(self) -> None:
        self._stop.set()
        self.process.join(timeout=5)


# --- where PostgreSQL's backends wait ------------------------------------------------------------------


class WaitSampler:
    """Samples ``pg_stat_activity`` for the benchmark database's active backends every ``SAMPLE_EVERY_S`` while
    started: how often each (wait event, statement) was seen. A wait event of None is a backend on the CPU."""

    QUERY = ("SELECT wait_event_type, wait_event, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) FROM pg_stat_activity "
             "WHERE datname = %s AND state = 'active' AND pid <> pg_backend_pid()")

    def __init__(self, admin_url: str, db_name: str):
        self.admin_url, self.db_name = admin_url, db_name
        self.seen: Counter = Counter()
        self.samples = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            while not self._stop.is_set():
                for kind, event, query in conn.execute(self.QUERY, [self.db_name]).fetchall():
                    self.seen[(f"{kind}:{event}" if kind else "CPU", query)] += 1
                self.samples += 1
                time.sleep(SAMPLE_EVERY_S)

    def stop(self) -> dict:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        waits = Counter()
        for (event, _query), n in self.seen.items():
            waits[event] += n
        return {"samples": self.samples, "by_event": waits.most_common(8), "by_statement": self.seen.most_common(8)}


def log_lock_waits(admin_url: str, db_name: str, after_ms: int) -> None:
    """PostgreSQL logs every lock wait longer than ``after_ms`` in this database (``log_lock_waits`` once
    ``deadlock_timeout`` has passed; set for this database only, superuser)."""
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{db_name}" SET log_lock_waits = on')
        conn.execute(f"ALTER DATABASE \"{db_name}\" SET deadlock_timeout = '{int(after_ms)}ms'")


def print_waits(name: str, waits: dict) -> None:
    if not waits or not waits["samples"]:
        return
    total = waits["samples"]
    print(f"\n  [{name}] PostgreSQL backends of the benchmark database during the requests window "
          f"({total} samples, every {SAMPLE_EVERY_S * 1000:.0f} ms; active backends per sample by wait event):")
    for event, n in waits["by_event"]:
        print(f"    {event:<34} {n / total:6.3f}")
    print("    by statement:")
    for (event, query), n in waits["by_statement"]:
        print(f"    {n / total:6.3f} {event:<28} {query}")


def print_burn(rows: list[dict]) -> None:
    for r in rows:
        if r.get("burn") is not None:
            print(f"  [{r['name']}] second load: a process burning {r['burn_duty']:.0%} of a core measured at "
                  f"{r['burn']:.0%} of a core over the requests window")


class Watch:
    """What the requests window of ``dispatch_bench_measure.measure`` also measures: the burner's share of a core, and (on
    PostgreSQL) the backends' wait events."""

    def __init__(self, burner: Burner | None, admin_url: str | None, db_name: str | None):
        self.burner, self.admin_url, self.db_name = burner, admin_url, db_name
        self._sampler: WaitSampler | None = None
        self._at = self._cpu = 0.0

    def begin(self) -> None:
        self._at = time.perf_counter()
        self._cpu = self.burner.cpu() if self.burner else 0.0
        if self.admin_url and self.db_name:
            self._sampler = WaitSampler(self.admin_url, self.db_name)
            self._sampler.start()

    def end(self) -> dict:
        out: dict = {"burn": None, "burn_duty": None, "pg_waits": None}
        if self.burner:
            out.update(burn=(self.burner.cpu() - self._cpu) / (time.perf_counter() - self._at), burn_duty=self.burner.duty)
        if self._sampler:
            out["pg_waits"] = self._sampler.stop()
        return out


def add_arguments(parser) -> None:
    parser.add_argument("--processes", default="",
                        help="comma-separated process counts K (e.g. 1,2,4,8): one 'redis-kK' scenario each, K Daphne processes "
                             "on Redis with --cabs cabs per process, in place of --scenarios")
    parser.add_argument("--build-workers", type=int, default=min(8, os.cpu_count() or 1),
                        help="processes building the fleet at once (PostgreSQL)")
    parser.add_argument("--burn", type=float, default=0.0,
                        help="a second load: a process burning this share of one core (0.5: half a core) during every scenario")
    parser.add_argument("--lock-wait-ms", type=int, default=20,
                        help="PostgreSQL: log lock waits longer than this (log_lock_waits, deadlock_timeout) in the benchmark "
                             "database; 0: leave the server's settings")
