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
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse, urlunparse

if __package__ in (None, ""):  # run as a script: the repository root on the path, for ``benchmarks.*``
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks import dispatch_bench_scale  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CENTRE = (-21.131, -42.367)
SPREAD = 0.045  # cabs and pickups in a box of about +-5 km around the centre
REQUEST_WARMUP_S = 5.0  # requests before the measured window
CLK = os.sysconf("SC_CLK_TCK")
if __name__ == "__main__" and str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run as a script: import the project from the checkout


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


# --- database and fleet ---------------------------------------------------------------------------


class Database:
    """A temporary database; with ``template``, a PostgreSQL copy of a fleet built on an earlier run when there is one."""

    def __init__(self, kind: str, pg_url: str, tmp: Path, template: str | None = None):
        self.kind, self.pg_url, self.template = kind, pg_url, template
        self.cloned = False
        if kind == "postgres":
            self.name = f"taxi_bench_{uuid.uuid4().hex[:8]}"
            self.cloned = bool(template) and self._admin("SELECT 1 FROM pg_database WHERE datname = %s", [template]) is not None
            self._admin(f'CREATE DATABASE "{self.name}"' + (f' TEMPLATE "{template}"' if self.cloned else ""))
            self.url = urlunparse(urlparse(pg_url)._replace(path="/" + self.name))
        else:
            self.name = None
            self.url = f"sqlite:///{tmp / 'bench.sqlite3'}"

    def _admin(self, sql, params=None):
        import psycopg

        with psycopg.connect(urlunparse(urlparse(self.pg_url)._replace(path="/postgres")), autocommit=True) as conn:
            cursor = conn.execute(sql, params)
            return cursor.fetchone() if cursor.description else None  # a row only for a statement that returns some

    def keep_as_template(self):
        """Copy the freshly built fleet for later runs (``--reuse-fleet``)."""
        if self.template and self.name and not self.cloned:
            from django.db import connections

            connections.close_all()
            self._admin(f'CREATE DATABASE "{self.template}" TEMPLATE "{self.name}"')

    def drop(self):
        if self.name:
            from django.db import connections

            connections.close_all()
            self._admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def fleet_template(n: int, passengers: int) -> str:
    """The template database's name: the fleet's size, the day it was built for, and a digest of the
    migrations and of ``build_fleet``, so a schema or fleet change never reuses an old copy."""
    import hashlib
    import inspect
    from datetime import datetime
    from zoneinfo import ZoneInfo

    digest = hashlib.sha1(inspect.getsource(build_fleet).encode())
    for path in sorted([*ROOT.glob("backend/**/migrations/0*.py"), *ROOT.glob("dispatch/migrations/0*.py")]):
        digest.update(path.read_bytes())
    return f"taxi_bench_fleet_{n}_{passengers}_{datetime.now(ZoneInfo('America/Sao_Paulo')):%Y%m%d}_{digest.hexdigest()[:10]}"


def fleet_tokens() -> tuple[list[str], list[str]]:
    """The tokens of a fleet copied from a template, in the order ``build_fleet`` made them."""
    from rest_framework.authtoken.models import Token

    from backend.trips.models import Passenger

    cabs = list(Token.objects.filter(user__username__startswith="bench").order_by("user_id").values_list("key", flat=True))
    return cabs, list(Passenger.objects.order_by("pk").values_list("token", flat=True))


def build_fleet(n: int, passengers: int, first: int = 0, part: tuple[int, int] = (0, 1)) -> tuple[list[str], list[str]]:
    """N compliant cabs (permit, term, vehicle, inspection, CMT, user, token), numbered from ``first``, and a pool of
    passengers. ``part`` (p, of parts): only document numbers equal to p modulo parts, so that parts built at once
    (dispatch_bench_scale.build_fleet_parallel) never make the same one."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone
    from rest_framework.authtoken.models import Token
    from validate_docbr import CNH, CPF, RENAVAM

    from backend.registry.models import Inspection
    from backend.registry.services import auxiliaries, people, permits, vehicles
    from backend.trips.models import Passenger
    from dispatch.rides.cabs import go_online
    from taxilaw.inspection_items import approved_vistoria

    User = get_user_model()
    today = timezone.localdate()
    signed = today - timedelta(days=30)
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    cpfs, cnhs, renavams = set(), set(), set()

    def unique(gen, seen):
        while True:
            v = gen.generate()
            if v not in seen and int(v) % part[1] == part[0]:
                seen.add(v)
                return v

    tokens = []
    cpf, cnh, renavam = CPF(), CNH(), RENAVAM()
    for start in range(first, first + n, 250):
        with transaction.atomic():
            for i in range(start, min(first + n, start + 250)):
                user = User.objects.create(username=f"bench{i}")
                person = people.register_person(full_name=f"Motorista {i}", cpf=unique(cpf, cpfs), cnh=unique(cnh, cnhs), user=user)
                permit = permits.grant_permit(person=person, number=f"B-{i:05d}", result_published_on=signed, on=signed)
                permits.sign_term(permit=permit, signed_on=signed)
                plate = f"R{letters[i // 2600 % 26]}{letters[i // 100 % 26]}{i % 10}{letters[i // 10 % 26]}{i * 7 % 100:02d}"
                vehicle = vehicles.register_vehicle(
                    permit=permit, on=signed, plate=plate, renavam=unique(renavam, renavams), make="Fiat", model="Cronos",
                    model_year=today.year, manufacture_year=today.year, colour="branco")
                vehicles.record_inspection(vehicle=vehicle, inspected_on=signed, result=Inspection.Result.PASSED, seal_number=f"S{i}", **approved_vistoria())
                auxiliaries.issue_cmt(person=person, number=f"CMT-B{i}", issued_on=signed, expires_on=signed + timedelta(days=900))
                tokens.append(Token.objects.create(user=user).key)
                go_online(person)  # the cab row, with the registry's facts kept on it: a copied fleet connects fast
        print(f"  fleet: {len(tokens)}/{n}", end="\r", flush=True)
    print()
    pax = [Passenger.objects.create(name=f"Passageiro {i}", phone=f"3298{i:07d}").token for i in range(passengers)]
    return tokens, pax


SUSPENSION_REASON = "benchmark: suspended while its server restarts"


def suspend_permits_of(keys: list[str]) -> None:
    """DIMUTRAN suspends the permits of these drivers' tokens (Art. 54, b), through the registry's service."""
    from datetime import timedelta

    from django.utils import timezone

    from backend.registry.models import Permit
    from backend.registry.services import permits

    today = timezone.localdate()
    for permit in Permit.objects.filter(holder__user__auth_token__key__in=keys):
        permits.suspend(permit=permit, starts_on=today, ends_on=today + timedelta(days=5), reason=SUSPENSION_REASON)


def analyze() -> None:
    """The planner's statistics of a fleet just built, as autovacuum would gather them on a database in service:
    without them PostgreSQL scanned every user to check a token (a copied template keeps them)."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def reset_dispatch_state():
    from backend.ranks.models import RankCheckIn
    from backend.registry.models import Suspension
    from backend.trips.models import Ride
    from dispatch.models import Cab, Offer

    Suspension.objects.filter(reason=SUSPENSION_REASON).delete()  # a restart's suspensions end with its scenario
    RankCheckIn.objects.all().delete()
    Offer.objects.all().delete()
    Ride.objects.all().delete()
    Cab.objects.all().update(online=False, status="fora_de_servico", lat=None, lon=None, cell="", position_at=None)


