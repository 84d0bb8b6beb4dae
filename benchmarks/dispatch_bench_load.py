"""The client load of benchmarks/dispatch_bench.py: one client process's share of the cabs' websockets (positions,
offers accepted, trips run, reconnections with the driver app's back-off) or the passengers' Poisson requests."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
import resource
import time

from benchmarks.dispatch_bench_fleet import CENTRE, SPREAD

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
