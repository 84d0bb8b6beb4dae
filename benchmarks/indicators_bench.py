"""DIMUTRAN's indicators over a year of simulated rides: the page's computation against a naive per-row one.

A fresh SQLite database (or ``DATABASE_URL``) gets ``n`` rides (default 500,000) requested over the 365 days up to
yesterday, written by ``executemany`` in batches (``simulate``: a few minutes for 500,000 on SQLite), with the demo's mix of outcomes (served, cancelled by whom, no cab,
no-shows) and pickups spread over the town. Then, over that year:

* **rollup**: the nightly job's work for the year (``backend.indicators.rollup``: every closed day), timed once;
* **page**: ``GET /dimutran/indicadores/?first=…&last=…`` as DIMUTRAN (every selector the page reads, the charts,
  the maps, the tables, the template), best of 3, and each selector alone, reading the rollup (``--live``: without
  it, counting every ride in the database as before the rollup);
* **naive**: one pass over every ride in Python (local day, hour and the bairro of its cell, sums and counts),
  the per-row computation the database aggregation replaces. The bairro is looked up per 0.001° cell, cached,
  exactly as the selectors do: the comparison is of the counting, not of the gazetteer.

Run:  .venv/bin/python benchmarks/indicators_bench.py [--rides N] [--live]
(``DATABASE_URL=sqlite:////tmp/x.sqlite3`` keeps the database: run again, its rides are reused, and the rollup
redoes only the last 35 days.)
"""

from __future__ import annotations

import os
import platform
import random
import sys
import tempfile
import time
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from itertools import accumulate, islice
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
TMP = tempfile.mkdtemp(prefix="indicators-bench-")
os.environ.setdefault("DATABASE_URL", f"sqlite:///{TMP}/bench.sqlite3")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DJANGO_DEBUG", "1")  # a benchmark is development

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.utils import timezone  # noqa: E402

from backend.demo.rides import HOURS, PLACES  # noqa: E402
from backend.indicators import maps, money, rank_occupancy, service  # noqa: E402
from backend.indicators.periods import LOCAL, Period, series_grain  # noqa: E402
from backend.indicators.rollup import REBUILD_DAYS, days_to_roll_up, roll_up_day  # noqa: E402
from backend.trips.models import Ride  # noqa: E402

BATCH = 10_000
# The columns the simulation sets; every other column of Ride gets its model default (no passenger, cab or permit:
# the service, bairro and money indicators read none of them).
VARYING = ("created_by", "pickup_lat", "pickup_lon", "status", "escalated", "requested_at", "offered_at", "arriving_at",
           "on_board_at", "completed_at", "cancelled_by", "cancel_reason", "fare")


def simulated_rides(n: int, period: Period):
    """``n`` past rides over the period, deterministic, as dicts of the ``VARYING`` columns: the demo's hours and
    places (``backend.demo.rides``), 78% completed, 11% cancelled by the passenger or an operator, 6% given up
    with no cab (escalated), 5% no-shows."""
    rng = random.Random(1242)
    days = (period.last - period.first).days + 1
    places = [p for p, _ in PLACES]
    hour_weights, place_weights = list(accumulate(HOURS)), list(accumulate(w for _, w in PLACES))
    for i in range(n):
        hour = rng.choices(range(24), cum_weights=hour_weights)[0]
        day = period.first + timedelta(days=rng.randrange(days))
        at = datetime(day.year, day.month, day.day, hour, rng.randrange(60), tzinfo=LOCAL)
        (lat, lon), = rng.choices(places, cum_weights=place_weights)
        ride = dict.fromkeys(VARYING)
        ride.update(pickup_lat=lat + rng.uniform(-0.004, 0.004), pickup_lon=lon + rng.uniform(-0.004, 0.004),
                    created_by="passenger" if i % 3 else "operator", requested_at=at, status="cancelled",
                    offered_at=at + timedelta(seconds=rng.randint(5, 60)), escalated=False, cancelled_by="",
                    cancel_reason="")
        roll = rng.random()
        if roll < 0.78:
            ride["arriving_at"] = ride["offered_at"] + timedelta(minutes=rng.randint(3, 12))
            ride["on_board_at"] = ride["arriving_at"] + timedelta(minutes=1)
            ride["completed_at"] = ride["on_board_at"] + timedelta(minutes=rng.randint(6, 22))
            ride["status"], ride["fare"] = "completed", Decimal(rng.randint(1200, 4200)) / 100
        elif roll < 0.89:
            ride["cancelled_by"] = "passenger" if roll < 0.86 else "operator"
        elif roll < 0.95:
            ride["offered_at"], ride["escalated"], ride["cancelled_by"] = None, True, "no_cab"
        else:
            ride["arriving_at"] = ride["offered_at"] + timedelta(minutes=5)
            ride["cancelled_by"], ride["cancel_reason"] = "driver", "passenger_absent"
        yield ride


def _prepare(field):
    """How a value of ``field`` is handed to the database driver: the field's own ``get_db_prep_save``, except for
    datetimes on SQLite, converted here exactly as its backend does (UTC text) without the per-call timezone
    lookups that were most of the writing time; ``simulate`` checks the two agree on its first row."""
    if field.get_internal_type() == "DateTimeField" and connection.vendor == "sqlite":
        return lambda value: None if value is None else str(value.astimezone(UTC).replace(tzinfo=None))
    return lambda value: field.get_db_prep_save(value, connection)