# --- the candidate search against a naive scan (no server) ------------------------------------------


def search_benchmark(n_naive: int = 10, n_search: int = 300) -> dict:
    """Every cab of the fleet free, online and placed in the box; the grid search (``choosing.nearest_free``)
    against a scan of every free cab with a geodesic distance each (the naive dispatcher's), same pickups."""
    from django.db.models import Q
    from django.utils import timezone
    from geopy.distance import geodesic

    from dispatch.models import Cab, CabStatus
    from dispatch.rides import choosing, positions

    rng = random.Random(66)
    now = timezone.now()
    ids = list(Cab.objects.values_list("pk", flat=True))
    positions.flush({pk: (CENTRE[0] + rng.uniform(-SPREAD, SPREAD), CENTRE[1] + rng.uniform(-SPREAD, SPREAD), now) for pk in ids})
    Cab.objects.update(status=CabStatus.FREE, online=True)

    def naive(lat, lon):
        free = Cab.objects.filter(Q(status=CabStatus.FREE) & Q(online=True)).select_related("permit", "driver")
        ranked = sorted((geodesic((lat, lon), (c.lat, c.lon)).meters, c.pk) for c in free if c.lat is not None)
        return [pk for _d, pk in ranked[:choosing.CANDIDATES_PER_OFFER]]

    pickups = [(CENTRE[0] + rng.uniform(-SPREAD, SPREAD) * 0.8, CENTRE[1] + rng.uniform(-SPREAD, SPREAD) * 0.8) for _ in range(n_search)]
    for lat, lon in pickups[:20]:  # warm: prepared plans, caches
        choosing.nearest_free(lat, lon, set())
    search_s, answers = [], []
    for lat, lon in pickups:
        t = time.perf_counter()
        found = choosing.nearest_free(lat, lon, set())
        search_s.append(time.perf_counter() - t)
        answers.append([c.cab.pk for c in found])
    naive_s, same = [], 0
    for k, (lat, lon) in enumerate(pickups[:n_naive]):
        t = time.perf_counter()
        scanned = naive(lat, lon)
        naive_s.append(time.perf_counter() - t)
        same += scanned == answers[k]
    Cab.objects.update(status="fora_de_servico", online=False)
    return {"cabs": len(ids), "search_ms": pct(search_s, 50) * 1000, "search_p99_ms": pct(search_s, 99) * 1000,
            "naive_ms": pct(naive_s, 50) * 1000, "same": same, "compared": len(naive_s)}


# --- servers ------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK  # utime, stime


def machine_cpu() -> tuple[float, float]:
    """Seconds of CPU the whole machine spent busy and in all since boot (/proc/stat; all cores)."""
    with open("/proc/stat") as f:
        ticks = [int(v) for v in f.readline().split()[1:9]]  # user nice system idle iowait irq softirq steal
    return (sum(ticks) - ticks[3] - ticks[4]) / CLK, sum(ticks) / CLK


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:  # the thread ended meanwhile
            pass
    return found


def db_backends_cpu(db_name: str | None) -> float:
    """CPU of the PostgreSQL backends serving the benchmark's database (by their process title)."""
    if not db_name:
        return 0.0
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                if db_name.encode() not in f.read():
                    continue
            total += cpu_seconds(int(entry))
        except OSError:
            continue
    return total


def redis_pid(url: str) -> int | None:
    try:
        import redis

        pid = redis.Redis.from_url(url).info("server")["process_id"]
        cpu_seconds(pid)
        return pid
    except Exception:
        return None


def server_cores(count: int, pin: str) -> list[int]:
    """The core of each server: ``--pin each``: one each, from the last; ``--pin one``: all on the last core.
    The clients (and what else the machine runs) keep the others."""
    cores = sorted(os.sched_getaffinity(0))
    if pin == "one":
        return [cores[-1]] * count
    return cores[-count:] if pin == "each" and count <= len(cores) else []


