"""Meter throughput: fixes processed per second, incremental vs a naive baseline.

Run: .venv/bin/python benchmarks/meter_bench.py [n_fixes]

The incremental meter (taxilaw.meter.Meter.feed) processes each fix once.
The naive baseline recomputes the whole trace from scratch at every fix
(what a server doing ``recompute(trace[:i])`` per update would do): O(n^2).
"""

from __future__ import annotations

import math
import os
import sys
import time
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from taxilaw.flags import municipal_holiday_dates  # noqa: E402
from taxilaw.meter import Fix, Meter, recompute  # noqa: E402
from taxilaw.tariffs import MURIAE_DEMO_TARIFF  # noqa: E402

SP = ZoneInfo("America/Sao_Paulo")


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


def bench_incremental(fixes: list[Fix]) -> tuple[float, object]:
    holidays = municipal_holiday_dates([2026])
    start = time.perf_counter()
    meter = Meter(MURIAE_DEMO_TARIFF, holidays)
    meter.start(fixes[0].t)
    for fix in fixes:
        reading = meter.feed(fix)
    elapsed = time.perf_counter() - start
    return elapsed, reading


def bench_naive(fixes: list[Fix]) -> tuple[float, object]:
    holidays = municipal_holiday_dates([2026])
    start = time.perf_counter()
    for i in range(1, len(fixes) + 1):
        reading = recompute(fixes[:i], MURIAE_DEMO_TARIFF, holidays, started_at=fixes[0].t, stopped_at=fixes[i - 1].t)
    elapsed = time.perf_counter() - start
    return elapsed, reading


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 3600
    n_naive = min(n, int(sys.argv[2]) if len(sys.argv) > 2 else 600)
    fixes = make_trace(n)
    bench_incremental(fixes[:200])  # warm caches (holidays, imports)
    inc_s, reading = bench_incremental(fixes)
    inc_rate = n / inc_s
    print(f"incremental meter: {n} fixes in {inc_s:.3f} s = {inc_rate:,.0f} fixes/s "
          f"({1e6 * inc_s / n:.1f} µs/fix); total R$ {reading.total}, {reading.distance_m / 1000:.2f} km, "
          f"waiting {reading.waiting_s:.0f} s, flag {int(reading.flag)} ({reading.flag_reason}), "
          f"rejected {reading.rejected_fixes}")
    naive_s, naive_reading = bench_naive(fixes[:n_naive])
    naive_rate = n_naive / naive_s
    inc_small, _r = bench_incremental(fixes[:n_naive])
    print(f"naive baseline (recompute whole trace per fix): {n_naive} fixes in {naive_s:.3f} s = "
          f"{naive_rate:,.0f} fixes/s")
    print(f"incremental on the same {n_naive} fixes: {n_naive / inc_small:,.0f} fixes/s; "
          f"ratio incremental/naive = {naive_s / inc_small:,.0f}x")
    assert naive_reading.total >= _r.total  # naive stops at the last fix: same fare


if __name__ == "__main__":
    main()
