"""Meter throughput: the server's recomputation in fixes per second, against baselines in the same run.

Run: .venv/bin/python benchmarks/meter_bench.py [n_fixes] [n_naive] [--runs N] [--callgrind]

* **server recomputation** (``taxilaw.meter_check.recompute`` over a whole trace, what the server does for every
  completed trip): best of ``--runs`` runs;
* **geodesic baseline**: the same recomputation with the WGS-84 geodesic (geographiclib) for every segment,
  the previous engine's distance; the fares of both must be identical to the centavo;
* **incremental meter** (``Meter.feed``, one reading per fix, what the phone does);
* **naive baseline**: recomputing the whole trace from scratch at every fix, O(n²).

The machine may be shared: ``--callgrind`` also counts CPU instructions per fix under
``valgrind --tool=callgrind`` (a repeatable figure: the difference between a run over n and over 2n fixes,
so interpreter start-up and imports cancel out).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import subprocess
import sys
import time
from contextlib import contextmanager, nullcontext
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from taxilaw import meter as meter_module  # noqa: E402
from taxilaw.flags import municipal_holiday_dates  # noqa: E402
from taxilaw.geodesy import distance_m  # noqa: E402
from taxilaw.meter import Meter
from taxilaw.meter_check import recompute
from taxilaw.meter_data import Fix
from taxilaw.tariffs import MURIAE_DEMO_TARIFF  # noqa: E402

SP = ZoneInfo("America/Sao_Paulo")
HOLIDAYS = municipal_holiday_dates([2026])


def make_trace(n: int) -> list[Fix]:
    """A 1 Hz city trip through Muriaé: stop-and-go, a bit of jitter, 1 bad fix in 50."""
    t0 = datetime(2026, 3, 4, 21, 40, tzinfo=SP)  # crosses 22:00 and the 10th km
    lat, lon, heading = -21.1306, -42.3664, 0.3
    fixes = []
    for i in range(n):
        speed = 0.0 if (i // 60) % 5 == 4 else 11.0 + 3.0 * math.sin(i / 17)  # m/s, stops 1 min in 5
        heading += 0.02 * math.sin(i / 40)
        lat += speed * math.cos(heading) / 110_700
        lon += speed * math.sin(heading) / 103_400
        acc = 200.0 if i % 50 == 25 else 6.0
        fixes.append(Fix(t0 + timedelta(seconds=i), lat + ((i * 7919) % 5 - 2) * 1e-6, lon, acc))
    return fixes


@contextmanager
def geodesic_everywhere():
    """The baseline engine: every segment measured by the geodesic."""
    fast = meter_module.segment_distance_m
    meter_module.segment_distance_m = distance_m
    try:
        yield
    finally:
        meter_module.segment_distance_m = fast


def bench_recompute(fixes: list[Fix], runs: int) -> tuple[float, object]:
    best, reading = math.inf, None
    for _ in range(runs):
        start = time.perf_counter()
        reading = recompute(fixes, MURIAE_DEMO_TARIFF, HOLIDAYS)
        best = min(best, time.perf_counter() - start)
    return best, reading


def bench_incremental(fixes: list[Fix]) -> tuple[float, object]:
    start = time.perf_counter()
    meter = Meter(MURIAE_DEMO_TARIFF, HOLIDAYS)
    meter.start(fixes[0].t)
    for fix in fixes:
        reading = meter.feed(fix)
    return time.perf_counter() - start, reading


def bench_naive(fixes: list[Fix]) -> tuple[float, object]:
    start = time.perf_counter()
    for i in range(1, len(fixes) + 1):
        reading = recompute(fixes[:i], MURIAE_DEMO_TARIFF, HOLIDAYS, started_at=fixes[0].t, stopped_at=fixes[i - 1].t)
    return time.perf_counter() - start, reading


def _instructions(n: int, geodesic: bool) -> int:
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__,
           str(n), "--recompute-only", *(["--geodesic"] if geodesic else [])]
    err = subprocess.run(cmd, capture_output=True, text=True, check=True).stderr
    return int(re.search(r"Collected : (\d+)", err).group(1))


def instructions_per_fix(n: int, geodesic: bool) -> float:
    return (_instructions(2 * n, geodesic) - _instructions(n, geodesic)) / n


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("n", nargs="?", type=int, default=3600)
    parser.add_argument("n_naive", nargs="?", type=int, default=600)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--callgrind", action="store_true")
    parser.add_argument("--recompute-only", action="store_true", help=argparse.SUPPRESS)  # one run, for callgrind
    parser.add_argument("--geodesic", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    fixes = make_trace(args.n)
    if args.recompute_only:
        with geodesic_everywhere() if args.geodesic else nullcontext():
            recompute(fixes, MURIAE_DEMO_TARIFF, HOLIDAYS)
        return

    bench_recompute(fixes[:200], 1)  # warm caches (holidays, imports)
    fast_s, fast = bench_recompute(fixes, args.runs)
    with geodesic_everywhere():
        geo_s, geo = bench_recompute(fixes, args.runs)
    print(f"server recomputation: {args.n} fixes, best of {args.runs}: {args.n / fast_s:,.0f} fixes/s "
          f"({1e6 * fast_s / args.n:.1f} µs/fix); total R$ {fast.total}, {fast.distance_m / 1000:.3f} km, "
          f"waiting {fast.waiting_s:.0f} s, flag {int(fast.flag)} ({fast.flag_reason}), rejected {fast.rejected_fixes}")
    print(f"geodesic baseline (geographiclib for every segment): {args.n / geo_s:,.0f} fixes/s "
          f"({1e6 * geo_s / args.n:.1f} µs/fix); total R$ {geo.total}; ratio {geo_s / fast_s:.1f}x")
    print(f"same fare: R$ {fast.total} == R$ {geo.total}; distance differs by {abs(fast.distance_m - geo.distance_m) * 1000:.4f} mm")
    assert fast.total == geo.total

    inc_s, reading = bench_incremental(fixes)
    print(f"incremental meter (a reading per fix, as on the phone): {args.n / inc_s:,.0f} fixes/s "
          f"({1e6 * inc_s / args.n:.1f} µs/fix); total R$ {reading.total}")
    n_naive = min(args.n, args.n_naive)
    naive_s, naive_reading = bench_naive(fixes[:n_naive])
    small_s, small = bench_recompute(fixes[:n_naive], 1)
    print(f"naive baseline (recompute the whole trace at every fix): {n_naive} fixes in {naive_s:.3f} s = "
          f"{n_naive / naive_s:,.0f} fixes/s; server recomputation on the same {n_naive} fixes "
          f"{n_naive / small_s:,.0f} fixes/s, ratio {naive_s / small_s:,.0f}x")
    assert naive_reading.total == small.total

    if args.callgrind:
        n = min(args.n, 1000)
        fast_i, geo_i = instructions_per_fix(n, False), instructions_per_fix(n, True)
        print(f"callgrind, instructions per fix (runs over {n} and {2 * n} fixes, differenced): "
              f"server recomputation {fast_i:,.0f}, geodesic baseline {geo_i:,.0f}; ratio {geo_i / fast_i:.1f}x")


if __name__ == "__main__":
    main()
