"""One driver floods a serving process with 1 MB trace frames while other cabs send positions and pings.

Shared by tests/e2e/test_flood.py (a generous bound) and benchmarks/flood_bench.py (the figures). The flooder
sends as fast as the rate limit allows (``wire.LIMITS``, mirrored here with a margin so that it is never closed):
frames of 10,000 fixes, alternately a ``ride_complete`` for a ride that is not its cab's (the attack the issue
measured) and a valid ``street_trip_complete`` (what a legitimate 5.5-hour trip costs, read in full every time).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from datetime import datetime, timedelta, timezone

from dispatch import wire

from .client import Client, driver

E2E_WORLD_CABS = 5  # the flooder and 4 cabs, each with SOCKETS_PER_CAB sockets (building 100 permits takes minutes)
SOCKETS_PER_CAB = 25  # a driver's second socket is accepted (a phone reconnecting): 100 sockets sending positions
PING_EVERY_S = 0.5
MARGIN = 0.9  # the flooder spends at most this share of its budget


def trace_frames(centre: tuple[float, float]) -> list[str]:
    """Two frames of ~1 MB: a ride_complete for a ride id that is not the flooder's, and a valid street trip."""
    start = datetime.now(timezone.utc) - timedelta(hours=6)
    trace = [{"t": (start + timedelta(seconds=2 * i)).isoformat(), "lat": centre[0] - i * 1e-6, "lon": centre[1],
              "accuracy_m": 5.0} for i in range(10000)]
    attack = {"type": "ride_complete", "ride_id": 987654, "meter_total": "45.30", "trace": trace}
    trip = {"type": "street_trip_complete", "trip_id": str(uuid.uuid4()), "started_at": trace[0]["t"],
            "meter_total": "45.30", "trace": trace}
    return [json.dumps(attack), json.dumps(trip)]


class Bucket:
    """The server's token bucket as the flooder counts it (``MARGIN`` of the rate and of the burst)."""

    def __init__(self, budget: wire.Budget):
        self.burst, self.rate = budget.burst * MARGIN, budget.per_second * MARGIN
        self.tokens, self.last = self.burst, time.monotonic()

    def wait_for(self, cost: float) -> float:
        now = time.monotonic()
        self.tokens, self.last = min(self.burst, self.tokens + (now - self.last) * self.rate), now
        return max(0.0, (cost - self.tokens) / self.rate)

    def spend(self, cost: float) -> None:
        self.tokens -= cost


async def flood(client: Client, frames: list[str], until: float) -> int:
    """Send the frames in turn as fast as the budget allows until ``until``; returns how many were sent."""
    chars = Bucket(wire.LIMITS["driver"].chars)
    sent = 0
    while time.monotonic() < until:
        frame = frames[sent % len(frames)]
        delay = chars.wait_for(len(frame))
        if delay:
            await asyncio.sleep(min(delay, max(0.0, until - time.monotonic())))
            continue
        chars.spend(len(frame))
        await client.ws.send(frame)
        sent += 1
    return sent


async def drain(client: Client) -> None:
    """Read and drop what the flooder is answered (its socket must not back up)."""
    async for _raw in client.ws:
        pass


async def ping_loop(client: Client, lat: float, lon: float, until: float, rtts: list[float]) -> None:
    """A cab that sends its position and a ping every ``PING_EVERY_S``, recording each pong's round trip."""
    await asyncio.sleep(random.uniform(0, PING_EVERY_S))  # a duration, not a wait: the pings' phases spread
    while time.monotonic() < until:
        await client.send(type="position", lat=lat + random.uniform(-0.01, 0.01), lon=lon + random.uniform(-0.01, 0.01))
        sent = time.perf_counter()
        await client.send(type="ping")
        await client.recv_until("pong", timeout=30)
        rtts.append(time.perf_counter() - sent)
        client.seen.clear()
        await asyncio.sleep(PING_EVERY_S)


async def connect_cabs(port: int, tokens: list[str]) -> list[Client]:
    """``SOCKETS_PER_CAB`` sockets for each token."""
    cabs = []
    for token in tokens * SOCKETS_PER_CAB:  # one at a time: a storm of handshakes is not what is measured
        cab = await driver(port, token)
        await cab.recv_until("snapshot")
        cabs.append(cab)
    return cabs


async def measure(port: int, cabs: list[Client], centre, seconds: float, flooder: Client | None = None) -> dict:
    """Ping round trips of ``cabs`` over ``seconds``, with ``flooder`` sending trace frames meanwhile (if given)."""
    until = time.monotonic() + seconds
    rtts: list[float] = []
    tasks = [asyncio.create_task(ping_loop(c, *centre, until, rtts)) for c in cabs]
    sent = 0
    if flooder is not None:
        reader = asyncio.create_task(drain(flooder))
        sent = await flood(flooder, trace_frames(centre), until)
        reader.cancel()
    await asyncio.gather(*tasks)
    return {"pings": len(rtts), "p50_ms": percentile(rtts, 50) * 1000, "p99_ms": percentile(rtts, 99) * 1000,
            "max_ms": max(rtts) * 1000, "frames": sent}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]