def simulate(n: int, period: Period) -> None:
    """Write the simulated rides with one ``executemany`` per ``BATCH`` rows: no model instances (at 500,000 rides
    ``bulk_create`` spent most of its time building and preparing objects), the other columns at their defaults."""
    meta = Ride._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    fixed = {f.column: f.get_db_prep_save(f.get_default(), connection) for f in fields if f.name not in VARYING}
    varying = [(f.name, _prepare(f)) for f in fields if f.name in VARYING]
    columns = [*fixed, *(meta.get_field(name).column for name, _ in varying)]
    quote = connection.ops.quote_name
    sql = (f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(c) for c in columns)}) "
           f"VALUES ({', '.join(['%s'] * len(columns))})")
    first = next(simulated_rides(1, period))
    assert [prep(first[name]) for name, prep in varying] == [
        meta.get_field(name).get_db_prep_save(first[name], connection) for name, _ in varying]
    head = tuple(fixed.values())
    rows = (head + tuple(prep(ride[name]) for name, prep in varying) for ride in simulated_rides(n, period))
    with connection.cursor() as cursor:
        while batch := list(islice(rows, BATCH)):
            with transaction.atomic():
                cursor.executemany(sql, batch)


def naive(period: Period) -> dict:
    """Every ride read into Python and counted row by row: per day, per hour, per bairro, and gross per week."""
    by_day, by_hour, by_bairro, weeks = (defaultdict(lambda: defaultdict(float)) for _ in range(4))
    rows = Ride.objects.filter(**period.window("requested_at"), created_by__in=service.REQUEST_ORIGINS).values_list(
        "requested_at", "status", "cancelled_by", "cancel_reason", "escalated", "on_board_at", "offered_at",
        "arriving_at", "pickup_lat", "pickup_lon", "fare", "fare_held", "completed_at")
    for at, status, by, reason, escalated, boarded, offered, arriving, lat, lon, fare, held, done in rows.iterator(2000):
        local = at.astimezone(LOCAL)
        bairro = service.bairro_of_cell(round(lat * service.CELLS_PER_DEGREE), round(lon * service.CELLS_PER_DEGREE))
        for bucket in (by_day[local.date()], by_hour[local.hour], by_bairro[bairro]):
            bucket["requests"] += 1
            bucket["served"] += boarded is not None
            bucket["escalated"] += escalated
            bucket["unanswered"] += status == "cancelled" and by == "no_cab"
            bucket[f"cancelled_{by}"] += status == "cancelled" and bool(by)
            bucket["no_shows"] += by == "driver" and reason == service.NO_SHOW_REASON
            if offered:
                bucket["offer_s"] += (offered - at).total_seconds()
                bucket["offer_n"] += 1
            if arriving:
                bucket["pickup_s"] += (arriving - at).total_seconds()
                bucket["pickup_n"] += 1
        if status == "completed" and done and not held and fare is not None:
            monday = done.astimezone(LOCAL).date()
            weeks[monday - timedelta(days=monday.weekday())]["gross"] += float(fare)
    return {"days": by_day, "hours": by_hour, "bairros": by_bairro, "weeks": weeks}


def best_of(fn, times: int = 3) -> float:
    out = []
    for _ in range(times):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return min(out)


def main(n: int = 500_000, live: bool = False) -> None:
    setup_test_environment()
    t0 = time.perf_counter()
    call_command("migrate", verbosity=0)
    today = timezone.localdate()
    year = Period(today - timedelta(days=365), today - timedelta(days=1))
    reused = Ride.objects.exists()
    if reused:  # a DATABASE_URL given again: measure its rides as they are (the page after a change)
        print(f"reusing the {Ride.objects.count():,} rides of {connection.settings_dict['NAME']}")
    else:
        simulate(n, year)
    print(f"{connection.vendor}, {platform.python_implementation()} {platform.python_version()}, "
          f"{os.cpu_count()} CPUs; {Ride.objects.count():,} rides over {year.first}..{year.last} "
          f"{'migrated' if reused else 'written'} in {time.perf_counter() - t0:.1f} s")
    if not live:
        t0 = time.perf_counter()
        days = days_to_roll_up(today)
        for day in days:
            roll_up_day(day, timezone.now())
        print(f"rollup of {len(days)} closed days ({'the nightly job first run' if len(days) > REBUILD_DAYS + 1 else 'a night rebuild'}): {time.perf_counter() - t0:.1f} s")
    client = Client()
    user = get_user_model().objects.filter(username="bench").first()
    client.force_login(user or get_user_model().objects.create_superuser("bench", password="bench-only"))
    query = {"first": year.first.isoformat(), "last": year.last.isoformat()}
    assert client.get("/dimutran/indicadores/", query).status_code == 200  # warm: the gazetteer, the streets
    page = best_of(lambda: client.get("/dimutran/indicadores/", query))
    parts = {
        "service_total": lambda: service.service_total(year),
        f"service per {series_grain(year)}": lambda: service.service(year, series_grain(year)),
        "service per hour": lambda: service.service(year, "hour"), "by bairro": lambda: service.service_by_bairro(year),
        "gross per week": lambda: money.gross_by_week(year), "rank occupancy": lambda: rank_occupancy.rank_occupancy(year),
        "unanswered map": lambda: maps.unanswered_map(year),
    }
    for name, fn in parts.items():
        print(f"  {name:<18} {best_of(fn) * 1000:8.0f} ms")
    per_row = best_of(lambda: naive(year), times=1)
    print(f"page (whole view, best of 3): {page:.2f} s; naive per-row: {per_row:.2f} s; ratio {per_row / page:.1f}x")


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("rides", nargs="?", type=int, help=argparse.SUPPRESS)  # the old positional form
    parser.add_argument("--rides", dest="n", type=int, default=500_000, help="rides over the year (500,000)")
    parser.add_argument("--live", action="store_true", help="no rollup: the page counts every ride")
    args = parser.parse_args()
    main(args.rides or args.n, live=args.live)