class Servers:
    def __init__(self, app: str, count: int, env: dict, tmp: Path, pin: str = ""):
        self.app, self.env, self.tmp = app, env, tmp
        self.cores = server_cores(count, pin)
        self.ports = [free_port() for _ in range(count)]
        self.processes = [self._start(k) for k in range(count)]
        for k in range(count):
            self._wait_listening(k)

    def _start(self, k: int) -> subprocess.Popen:
        port = self.ports[k]
        log = open(self.tmp / f"daphne-{port}.log", "a")
        # pinned with taskset: the server and its offering worker (a child inherits the affinity) on one core
        taskset = ["taskset", "-c", str(self.cores[k])] if self.cores else []
        return subprocess.Popen([*taskset, sys.executable, "-m", "dispatch.transport.server", "-b", "127.0.0.1", "-p", str(port),
                                 "--websocket_connect_timeout", "30", self.app],
                                cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)

    def _wait_listening(self, k: int) -> None:
        p, port = self.processes[k], self.ports[k]
        deadline = time.monotonic() + 60
        while True:
            if p.poll() is not None:
                raise RuntimeError(f"daphne exited with {p.returncode}; see {self.tmp}/daphne-{port}.log")
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    return
            if time.monotonic() > deadline:
                raise TimeoutError(port)
            time.sleep(0.02)

    def restart(self, k: int, down: float, while_down=lambda: None) -> tuple[float, float]:
        """Stop server ``k`` as a deploy does (SIGTERM), call ``while_down``, start it again on its port ``down``
        seconds after the SIGTERM (or once it exited, if later). Returns when it was told to stop and when it listened
        again (perf_counter)."""
        stopped = time.perf_counter()
        self.processes[k].terminate()
        self.processes[k].wait(timeout=60)
        while_down()
        time.sleep(max(0.0, stopped + down - time.perf_counter()))
        self.processes[k] = self._start(k)
        self._wait_listening(k)
        return stopped, time.perf_counter()

    def cpu(self) -> float:
        """CPU seconds of the Daphne processes and their children (the offering workers)."""
        return sum(cpu_seconds(pid) for p in self.processes for pid in (p.pid, *children(p.pid)))

    def stop(self):
        for p in self.processes:
            p.terminate()
        for p in self.processes:
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


# --- the load (client) -----------------------------------------------------------------------------


def pct(values, q):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q / 100 * (len(values) - 1))))]


class Refused(Exception):
    """The server answered a (re)connection with an error frame instead of the snapshot (then a policy close)."""


