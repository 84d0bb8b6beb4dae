"""Benchmark of the radio-taxi dispatch over real websockets (docs/dispatch-benchmark.md).

    .venv/bin/python benchmarks/dispatch_bench.py                 # N=1000 cabs, quick
    .venv/bin/python benchmarks/dispatch_bench.py --cabs 5000     # the full run
    .venv/bin/python benchmarks/dispatch_bench.py --layer pubsub  # also RedisPubSubChannelLayer

N simulated cabs (one websocket each, ``Authorization: Token``, shared by
``--client-procs`` client processes) send a position every 5 s while
passengers (one more process) send a Poisson stream of ride requests; each
offer is accepted and the trip run to completion at once.
The same load runs against, in one run:

* ``echo``    a bare Channels consumer on Daphne (benchmarks/echo.py): the ceiling of the stack;
* ``memory``  the dispatch, one Daphne, in-memory channel layer;
* ``redis``   the dispatch, two Daphne processes, RedisChannelLayer (``pubsub``: RedisPubSubChannelLayer);
* ``naive``   a naive dispatcher, one Daphne: a database write per position and a scan of every
  cab with a geodesic distance per request (defined here, ``naive_application``).

It prints connected cabs, position messages/s, request->offer latency p50/p99,
ping RTT (server backlog), server CPU per position message (utime+stime of the
Daphne processes from /proc/<pid>/stat over the measured window) and the ratios.
It creates and drops its own database (a temporary PostgreSQL database, or a
temporary SQLite file with ``--db sqlite``) and starts and stops its own Daphnes.

This file holds the command line, the order of the phases and the naive baseline; its parts: the database and the
fleet (dispatch_bench_fleet), the search scenario (dispatch_bench_search), the Daphne processes and their CPU
(dispatch_bench_servers), the client load (dispatch_bench_load), the measurement of a scenario
(dispatch_bench_measure), the printed report (dispatch_bench_report) and the K-process parts (dispatch_bench_scale).
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse, urlunparse

if __package__ in (None, ""):  # run as a script: the repository root on the path, for ``benchmarks.*``
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks import dispatch_bench_scale  # noqa: E402
from benchmarks.dispatch_bench_fleet import (  # noqa: E402
    ROOT,
    Database,
    analyze,
    build_fleet,
    fleet_template,
    fleet_tokens,
    reset_dispatch_state,
)
from benchmarks.dispatch_bench_measure import measure  # noqa: E402
from benchmarks.dispatch_bench_report import print_table  # noqa: E402
from benchmarks.dispatch_bench_search import print_search, search_benchmark  # noqa: E402
from benchmarks.dispatch_bench_servers import Servers  # noqa: E402

# --- the naive baseline (served by Daphne: ``daphne benchmarks.dispatch_bench:naive_application``) ---------------


def _build_naive_application():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DJANGO_DEBUG", "1")  # a benchmark is development
    from django.core.asgi import get_asgi_application

    get_asgi_application()
    from channels.db import database_sync_to_async
    from channels.routing import ProtocolTypeRouter, URLRouter
    from channels.security.websocket import AllowedHostsOriginValidator
    from django.db import transaction
    from django.urls import path
    from django.utils import timezone
    from geopy.distance import geodesic

    from backend.registry import compliance
    from backend.trips.models import Ride
    from dispatch.consumers import DriverConsumer, PassengerConsumer
    from dispatch.events import announcements, snapshots
    from dispatch.models import Cab, CabStatus
    from dispatch.rides import choosing, grid, offers

    def write_position(cab_id, lat, lon):
        Cab.objects.filter(pk=cab_id).update(lat=lat, lon=lon, position_at=timezone.now(), cell=grid.cell_of(lat, lon))

    def naive_request(pickup, destination, passenger):
        with transaction.atomic():
            ride = Ride.objects.create(passenger=passenger, pickup_lat=pickup["lat"], pickup_lon=pickup["lon"],
                                       destination_lat=destination["lat"] if destination else None,
                                       destination_lon=destination["lon"] if destination else None)
            best = None
            for cab in Cab.objects.filter(status=CabStatus.FREE, online=True).select_related("permit", "driver"):
                if cab.lat is None:
                    continue
                d = geodesic((ride.pickup_lat, ride.pickup_lon), (cab.lat, cab.lon)).meters
                if best is None or d < best[0]:
                    best = (d, cab)
            if best and compliance.may_work(best[1].driver, best[1].permit):
                offers._offer_open_ride(ride, choosing.Choice(best[1], "naive: nearest of all cabs", [], best[0]))
            else:
                announcements.announce(announcements.OPERATORS, {"type": "escalation", "ride": snapshots.ride(ride)})
        return Ride.objects.get(pk=ride.pk)

    class NaiveDriver(DriverConsumer):
        async def on_position(self, data):
            await database_sync_to_async(write_position)(self.cab.pk, data["lat"], data["lon"])

    class NaivePassenger(PassengerConsumer):
        async def on_ride_request(self, data):
            ride = await database_sync_to_async(naive_request)(data["pickup"], data.get("destination"), self.passenger)
            await self.join(announcements.ride_group(ride.pk))
            await self.send_json({"type": "ride_update", "ride": await database_sync_to_async(snapshots.ride)(ride)})

    return ProtocolTypeRouter({"websocket": URLRouter([
        path("ws/driver/", NaiveDriver.as_asgi()),
        path("ws/passenger/", AllowedHostsOriginValidator(NaivePassenger.as_asgi())),
    ])})


def __getattr__(name):  # PEP 562: Daphne imports ``naive_application`` only in its own process
    if name == "naive_application":
        app = _build_naive_application()
        globals()["naive_application"] = app
        return app
    raise AttributeError(name)


# Complexity kept: the benchmark's phases in order, each optional by CLI flag.
def main():  # noqa: C901
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cabs", type=int, default=1000)
    parser.add_argument("--tick", type=float, default=5.0, help="seconds between two positions of a cab")
    parser.add_argument("--rps", type=float, default=2.0, help="ride requests per second (Poisson)")
    parser.add_argument("--passengers", type=int, default=40)
    parser.add_argument("--duration", type=float, default=20.0,
                        help="each of the three measured windows per scenario (s): positions only, at the --surge rate, "
                             "then positions + requests")
    parser.add_argument("--requests-window", type=float, default=0.0,
                        help="length of the positions + requests window (s; default --duration): ~2 requests/s, so 60 s "
                             "or more for a p99 of 100+ requests")
    parser.add_argument("--surge", type=float, default=2.0, help="position rate of the surge window, times the normal rate")
    parser.add_argument("--layer", choices=["redis", "pubsub"], default="redis",
                        help="Redis layer of the two-process scenario; 'pubsub' runs both RedisChannelLayer and RedisPubSubChannelLayer")
    parser.add_argument("--scenarios", default="echo,memory,redis,naive", help="comma-separated subset")
    parser.add_argument("--db", choices=["postgres", "sqlite"], default="postgres")
    parser.add_argument("--pg-url", default=os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432/postgres"))
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13"),
                        help="a Redis database the benchmark may flush")
    parser.add_argument("--connect-concurrency", type=int, default=64)
    parser.add_argument("--client-procs", type=int, default=2,
                        help="processes that hold the cabs' websockets (plus one for the passengers)")
    parser.add_argument("--pin", choices=["each", "one"], default="",
                        help="taskset the servers (each with its offering worker): 'each' to a core of its own, 'one' all "
                             "to the last core (on 2 cores: the one-process and two-process capacity of one core, both "
                             "measured saturated); the clients to the other cores")
    parser.add_argument("--restart", action=argparse.BooleanOptionalAction, default=True,
                        help="after the windows, restart the first server under the same load (SIGTERM, a new process on its "
                             "port): its cabs reconnect with the driver app's back-off")
    parser.add_argument("--down", type=float, default=12.0,
                        help="seconds from the restart's SIGTERM to the new process (at least until the old one exited): "
                             "every scenario is down as long, its cabs in the same step of the driver app's back-off "
                             "(1, 2, 4, 8 s...: the wave of the 15th second)")
    parser.add_argument("--suspend", type=int, default=20,
                        help="permits suspended while the restarted server is down: refused when they come back, never offered")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (logs)")
    parser.add_argument("--reuse-fleet", action="store_true",
                        help="PostgreSQL: keep the built fleet in a template database and copy it on later runs "
                             "(taxi_bench_fleet_*: drop them when done)")
    dispatch_bench_scale.add_arguments(parser)
    args = parser.parse_args()

    def interrupted(*_):
        raise KeyboardInterrupt

    # A background job from a shell ignores SIGINT: take SIGINT and SIGTERM so the Daphnes and the database are cleaned up.
    signal.signal(signal.SIGINT, interrupted)
    signal.signal(signal.SIGTERM, interrupted)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < args.cabs * 2 + 200:
        print(f"warning: file-descriptor limit {hard} is low for {args.cabs} cabs")
    gc.set_threshold(50_000, 50, 100)

    scenarios = [s for s in args.scenarios.split(",") if s]
    processes = {dispatch_bench_scale.scenario_name(k): k for k in dispatch_bench_scale.parse_processes(args.processes)} \
        if args.processes else {}
    if processes:
        scenarios = list(processes)
    fleet = args.cabs * max(processes.values(), default=1)  # --cabs per process with --processes
    if args.layer == "pubsub" and "redis" in scenarios and "pubsub" not in scenarios:
        scenarios.insert(scenarios.index("redis") + 1, "pubsub")

    tmp = Path(tempfile.mkdtemp(prefix="dispatch-bench-"))
    db = Database(args.db, args.pg_url, tmp, fleet_template(fleet, args.passengers) if args.reuse_fleet else None)
    os.environ.update(DJANGO_SETTINGS_MODULE="config.settings", DJANGO_DEBUG="1", DATABASE_URL=db.url, TAXI_VAR_DIR=str(tmp), LOG_LEVEL="WARNING")
    os.environ.pop("REDIS_URL", None)
    (tmp / "bench_pubsub_settings.py").write_text(
        "from config.settings import *  # noqa\n"
        "CHANNEL_LAYERS = {'default': {'BACKEND': 'channels_redis.pubsub.RedisPubSubChannelLayer',\n"
        "    'CONFIG': {'hosts': [{'address': REDIS_URL}]}}}\n")
    rows, search = [], None
    burner = dispatch_bench_scale.Burner(args.burn) if args.burn else None
    admin_url = urlunparse(urlparse(args.pg_url)._replace(path="/postgres")) if db.name else None
    if db.name and args.lock_wait_ms:
        dispatch_bench_scale.log_lock_waits(admin_url, db.name, args.lock_wait_ms)
    try:
        import django

        django.setup()
        from django.core.management import call_command

        t = time.perf_counter()
        call_command("migrate", verbosity=0)
        if db.cloned:
            tokens, pax = fleet_tokens()
        elif db.name and args.build_workers > 1:
            tokens, pax = dispatch_bench_scale.build_fleet_parallel(fleet, args.passengers, args.build_workers)
        else:
            tokens, pax = build_fleet(fleet, args.passengers)
        if not db.cloned:
            analyze()
        db.keep_as_template()
        print(f"database {args.db} ready with {fleet} cabs in {time.perf_counter() - t:.0f} s" + (" (copied)" if db.cloned else ""))
        from django.db import connections

        connections.close_all()
        # The servers run as in production (docker-compose.yml): DEBUG off (no query log), persistent connections.
        base_env = dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{tmp}", DATABASE_CONN_MAX_AGE="600", DJANGO_DEBUG="0",
                        DJANGO_SECRET_KEY="benchmark-only", DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost")
        if "search" in scenarios:
            search = search_benchmark()
            print_search(search)
            connections.close_all()
        for name in [s for s in scenarios if s != "search"]:
            env = dict(base_env)
            app, count = "config.asgi:application", 1
            if name == "echo":
                app = "benchmarks.echo:application"
            elif name == "naive":
                app = "benchmarks.dispatch_bench:naive_application"
            elif name in ("redis", "pubsub", *processes):
                count = processes.get(name, 2)
                env["REDIS_URL"] = args.redis_url
                import redis

                redis.Redis.from_url(args.redis_url).flushdb()
                if name == "pubsub":
                    env["DJANGO_SETTINGS_MODULE"] = "bench_pubsub_settings"
            env["DISPATCH_TRACE_HOPS"] = str(tmp / f"hops-{name}.log")
            reset_dispatch_state()
            connections.close_all()
            servers = Servers(app, count, env, tmp, pin=args.pin)
            try:
                rows.append(measure(name, servers, tokens[:args.cabs * count] if name in processes else tokens, pax, args,
                                    name == "echo", env.get("REDIS_URL"), db.name, Path(env["DISPATCH_TRACE_HOPS"]),
                                    dispatch_bench_scale.Watch(burner, admin_url, db.name)))
            finally:
                servers.stop()
            r = rows[-1]
            print(f"  [{name}] {r['pos_per_s']:.0f} pos/s, CPU {r['cpu_util'] * 100:.0f}%, {r['cpu_per_pos_us']:.0f} us/pos, "
                  f"offer p50/p90/p99 {r['p50_ms']:.1f}/{r['p90_ms']:.1f}/{r['p99_ms']:.1f} ms, ping p99 {r['rtt_p99_ms']:.1f} ms, errors {r['errors']}",
                  flush=True)
    finally:
        if burner:
            burner.stop()
        try:
            db.drop()
        finally:
            if args.keep:
                print(f"logs kept in {tmp}")
            else:
                shutil.rmtree(tmp, ignore_errors=True)
    print()
    print(f"dispatch benchmark: {args.cabs} cabs{' per process' if processes else ''}, a position every {args.tick:g} s, {args.rps:g} requests/s, "
          f"{args.duration:g} s measured per scenario, db {args.db}, {os.cpu_count()} cores (client on the same machine)")
    print_table(rows, args)
    dispatch_bench_scale.print_burn(rows)
    for r in rows:
        dispatch_bench_scale.print_waits(r["name"], r.get("pg_waits"))
    if search:
        print_search(search)


if __name__ == "__main__":
    main()
