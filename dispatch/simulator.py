"""A simulated Muriaé: cabs and passengers driven through the REAL websocket protocol (docs/dispatch-protocol.md).

Two halves:

* :func:`prepare` (:mod:`dispatch.simulator_world`: synchronous, Django ORM, run
  once by ``manage.py simulate``) picks the permits whose driver the registry
  allows to work now, gives those drivers a login and a token, and returns a
  plain :class:`World`.
* :func:`run` (asyncio, no ORM) connects each cab to ``/ws/driver/`` with
  ``Authorization: Token``, goes ``livre``, moves along a random walk near the
  centre (one position every ``tick`` seconds), checks in at ranks, accepts most
  offers and declines some, runs the trip (arriving, on_board, complete with the
  trace and the total of a :class:`taxilaw.meter.Meter` on the demo tariff), and
  lets passengers request rides on ``/ws/passenger/``. It reconnects when the
  server is not up yet or goes away, and runs until cancelled (or ``duration``).
  Every frame it sends is built through :mod:`taxiwire.inbound`, as the driver
  app's are.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import random
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from urllib.parse import urlparse

from taxiwire import inbound

from .simulator_world import CENTRE, RESERVED_USERS, SIM_USER_PREFIX, World, prepare  # noqa: F401  (the command's)

log = logging.getLogger("dispatch.simulator")

RADIUS_DEG = 0.02  # ~2.2 km: cabs wander inside the town, well inside the municipality


# --- the simulation (asyncio, websockets) ------------------------------------------------------------


@dataclass
class Stats:
    connected: int = 0
    positions: int = 0
    requests: int = 0
    offers: int = 0
    accepted: int = 0
    declined: int = 0
    completed: int = 0
    escalated: int = 0
    cancelled: int = 0
    rank_check_ins: int = 0
    errors: dict = field(default_factory=dict)

    def line(self) -> str:
        return (f"táxis conectados {self.connected} | posições {self.positions} | pedidos {self.requests} | ofertas {self.offers} "
                f"(aceitas {self.accepted}, recusadas {self.declined}) | concluídas {self.completed} | sem táxi {self.escalated} "
                f"| canceladas {self.cancelled} | entradas em pontos {self.rank_check_ins} | erros {self.errors or 0}")


@dataclass
class Config:
    url: str = "ws://127.0.0.1:8000"
    tick: float = 5.0  # seconds between two positions of a cab
    rides_per_minute: float = 6.0
    accept_ratio: float = 0.85
    rank_ratio: float = 0.25  # chance that a free cab heads to a rank
    speed_kmh: float = 30.0
    trip_steps: tuple[int, int] = (8, 30)
    approach_steps: tuple[int, int] = (2, 8)
    seed: int | None = None

    @property
    def origin(self) -> str:
        u = urlparse(self.url)
        return f"{'https' if u.scheme == 'wss' else 'http'}://{u.netloc}"


def _iso(ts: float | None = None) -> str:
    return datetime.fromtimestamp(ts or time.time(), timezone.utc).isoformat()


def _step_towards(lat, lon, target, metres):
    dlat, dlon = target[0] - lat, target[1] - lon
    dist = math.hypot(dlat * 111_000, dlon * 104_000)
    if dist <= metres or dist == 0:
        return target
    f = metres / dist
    return lat + dlat * f, lon + dlon * f


def _random_point(rng: random.Random, radius=RADIUS_DEG):
    r, a = radius * math.sqrt(rng.random()), rng.random() * 2 * math.pi
    return CENTRE[0] + r * math.sin(a), CENTRE[1] + r * math.cos(a)


def _clamp(lat, lon):
    dlat, dlon = lat - CENTRE[0], lon - CENTRE[1]
    d = math.hypot(dlat, dlon)
    if d <= RADIUS_DEG:
        return lat, lon
    return CENTRE[0] + dlat * RADIUS_DEG / d * 0.95, CENTRE[1] + dlon * RADIUS_DEG / d * 0.95


class SimCab:
    def __init__(self, spec: dict, world: World, cfg: Config, stats: Stats, rng: random.Random):
        self.spec, self.world, self.cfg, self.stats, self.rng = spec, world, cfg, stats, rng
        self.lat, self.lon = _random_point(rng)
        self.heading = rng.random() * 2 * math.pi
        self.ws = None
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.at_rank: int | None = None
        self.rank_target: dict | None = None
        self.stashed_offers: list[dict] = []  # offers that came while waiting for another answer

    @property
    def step_m(self) -> float:
        return self.cfg.speed_kmh / 3.6 * self.cfg.tick

    async def send(self, frame: dict):
        await self.ws.send(json.dumps(frame))

    async def position(self):
        await self.send(inbound.POSITION(lat=round(self.lat, 6), lon=round(self.lon, 6), accuracy=8))
        self.stats.positions += 1

    def wander(self):
        if self.at_rank is not None:
            return
        if self.rank_target is not None:
            self.lat, self.lon = _step_towards(self.lat, self.lon, (self.rank_target["lat"], self.rank_target["lon"]), self.step_m)
            return
        self.heading += self.rng.gauss(0, 0.6)
        d = self.step_m / 111_000
        self.lat, self.lon = _clamp(self.lat + d * math.sin(self.heading), self.lon + d * math.cos(self.heading) * 1.07)

    async def run(self):
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidStatus

        backoff = 1.0
        while True:
            try:
                async with connect(self.cfg.url.rstrip("/") + "/ws/driver/", open_timeout=15,
                                   additional_headers={"Authorization": f"Token {self.spec['token']}"}) as ws:
                    self.ws, backoff = ws, 1.0
                    self.stats.connected += 1
                    try:
                        await self.session()
                    finally:
                        self.stats.connected -= 1
            except asyncio.CancelledError:
                raise
            except InvalidStatus as exc:
                log.debug("cab %s refused: %s", self.spec["permit"], exc)
            except (OSError, ConnectionClosed, asyncio.TimeoutError) as exc:
                log.debug("cab %s disconnected: %r", self.spec["permit"], exc)
            except _Refused as exc:
                log.warning("táxi %s não pode trabalhar: %s; desistindo", self.spec["permit"], exc)
                return
            self.at_rank = None
            await asyncio.sleep(backoff + self.rng.random())
            backoff = min(backoff * 2, 30)

    async def reader(self):
        async for raw in self.ws:
            await self.inbox.put(json.loads(raw))

    async def next(self, kinds: set[str], timeout: float | None = None) -> dict | None:
        """The next frame of one of ``kinds`` (others are handled or dropped); None on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                frame = await asyncio.wait_for(self.inbox.get(), left)
            except asyncio.TimeoutError:
                return None
            kind = frame.get("type")
            if kind == "error":
                code = frame.get("code", "?")
                self.stats.errors[code] = self.stats.errors.get(code, 0) + 1
                if code in ("not_allowed", "no_permit"):
                    raise _Refused(frame.get("message"))
            if kind == "suspended":
                raise _Refused(str(frame.get("reasons")))
            if kind in kinds:
                return frame
            if kind == "offer":
                self.stashed_offers.append(frame)
            elif kind == "offer_closed":
                self.stashed_offers = [o for o in self.stashed_offers if o["offer"]["id"] != frame.get("offer_id")]

    async def session(self):
        reading = asyncio.create_task(self.reader())
        try:
            snapshot = await self.next({"snapshot"}, timeout=15)
            if snapshot is None:
                return
            if snapshot.get("ride"):  # a trip left open by an earlier run: finish it
                ride = snapshot["ride"]
                await self.trip(ride["id"], ride["status"])
            await self.send(inbound.STATUS(status="livre"))
            await self.next({"status"}, timeout=10)
            await self.position()
            while not reading.done():
                offer = self.stashed_offers.pop(0) if self.stashed_offers else await self.next({"offer"}, timeout=self.cfg.tick * (0.8 + 0.4 * self.rng.random()))
                if offer is not None:
                    await self.answer(offer["offer"])
                    continue
                self.wander()
                await self.position()
                await self.maybe_rank()
        finally:
            reading.cancel()

    async def maybe_rank(self):
        ranks = self.world.ranks
        if not ranks:
            return
        if self.at_rank is not None:
            if self.rng.random() < 0.02:  # tired of waiting: leave the rank
                await self.send(inbound.RANK_CHECK_OUT())
                self.at_rank = None
            return
        if self.rank_target is None:
            if self.rng.random() < self.cfg.rank_ratio * 0.05:
                self.rank_target = self.rng.choice(ranks)
            return
        if (self.lat, self.lon) == (self.rank_target["lat"], self.rank_target["lon"]):
            await self.send(inbound.RANK_CHECK_IN(rank_id=self.rank_target["id"]))
            answer = await self.next({"rank_checked_in", "error"}, timeout=10)
            if answer and answer["type"] == "rank_checked_in":
                self.at_rank = self.rank_target["id"]
                self.stats.rank_check_ins += 1
            self.rank_target = None

    async def answer(self, offer: dict):
        self.stats.offers += 1
        await asyncio.sleep(min(3.0, self.cfg.tick * 0.3) * self.rng.random())  # the driver reads the screen
        if self.rng.random() > self.cfg.accept_ratio:
            await self.send(inbound.OFFER_DECLINE(offer_id=offer["id"]))
            self.stats.declined += 1
            return
        await self.send(inbound.OFFER_ACCEPT(offer_id=offer["id"]))
        answer = await self.next({"offer_accepted", "error"}, timeout=15)
        if not answer or answer["type"] != "offer_accepted":
            return
        self.stats.accepted += 1
        self.at_rank, self.rank_target = None, None  # accepting checks the cab out of its rank
        pickup = offer.get("pickup") or {}
        await self.trip(answer["ride_id"], "accepted", (pickup.get("lat", self.lat), pickup.get("lon", self.lon)))

    async def trip(self, ride_id: int, status: str, pickup=None):
        from taxilaw.meter import Meter
        from taxilaw.meter_data import Fix
        from taxilaw.tariffs import MURIAE_DEMO_TARIFF

        if status in ("accepted", "arriving"):
            pickup = pickup or (self.lat, self.lon)
            for _ in range(self.rng.randint(*self.cfg.approach_steps)):
                self.lat, self.lon = _step_towards(self.lat, self.lon, pickup, self.step_m)
                await self.position()
                if await self.cancelled(ride_id, self.cfg.tick):
                    return
            self.lat, self.lon = pickup  # the approach is shortened, not skipped: "Cheguei" needs the cab there
            await self.position()
            await self.send(inbound.RIDE_ARRIVING(ride_id=ride_id))
            if await self.cancelled(ride_id, self.cfg.tick):
                return
            await self.send(inbound.RIDE_ON_BOARD(ride_id=ride_id))
        elif status != "on_board":
            return
        meter = Meter(MURIAE_DEMO_TARIFF)
        now = datetime.now(timezone.utc)
        meter.start(now)
        trace = []
        destination = _random_point(self.rng)
        for _ in range(self.rng.randint(*self.cfg.trip_steps)):
            await asyncio.sleep(self.cfg.tick)
            self.lat, self.lon = _step_towards(self.lat, self.lon, destination, self.step_m)
            fix = Fix(datetime.now(timezone.utc), round(self.lat, 6), round(self.lon, 6), 8.0)
            meter.feed(fix)
            trace.append({"t": fix.t.isoformat(), "lat": fix.lat, "lon": fix.lon, "accuracy_m": 8})
            await self.position()
        reading = meter.stop(datetime.now(timezone.utc))
        await self.send(inbound.RIDE_COMPLETE(ride_id=ride_id, meter_total=f"{reading.total:.2f}", trace=trace))
        self.stats.completed += 1

    async def cancelled(self, ride_id: int, wait: float) -> bool:
        frame = await self.next({"ride_cancelled"}, timeout=wait)
        if frame and frame.get("ride_id") == ride_id:
            self.stats.cancelled += 1
            return True
        return False