class Load:
    """One client process's share of the load: some cabs, or the passengers (``role``)."""

    def __init__(self, role, ports, tokens, first_index, args, echo: bool, counter, rate, back=None, refused=None,
                 suspended=frozenset()):
        self.role, self.ports, self.tokens, self.first, self.args, self.echo = role, ports, tokens, first_index, args, echo
        self.counter = counter  # shared with the coordinator: position messages sent by this process
        self.rate = rate  # shared with the coordinator: positions per cab per tick (the surge window raises it)
        self.back, self.refused = back, refused  # shared: cabs back after a dropped connection, cabs refused coming back
        self.suspended = suspended  # cab indices whose permit the coordinator suspends while their server is down
        self.cabs: list = []  # every cab connected once, with its current websocket
        self.requests: dict = {}  # ride_id -> send time (perf_counter: CLOCK_MONOTONIC, the same in every process)
        self.offers: dict = {}  # ride_id -> receive time at the driver
        self.echo_latency: list = []
        self.rtts: list = []  # (time, rtt)
        self.failed = 0
        self.errors: dict = {}
        self.escalated = 0
        self.completed = 0
        self.before_snapshot = 0  # offers read on a connection before its snapshot: must stay 0
        self.to_suspended = 0  # offers read by a suspended cab once it came back: must stay 0
        self.stopping = False
        self.rng = random.Random(1242 + first_index)

    async def _open(self, cab) -> None:
        """One connection of the cab, as the driver app makes it: the handshake, the snapshot, its status, a position."""
        from websockets.asyncio.client import connect

        ws = await connect(f"ws://127.0.0.1:{cab['port']}/ws/driver/", additional_headers={"Authorization": f"Token {cab['token']}"},
                           open_timeout=60, ping_interval=None, compression=None, max_queue=64)
        if not self.echo:
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if frame.get("type") == "snapshot":
                    break
                if frame.get("type") != "offer":
                    raise Refused(frame)
                self.before_snapshot += 1
            await ws.send('{"type":"status","status":"livre"}')
        await ws.send(json.dumps({"type": "position", "lat": cab["lat"], "lon": cab["lon"]}))
        cab["ws"] = ws

    async def connect_cab(self, i, token, sem):
        cab = {"index": i, "token": token, "port": self.ports[i % len(self.ports)], "drops": 0, "pongs": asyncio.Queue(),
               "lat": CENTRE[0] + self.rng.uniform(-SPREAD, SPREAD), "lon": CENTRE[1] + self.rng.uniform(-SPREAD, SPREAD)}
        async with sem:
            for attempt in range(3):
                try:
                    await self._open(cab)
                    break
                except Exception as exc:  # noqa: BLE001
                    err = type(exc).__name__
                    await asyncio.sleep(1 + attempt)
            else:
                self.failed += 1
                self.errors[err] = self.errors.get(err, 0) + 1
                return
        self.cabs.append(cab)
        cab["reader"] = asyncio.create_task(self.driver_session(cab))

    async def driver_session(self, cab):
        """Read the cab's frames; when its connection drops (its server restarted), reconnect with the driver app's
        back-off (driver_app.ws) until back, or until refused (a policy close: the app stops trying too)."""
        from driver_app.ws import BACKOFF_S

        while True:
            await self._read(cab)
            if self.stopping:
                return
            cab["drops"] += 1
            attempt = 0
            while True:
                await asyncio.sleep(BACKOFF_S[min(attempt, len(BACKOFF_S) - 1)] * self.rng.uniform(0.8, 1.2))
                if self.stopping:
                    return
                try:
                    await self._open(cab)
                    break
                except Refused:
                    self.refused.value += 1
                    return
                except Exception:  # noqa: BLE001 -- not up yet, or too busy: try again later
                    attempt += 1
            self.back.value += 1

    async def _read(self, cab):
        try:
            async for raw in cab["ws"]:
                if '"pong"' in raw:
                    cab["pongs"].put_nowait(time.perf_counter())
                    continue
                if '"type": "offer"' not in raw:
                    continue
                now = time.perf_counter()
                offer = json.loads(raw)["offer"]
                self.offers[offer["ride_id"]] = now
                if cab["drops"] and cab["index"] in self.suspended:
                    self.to_suspended += 1
                asyncio.create_task(self.run_trip(cab, offer))
        except Exception:  # noqa: BLE001
            pass

    async def run_trip(self, cab, offer):
        ws, ride = cab["ws"], offer["ride_id"]
        try:
            await ws.send(json.dumps({"type": "offer_accept", "offer_id": offer["id"]}))
            await asyncio.sleep(0.5)
            await ws.send(json.dumps({"type": "ride_arriving", "ride_id": ride}))
            await ws.send(json.dumps({"type": "ride_on_board", "ride_id": ride}))
            await asyncio.sleep(0.5)
            t = time.time()
            trace = [{"t": _iso(t - 1), "lat": cab["lat"], "lon": cab["lon"], "accuracy_m": 8},
                     {"t": _iso(t), "lat": cab["lat"] + 0.0005, "lon": cab["lon"], "accuracy_m": 8}]
            await ws.send(json.dumps({"type": "ride_complete", "ride_id": ride, "meter_total": "5.50", "trace": trace}))
        except Exception:  # noqa: BLE001
            pass

    async def position_loop(self, stop):
        """One task sends each of this process's cabs' position once per tick, spread evenly over the tick."""
        while not stop.is_set():
            tick = self.args.tick / self.rate.value
            cabs = list(self.cabs)
            if not cabs:
                await asyncio.sleep(0.1)
                continue
            start = time.perf_counter()
            slices = max(1, int(tick / 0.02))
            per = (len(cabs) + slices - 1) // slices
            for s in range(slices):
                sent = 0
                for cab in cabs[s * per:(s + 1) * per]:
                    cab["lat"] += self.rng.uniform(-0.0003, 0.0003)
                    cab["lon"] += self.rng.uniform(-0.0003, 0.0003)
                    try:
                        await cab["ws"].send('{"type":"position","lat":%.6f,"lon":%.6f}' % (cab["lat"], cab["lon"]))
                        sent += 1
                    except Exception:  # noqa: BLE001
                        pass
                self.counter.value += sent
                delay = start + (s + 1) * tick / slices - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                if stop.is_set():
                    return

    async def ping_loop(self, stop):
        while not stop.is_set():
            await asyncio.sleep(0.5)
            if not self.cabs:
                continue
            cab = self.rng.choice(self.cabs)
            try:
                t = time.perf_counter()
                await cab["ws"].send('{"type":"ping"}')
                got = await asyncio.wait_for(cab["pongs"].get(), 10)
                self.rtts.append((t, got - t))
            except Exception:  # noqa: BLE001
                self.rtts.append((t, 10.0))

    # Complexity kept: a benchmark passenger's scripted trip, one branch per frame it may receive.
    async def passenger(self, token, port, queue: asyncio.Queue, stop):  # noqa: C901
        from websockets.asyncio.client import connect

        ws = await connect(f"ws://127.0.0.1:{port}/ws/passenger/", origin=f"http://127.0.0.1:{port}", open_timeout=60,
                           ping_interval=None, compression=None)
        await ws.send(json.dumps({"type": "auth", "token": token}))
        if not self.echo:
            snapshot = json.loads(await asyncio.wait_for(ws.recv(), 60))
            for ride in snapshot.get("rides", []):  # left open by a restart: given up, a new request follows
                await ws.send(json.dumps({"type": "ride_cancel", "ride_id": ride["id"], "reason": "bench"}))
        try:
            while not stop.is_set():
                await queue.get()
                lat, lon = CENTRE[0] + self.rng.uniform(-SPREAD, SPREAD) * 0.8, CENTRE[1] + self.rng.uniform(-SPREAD, SPREAD) * 0.8
                t0 = time.perf_counter()
                await ws.send(json.dumps({"type": "ride_request", "pickup": {"lat": lat, "lon": lon}}))
                if self.echo:
                    await asyncio.wait_for(ws.recv(), 30)
                    self.echo_latency.append((t0, time.perf_counter() - t0))
                    continue
                ride_id = None
                while True:  # follow the ride until it is over
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 60))
                    if frame.get("type") == "error":
                        self.errors[frame.get("code")] = self.errors.get(frame.get("code"), 0) + 1
                        break
                    if frame.get("type") != "ride_update":
                        continue
                    r = frame["ride"]
                    if ride_id is None:
                        ride_id = r["id"]
                        self.requests[ride_id] = t0
                    if r["status"] == "completed":
                        self.completed += 1
                        break
                    if r["status"] == "cancelled":
                        break
                    if r.get("escalated") and r["status"] == "requested":
                        self.escalated += 1
                        await ws.send(json.dumps({"type": "ride_cancel", "ride_id": ride_id, "reason": "bench"}))
        except Exception:  # noqa: BLE001
            pass
        finally:
            ws.transport.abort()

    async def passenger_session(self, token, port, queue: asyncio.Queue, stop):
        """A passenger's connection, opened again when it drops (its server restarted) until the run stops."""
        while not stop.is_set():
            try:
                await self.passenger(token, port, queue, stop)
            except Exception:  # noqa: BLE001 -- the server is not up yet
                pass
            await asyncio.sleep(self.rng.uniform(0.8, 1.2))

    async def request_stream(self, queue: asyncio.Queue, stop):
        while not stop.is_set():
            await asyncio.sleep(self.rng.expovariate(self.args.rps))
            queue.put_nowait(1)


