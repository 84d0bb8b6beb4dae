"""Accuracy of the fare estimate (taxilaw.estimate) against completed trips: median and p90 error.

Run: .venv/bin/python benchmarks/fare_estimate_accuracy.py [n_trips] [--database]

Without ``--database`` the trips are the simulator's (dispatch/simulator.py): the same
pickup and destination draws, the same steps towards the destination at the same
speed and tick, metered by the same :class:`taxilaw.meter.Meter` on the demo tariff,
at request instants spread over two weeks (days, nights, Sundays, a holiday).  The
estimate is asked for from the pickup to where the trip ended (the simulator's cab
stops after a random number of steps, wherever it is).  With ``--database`` the trips
are the completed rides with a trace in the configured database (``DATABASE_URL``):
the first and last fix of each, against the fare the meter showed.

Printed for the configured detour factors and, in the same run, for the naive
baseline "straight line, no detour" (factor 1): the error of the range's midpoint
(median, p90, in R$ and in %) and how often the fare fell inside the range.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from taxilaw.estimate import DEFAULT_DETOUR, DetourFactors, estimate_fare  # noqa: E402
from taxilaw.flags import municipal_holiday_dates  # noqa: E402
from taxilaw.meter import Meter
from taxilaw.meter_data import Fix
from taxilaw.tariffs import MURIAE_DEMO_TARIFF  # noqa: E402

SP = ZoneInfo("America/Sao_Paulo")
HOLIDAYS = municipal_holiday_dates([2026])
NAIVE = DetourFactors(Decimal("1"), Decimal("1"))


def simulated_trips(n: int, seed: int = 18) -> list[tuple[datetime, tuple, tuple, Decimal]]:
    """(requested at, pickup, drop-off, meter total) of ``n`` trips driven as the simulator drives them."""
    from dispatch.simulator import RADIUS_DEG, Config, _random_point, _step_towards

    cfg, rng = Config(), random.Random(seed)
    step_m = cfg.speed_kmh / 3.6 * cfg.tick
    start = datetime(2026, 6, 22, 0, 0, tzinfo=SP)  # two weeks around São Paulo Apóstolo (29/06)
    trips = []
    for _ in range(n):
        at = start + timedelta(seconds=rng.randrange(14 * 86400))
        lat, lon = pickup = _random_point(rng, RADIUS_DEG * 0.8)
        destination = _random_point(rng)
        meter = Meter(MURIAE_DEMO_TARIFF, HOLIDAYS)
        meter.start(at)
        t = at
        for _ in range(rng.randint(*cfg.trip_steps)):
            t += timedelta(seconds=cfg.tick)
            lat, lon = _step_towards(lat, lon, destination, step_m)
            meter.feed(Fix(t, round(lat, 6), round(lon, 6), 8.0))
        trips.append((at, pickup, (round(lat, 6), round(lon, 6)), meter.stop(t).total))
    return trips


def database_trips(limit: int) -> list[tuple[datetime, tuple, tuple, Decimal]]:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from backend.trips.models import Ride, RideStatus

    rows = (Ride.objects.filter(status=RideStatus.COMPLETED, fare__isnull=False, on_board_at__isnull=False)
            .exclude(trace=[]).order_by("-completed_at")[:limit])
    return [(r.on_board_at, (r.trace[0]["lat"], r.trace[0]["lon"]), (r.trace[-1]["lat"], r.trace[-1]["lon"]), r.fare)
            for r in rows]


def measure(trips, detour: DetourFactors) -> dict:
    errors, pct, inside = [], [], 0
    for at, pickup, dropoff, fare in trips:
        e = estimate_fare(MURIAE_DEMO_TARIFF, at, pickup, dropoff, detour=detour, municipal_holidays=HOLIDAYS)
        mid = (e.low + e.high) / 2
        errors.append(abs(mid - fare))
        pct.append(abs(mid - fare) / fare * 100)
        inside += e.low <= fare <= e.high
    q = statistics.quantiles(errors, n=10)[-1] if len(errors) > 1 else errors[0]
    qp = statistics.quantiles(pct, n=10)[-1] if len(pct) > 1 else pct[0]
    return {"median": statistics.median(errors), "p90": q, "median_pct": statistics.median(pct), "p90_pct": qp,
            "inside": inside / len(trips) * 100}


def main(argv: list[str]) -> None:
    n = int(next((a for a in argv if a.isdigit()), "2000"))
    trips = database_trips(n) if "--database" in argv else simulated_trips(n)
    if not trips:
        print("no completed trips with a trace")
        return
    source = "database rides" if "--database" in argv else "simulator trips"
    fares = [t[3] for t in trips]
    print(f"{len(trips)} {source}; fares R$ {min(fares)} .. R$ {max(fares)}, median R$ {statistics.median(fares)}")
    results = {}
    for label, detour in ((f"estimate (detour {DEFAULT_DETOUR.low}-{DEFAULT_DETOUR.high})", DEFAULT_DETOUR),
                          ("naive (straight line, factor 1)", NAIVE)):
        r = results[label] = measure(trips, detour)
        print(f"{label:44s} midpoint error median R$ {r['median']:.2f} ({r['median_pct']:.1f}%), "
              f"p90 R$ {r['p90']:.2f} ({r['p90_pct']:.1f}%); fare inside the range {r['inside']:.0f}%")
    est, naive = results.values()
    print(f"p90 error ratio estimate/naive: {est['p90'] / naive['p90']:.2f}" if naive["p90"] else "naive p90 error is zero")


if __name__ == "__main__":
    main(sys.argv[1:])