class _Refused(Exception):
    pass


# Complexity kept: one passenger's scripted trip: each branch is a frame the protocol may send, in the order a trip meets them.
async def passenger_trip(spec: dict, cfg: Config, stats: Stats, rng: random.Random, busy: set):  # noqa: C901
    """One passenger asks for a ride and follows it until it ends (cancels if nobody takes it)."""
    from websockets.asyncio.client import connect

    busy.add(spec["token"])
    try:
        async with connect(cfg.url.rstrip("/") + "/ws/passenger/", origin=cfg.origin, open_timeout=15) as ws:
            await ws.send(json.dumps(inbound.AUTH(token=spec["token"])))
            pickup, destination = _random_point(rng, RADIUS_DEG * 0.8), _random_point(rng)
            ride_id, requested = None, False
            deadline = time.monotonic() + max(120.0, cfg.tick * 60)
            while time.monotonic() < deadline:
                try:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), deadline - time.monotonic()))
                except asyncio.TimeoutError:
                    break
                kind = frame.get("type")
                if kind == "snapshot" and not requested:
                    open_rides = [r for r in frame["rides"] if r["status"] not in ("completed", "cancelled")]
                    if open_rides:  # left open by an earlier run
                        ride_id = open_rides[0]["id"]
                        await ws.send(json.dumps(inbound.RIDE_CANCEL(ride_id=ride_id, reason="simulação reiniciada")))
                        return
                    await ws.send(json.dumps(inbound.RIDE_REQUEST(
                        pickup={"lat": pickup[0], "lon": pickup[1], "address": "simulação"},
                        destination={"lat": destination[0], "lon": destination[1]})))
                    requested = True
                    stats.requests += 1
                elif kind == "ride_update":
                    ride = frame["ride"]
                    ride_id = ride_id or ride["id"]
                    if ride["status"] in ("completed", "cancelled"):
                        return
                    if ride.get("escalated") and ride["status"] == "requested":
                        stats.escalated += 1
                        await ws.send(json.dumps(inbound.RIDE_CANCEL(ride_id=ride["id"], reason="nenhum táxi")))
                        return
                elif kind == "error":
                    stats.errors[frame.get("code", "?")] = stats.errors.get(frame.get("code", "?"), 0) + 1
                    if not requested or frame.get("code") in ("ride_open", "bad_token"):
                        return
            if ride_id:
                await ws.send(json.dumps(inbound.RIDE_CANCEL(ride_id=ride_id, reason="desistiu")))
    except (OSError, asyncio.TimeoutError) as exc:
        log.debug("passenger could not connect: %r", exc)
    except Exception as exc:  # a closed connection and the like: the next passenger tries again
        log.debug("passenger trip ended: %r", exc)
    finally:
        busy.discard(spec["token"])