async def _wait(event, poll=0.05):
    while not event.is_set():
        await asyncio.sleep(poll)


async def _run_share(load: Load, go_requests, stop, report):
    """A client process's life: connect its share, then send until the coordinator says stop."""

    class _Stop:  # the coordinator's multiprocessing.Event, polled from asyncio
        is_set = staticmethod(stop.is_set)

    tasks = []
    if load.role == "cabs":
        sem = asyncio.Semaphore(max(4, load.args.connect_concurrency // max(1, load.args.client_procs)))
        tasks.append(asyncio.create_task(load.position_loop(_Stop)))
        t0 = time.perf_counter()
        await asyncio.gather(*(load.connect_cab(load.first + i, t, sem) for i, t in enumerate(load.tokens)))
        on_first = sum(cab["port"] == load.ports[0] for cab in load.cabs)  # the server a restart restarts
        report.put(("connected", len(load.cabs), load.failed, dict(load.errors), time.perf_counter() - t0, on_first))
        gc.collect()
        gc.freeze()
        tasks.append(asyncio.create_task(load.ping_loop(_Stop)))
    else:
        queue: asyncio.Queue = asyncio.Queue()
        tasks += [asyncio.create_task(load.passenger_session(tok, load.ports[i % len(load.ports)], queue, _Stop))
                  for i, tok in enumerate(load.tokens)]
        report.put(("connected", 0, 0, {}, 0.0, 0))
        await _wait(go_requests)
        tasks.append(asyncio.create_task(load.request_stream(queue, _Stop)))
    await _wait(stop)
    load.stopping = True  # a connection closed from now on is the end of the run, not a restart
    await asyncio.sleep(1.5)  # the last offers arrive
    for t in tasks:
        t.cancel()
    for cab in load.cabs:
        cab["reader"].cancel()
        cab["ws"].transport.abort()
    report.put(("done", load.role, load.offers, load.requests, load.echo_latency, load.rtts, load.completed, load.escalated,
                dict(load.errors), load.before_snapshot, load.to_suspended))


def client_process(role, ports, tokens, first_index, args, echo, counter, rate, go_requests, stop, report, avoid=(), back=None,
                   refused=None, suspended=frozenset()):
    """Entry point of a load-client process (multiprocessing, spawn)."""
    if set(avoid) and set(os.sched_getaffinity(0)) - set(avoid):
        os.sched_setaffinity(0, set(os.sched_getaffinity(0)) - set(avoid))  # --pin: off the servers' cores
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    gc.set_threshold(50_000, 50, 100)
    load = Load(role, ports, tokens, first_index, args, echo, counter, rate, back, refused, suspended)
    asyncio.run(_run_share(load, go_requests, stop, report))


def _iso(ts):
    from datetime import datetime, timezone

    return datetime.fromtimestamp(ts, timezone.utc).isoformat()


def measure(name, servers: Servers, tokens, pax, args, echo: bool, redis_url: str | None, db_name: str | None = None,
            hops_file: Path | None = None, watch=None):
    """Run the load from ``args.client_procs`` cab processes and one passenger process: the connection of every cab,
    three windows, then (``--restart``) a restart of the first server under that load. ``watch``
    (dispatch_bench_scale.Watch): begun and ended around the requests window, its figures added to the result."""
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    go_requests, stop, report = ctx.Event(), ctx.Event(), ctx.Queue()
    k = max(1, args.client_procs)
    shares = [(i * len(tokens) // k, tokens[i * len(tokens) // k:(i + 1) * len(tokens) // k]) for i in range(k)]
    counters = [ctx.Value("q", 0, lock=False) for _ in shares]
    # per cab process (each adds to its own: no lost update): cabs back after the restart, cabs refused coming back
    backs, refusals = [ctx.Value("q", 0, lock=False) for _ in shares], [ctx.Value("q", 0, lock=False) for _ in shares]
    rate = ctx.Value("d", 1.0, lock=False)
    avoid = tuple(servers.cores)
    # Cabs of the first server whose permit is suspended while it is down: refused when they come back, never offered.
    suspended = frozenset() if echo or not args.restart else frozenset(range(0, len(tokens), len(servers.ports))[:args.suspend])
    procs = [ctx.Process(target=client_process, args=("cabs", servers.ports, share, first, args, echo, counter, rate, go_requests, stop, report,
                                                      avoid, back, refused, suspended))
             for (first, share), counter, back, refused in zip(shares, counters, backs, refusals)]
    procs.append(ctx.Process(target=client_process, args=("passengers", servers.ports, pax, 0, args, echo, ctx.Value("q", 0, lock=False),
                                                           rate, go_requests, stop, report, avoid)))
    positions = lambda: sum(c.value for c in counters)  # noqa: E731
    clients_cpu = lambda: sum(cpu_seconds(p.pid) for p in procs)  # noqa: E731
    restart = None
    t0, cpu_before = time.perf_counter(), servers.cpu()
    for p in procs:
        p.start()
    try:
        connected = [report.get(timeout=3600) for _ in procs]
        connect_s = time.perf_counter() - t0
        connect_cpu = servers.cpu() - cpu_before
        cabs = sum(c[1] for c in connected)
        failed = sum(c[2] for c in connected)
        print(f"  [{name}] {cabs} cabs connected in {connect_s:.1f} s by {k} client processes ({failed} failed), "
              f"server CPU {connect_cpu / max(1, cabs) * 1000:.2f} ms a connection", flush=True)
        time.sleep(max(args.tick * 2, 5))  # warm-up: every cab has sent positions, the flush loop runs
        # window 1: positions only -> server CPU per position message
        rpid = redis_pid(redis_url) if redis_url else None
        d0 = db_backends_cpu(db_name)
        cpu0, rcpu0, pos0, w0 = servers.cpu(), cpu_seconds(rpid) if rpid else 0.0, positions(), time.perf_counter()
        time.sleep(args.duration)
        cpu1, rcpu1, pos1, w1 = servers.cpu(), cpu_seconds(rpid) if rpid else 0.0, positions(), time.perf_counter()
        d1 = db_backends_cpu(db_name)
        # surge window: positions only at --surge times the rate -> the marginal CPU per position and the
        # fixed CPU of the processes, hence their capacity when saturated (see capacity())
        rate.value = args.surge
        time.sleep(args.tick)
        s0, sp0, sw0 = servers.cpu(), positions(), time.perf_counter()
        time.sleep(args.duration)
        s1, sp1, sw1 = servers.cpu(), positions(), time.perf_counter()
        rate.value = 1.0
        time.sleep(args.tick)
        # window 2: positions + the stream of ride requests -> request->offer latency, after a few requests
        # of warm-up (each process's first offers open the offer threads' database connections)
        go_requests.set()
        time.sleep(REQUEST_WARMUP_S)
        c2, p2, t2 = servers.cpu(), positions(), time.perf_counter()
        m2, l2 = machine_cpu(), clients_cpu()
        if watch:
            watch.begin()
        time.sleep(args.requests_window or args.duration)
        c3, p3, t3 = servers.cpu(), positions(), time.perf_counter()
        m3, l3 = machine_cpu(), clients_cpu()
        watched = watch.end() if watch else {}
        if args.restart:
            restart = restart_under_load(servers, args.down, sum(c[5] for c in connected), backs, refusals,
                                         [tokens[i] for i in sorted(suspended)])
            print(f"  [{name}] restart: {restart['back']} cabs back {restart['back_s']:.1f} s after the server listened again "
                  f"({restart['down_s']:.1f} s down), {restart['refused']} refused", flush=True)
            time.sleep(REQUEST_WARMUP_S)  # requests go on: offers reach the cabs that came back (and not the refused)
        stop.set()
        results = [report.get(timeout=120) for _ in procs]
    finally:
        stop.set()
        for p in procs:
            p.join(timeout=30)
            if p.is_alive():
                p.kill()
    offers, requests, echo_latency, rtts, completed, escalated, errors = {}, {}, [], [], 0, 0, {}
    before_snapshot = to_suspended = 0
    for _tag, _role, o, r, e, rt, done, esc, errs, early, wrong in results:
        before_snapshot += early
        to_suspended += wrong
        offers.update(o)
        requests.update(r)
        echo_latency += e
        rtts += rt
        completed += done
        escalated += esc
        for key, n in errs.items():
            errors[key] = errors.get(key, 0) + n
    lat = [d for t, d in echo_latency if t2 <= t < t3] if echo else [offers[r] - t for r, t in requests.items() if r in offers and t2 <= t < t3]
    if restart:
        restart.update(suspended=len(suspended), before_snapshot=before_snapshot, to_suspended=to_suspended,
                       offers=sum(1 for at in offers.values() if at >= restart["stopped"]))
    quiet_rtts = [rtt for at, rtt in rtts if w0 <= at < w1]
    busy_rtts = [rtt for at, rtt in rtts if t2 <= at < t3]
    window = w1 - w0
    msgs = pos1 - pos0
    return {
        "name": name, "processes": len(servers.processes), "cabs": cabs, "connect_s": connect_s, "restart": restart,
        "connect_cpu_ms": connect_cpu / max(1, cabs) * 1000,
        "pos_per_s": msgs / window, "cpu_util": (cpu1 - cpu0) / window, "cpu_per_pos_us": (cpu1 - cpu0) / max(1, msgs) * 1e6,
        "redis_cpu_util": (rcpu1 - rcpu0) / window if rpid else None,
        "surge_pos_per_s": (sp1 - sp0) / (sw1 - sw0), "surge_cpu_util": (s1 - s0) / (sw1 - sw0),
        "db_cpu_per_pos_us": (d1 - d0) / max(1, msgs) * 1e6 if db_name else None,
        "requests": len(lat), "p50_ms": pct(lat, 50) * 1000, "p90_ms": pct(lat, 90) * 1000, "p99_ms": pct(lat, 99) * 1000,
        "rtt_p50_ms": pct(busy_rtts, 50) * 1000, "rtt_p99_ms": pct(busy_rtts, 99) * 1000,
        "quiet_rtt_p99_ms": pct(quiet_rtts, 99) * 1000, "cpu_util_rides": (c3 - c2) / (t3 - t2), "pos_per_s_rides": (p3 - p2) / (t3 - t2),
        "completed": completed, "escalated": escalated, "errors": errors,
        # the requests window: how busy the machine's cores were, and the share the load's clients took of it
        "machine_busy": (m3[0] - m2[0]) / (m3[1] - m2[1]), "clients_cpu_util": (l3 - l2) / (t3 - t2),
        "hops": hop_times(hops_file, requests, offers, t2, t3) if hops_file and not echo else [],
        **watched,
    }


def restart_under_load(servers: Servers, down: float, cabs: int, backs, refusals, suspend: list[str]) -> dict:
    """Restart the first server (SIGTERM, then a new process on its port) while positions and requests go on; suspend
    the permits of the ``suspend`` tokens while it is down (DIMUTRAN acting during the outage). Its ``cabs`` reconnect
    as the driver app does; returns when every one is back or refused (or after ten minutes)."""
    from django.db import connections

    def suspend_permits():
        if suspend:
            suspend_permits_of(suspend)
            connections.close_all()

    stopped, listening = servers.restart(0, down, suspend_permits)
    cpu_listening = servers.cpu()
    back = lambda: sum(v.value for v in backs)  # noqa: E731
    refused = lambda: sum(v.value for v in refusals)  # noqa: E731
    deadline = listening + 600
    while back() + refused() < cabs and time.perf_counter() < deadline:
        time.sleep(0.05)
    done = time.perf_counter()
    return {"stopped": stopped, "down_s": listening - stopped, "back_s": done - listening, "back": back(),
            "refused": refused(), "expected": cabs, "cpu_ms": (servers.cpu() - cpu_listening) / max(1, back()) * 1000}


HOPS = (("send", "consumer", "passenger client sends -> consumer handles the frame"),
        ("consumer", "worker", "-> the offering worker starts"),
        ("worker", "chosen", "the worker chooses and writes (request_ride)"),
        ("chosen", "loop", "-> result back on the event loop"),
        ("loop", "outbox", "-> the outbox sends the offer"),
        ("outbox", "relay", "-> the cab's consumer relays it"),
        ("relay", "sent", "-> sent"),
        ("sent", "read", "-> the cab's client reads it"))


def hop_times(path: Path, requests: dict, offers: dict, since: float, until: float) -> list[tuple[str, float, float, float, int]]:
    """Per hop of the measured requests (sent between ``since`` and ``until``): label, p50, p90, p99 (ms), count;
    from the server's marks (dispatch/ops/latency_trace.py) and the clients' send and read times."""
    marks: dict = {}
    if path.exists():
        for line in path.read_text().splitlines():
            ride, hop, at = line.split()
            marks.setdefault(ride, {})[hop] = float(at)
    for ride, t in requests.items():
        if since <= t < until and ride in offers:
            marks.setdefault(str(ride), {}).update(send=t, read=offers[ride])
    rows = []
    for start, end, label in HOPS:
        spans = [m[end] - m[start] for ride, m in marks.items() if start in m and end in m and since <= m.get("send", 0) < until]
        rows.append((label, pct(spans, 50) * 1000, pct(spans, 90) * 1000, pct(spans, 99) * 1000, len(spans)))
    return rows


SATURATED = 0.9  # a process at this share of its core or more in the surge window is taken as saturated


def linear_capacity(r) -> float:
    """Positions/s at 100% CPU in every process if each position cost the CPU per position measured."""
    return r["processes"] * 1e6 / r["cpu_per_pos_us"]


def capacity(r) -> tuple[float, float, float]:
    """Fixed CPU (cores), marginal CPU per position (s) and positions/s when every process is at 100%.

    From the two positions-only windows (normal and surge rate): CPU = fixed + marginal x rate. The
    processes share the load evenly, so they saturate together at (processes - fixed) / marginal. The
    linear estimate (processes / CPU per position) charges the fixed work to every position instead.
    """
    marginal = (r["surge_cpu_util"] - r["cpu_util"]) / max(1e-9, r["surge_pos_per_s"] - r["pos_per_s"])
    fixed = r["cpu_util"] - marginal * r["pos_per_s"]
    return fixed, marginal, (r["processes"] - fixed) / marginal


# Complexity kept: prints one optional section per measurement the run made.
def print_table(rows, args):  # noqa: C901
    head = ("scenario", "proc", "cabs", "conn s", "pos/s", "srv CPU", "CPU/pos us", "+DB CPU/pos us", "ping p99 ms", "req", "offer p50 ms", "offer p90 ms",
            "offer p99 ms", "ping p99 ms (req.)", "srv CPU (req.)", "done", "escal.")
    lines = [head]
    for r in rows:
        cpu = f"{r['cpu_util'] * 100:.0f}%" + (f" +redis {r['redis_cpu_util'] * 100:.0f}%" if r["redis_cpu_util"] is not None else "")
        lines.append((r["name"], r["processes"], r["cabs"], f"{r['connect_s']:.0f}", f"{r['pos_per_s']:.0f}", cpu,
                      f"{r['cpu_per_pos_us']:.0f}", "-" if r["db_cpu_per_pos_us"] is None else f"{r['db_cpu_per_pos_us']:.0f}",
                      f"{r['quiet_rtt_p99_ms']:.1f}", r["requests"], f"{r['p50_ms']:.1f}", f"{r['p90_ms']:.1f}",
                      f"{r['p99_ms']:.1f}", f"{r['rtt_p99_ms']:.1f}", f"{r['cpu_util_rides'] * 100:.0f}%", r["completed"],
                      r["escalated"]))
    widths = [max(len(str(line[i])) for line in lines) for i in range(len(head))]
    out = []
    for k, line in enumerate(lines):
        out.append("| " + " | ".join(str(v).ljust(w) for v, w in zip(line, widths)) + " |")
        if k == 0:
            out.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    print("\n".join(out))
    by = {r["name"]: r for r in rows}
    echo = by.get("echo")
    print()
    for r in rows:
        if r["name"] == "echo":
            continue
        notes = []
        if echo:
            notes.append(f"CPU/position = {r['cpu_per_pos_us'] / echo['cpu_per_pos_us']:.2f}x echo")
            notes.append(f"connecting {r['connect_s'] / echo['connect_s']:.2f}x echo's time "
                         f"({r['connect_cpu_ms']:.2f} against {echo['connect_cpu_ms']:.2f} ms of server CPU a connection)")
        fixed, marginal, saturated = capacity(r)
        notes.append(f"linear capacity at 100% CPU ~ {linear_capacity(r):.0f} positions/s; "
                     f"fixed {fixed * 100:.1f}% + {marginal * 1e6:.0f} us/position (x{args.surge:g} surge) -> "
                     f"saturated ~ {saturated:.0f} positions/s (~{saturated * args.tick:.0f} cabs)")
        per_process = r["surge_cpu_util"] / r["processes"]
        measured = "measured: saturated" if per_process >= SATURATED else "not saturated"
        notes.append(f"surge window {r['surge_pos_per_s']:.0f} positions/s at {per_process * 100:.0f}% of each process's core "
                     f"({measured})")
        print(f"  {r['name']}: " + "; ".join(notes))
    for r in rows:
        if r["restart"]:
            print_restart(r, echo)
    print()
    for r in rows:
        print(f"  [{r['name']}] requests window: the machine's {os.cpu_count()} cores {r['machine_busy']:.0%} busy; "
              f"the load's clients {r['clients_cpu_util']:.0%} of a core, the servers {r['cpu_util_rides']:.0%}")
    for r in rows:
        if r["hops"]:
            print(f"\n  [{r['name']}] where a request's time goes (ms):")
            print(f"    {'hop':<52} {'p50':>7} {'p90':>7} {'p99':>7} {'n':>5}")
            for label, p50, p90, p99, n in r["hops"]:
                print(f"    {label:<52} {p50:7.1f} {p90:7.1f} {p99:7.1f} {n:5d}")
    if "memory" in by:
        for other in ("redis", "pubsub"):
            if other in by:
                print(f"  {other} (2 processes) / memory (1 process): saturated capacity "
                      f"{capacity(by[other])[2] / capacity(by['memory'])[2]:.2f}x, "
                      f"linear {linear_capacity(by[other]) / linear_capacity(by['memory']):.2f}x, "
                      f"surge windows {by[other]['surge_pos_per_s'] / by['memory']['surge_pos_per_s']:.2f}x the positions "
                      f"for {by[other]['surge_cpu_util'] / max(1e-9, by['memory']['surge_cpu_util']):.2f}x the CPU")
                if args.pin == "one":
                    one, pair = by["memory"], by[other]
                    both = min(one["surge_cpu_util"], pair["surge_cpu_util"]) >= SATURATED
                    print(f"  one core ({'both measured saturated' if both else 'NOT both saturated: no ratio'}): memory "
                          f"{one['surge_pos_per_s']:.0f} positions/s at {one['surge_cpu_util'] * 100:.0f}%, {other} pair "
                          f"{pair['surge_pos_per_s']:.0f} positions/s at {pair['surge_cpu_util'] * 100:.0f}%"
                          + (f"; two processes with a core each >= 2 x {pair['surge_pos_per_s']:.0f} = "
                             f"{2 * pair['surge_pos_per_s'] / one['surge_pos_per_s']:.2f}x one process (a lower bound: each "
                             f"then pays only its own fixed work)" if both else ""))
        if "naive" in by:
            print(f"  naive / memory: CPU/position {by['naive']['cpu_per_pos_us'] / by['memory']['cpu_per_pos_us']:.2f}x, "
                  f"offer p99 {by['naive']['p99_ms'] / by['memory']['p99_ms']:.2f}x")


def print_restart(r: dict, echo: dict | None) -> None:
    """A restart under load: how long its cabs took to come back, and whether any got an offer before the server
    knew it may work (the suspended ones are refused; no connection hears an offer before its snapshot)."""
    x = r["restart"]
    line = (f"  [{r['name']}] restart of a loaded process: {x['back']} of {x['expected']} cabs back {x['back_s']:.1f} s after it "
            f"listened again ({x['down_s']:.1f} s down; {x['cpu_ms']:.2f} ms of server CPU a connection)")
    if echo and echo["restart"] and r is not echo and x["expected"] == echo["restart"]["expected"]:  # as many cabs
        line += f", {x['back_s'] / echo['restart']['back_s']:.2f}x echo's {echo['restart']['back_s']:.1f} s"
    print(line)
    if r is not echo:
        print(f"    compliance before offers: {x['suspended']} permits suspended while it was down, {x['refused']} refused coming "
              f"back, {x['to_suspended']} offers to them; {x['before_snapshot']} offers before a connection's snapshot; "
              f"{x['offers']} offers made during and after the restart")


def print_search(r: dict) -> None:
    print(f"  [search] {r['cabs']} free cabs: grid search p50 {r['search_ms']:.2f} ms (p99 {r['search_p99_ms']:.2f}), "
          f"naive scan p50 {r['naive_ms']:.0f} ms: {r['naive_ms'] / r['search_ms']:.0f}x; "
          f"same 8 nearest in {r['same']}/{r['compared']}", flush=True)


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