async def passengers(world: World, cfg: Config, stats: Stats, rng: random.Random):
    """Ride requests as a Poisson stream of ``rides_per_minute``."""
    if cfg.rides_per_minute <= 0 or not world.passengers:
        return
    busy: set = set()
    tasks: set = set()
    await asyncio.sleep(min(3 * cfg.tick, 10))  # let the cabs appear first
    while True:
        await asyncio.sleep(rng.expovariate(cfg.rides_per_minute / 60.0))
        free = [p for p in world.passengers if p["token"] not in busy]
        if free:
            task = asyncio.create_task(passenger_trip(rng.choice(free), cfg, stats, rng, busy))
            tasks.add(task)
            task.add_done_callback(tasks.discard)


async def run(world: World, cfg: Config, duration: float | None = None, report_every: float = 30.0, stats: Stats | None = None,
              echo=print) -> Stats:
    stats = stats or Stats()
    rng = random.Random(cfg.seed)
    cabs = [SimCab(spec, world, cfg, stats, random.Random(rng.random())) for spec in world.cabs]
    tasks = []
    for cab in cabs:  # stagger the connections
        tasks.append(asyncio.create_task(cab.run()))
        await asyncio.sleep(min(0.05, cfg.tick / max(1, len(cabs))))
    tasks.append(asyncio.create_task(passengers(world, cfg, stats, rng)))

    async def reporter():
        while True:
            await asyncio.sleep(report_every)
            echo(stats.line())

    tasks.append(asyncio.create_task(reporter()))
    try:
        if duration:
            await asyncio.sleep(duration)
        else:
            await asyncio.Event().wait()
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return stats
