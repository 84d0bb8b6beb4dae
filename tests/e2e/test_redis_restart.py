"""Redis dies or forgets (issue 34): the sockets are closed with 4503, reconnect once Redis answers, and are brought
back by their snapshots: within 20 s the cabs are online and get offers, and the passenger and the operators hear
their ride again.

The platform's channel layer and cache are a private ``redis-server`` (never the shared one), which each test
kills and restarts, or flushes (a restart between two reads of a process: no read fails, the memberships are
gone all the same, and ``dispatch.transport.layer_watch`` notices the missing marker).
"""

from __future__ import annotations

import asyncio
import subprocess
import time

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from dispatch.transport.layer_watch import LAYER_LOST
from tests.private_redis import PrivateRedis

from .client import driver, flushed, free_at, operator, passenger
from .conftest import Platform

pytestmark = pytest.mark.e2e
RECOVERY_SECONDS = 20


@pytest.fixture
def on_private_redis(tmp_path):
    redis = PrivateRedis()
    redis.start()
    p = Platform(tmp_path)
    p.env["REDIS_URL"] = redis.url
    try:
        p.prepare()
        p.start(1)
        yield p, redis
    finally:
        p.stop()
        redis.kill()


async def _again(opener, deadline: float):
    """Open a connection as the apps do after a close: again and again (their backoff, shortened) until one gets its
    snapshot."""
    while True:
        try:
            client = await opener()
            if not any(m.get("type") == "snapshot" for m in client.seen):
                await client.recv_until("snapshot", timeout=5)
            return client
        except (OSError, InvalidStatus, ConnectionClosed, asyncio.TimeoutError):
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.5)


async def _closed_with(client, timeout: float = 10) -> int | None:
    await asyncio.wait_for(client.ws.wait_closed(), timeout)
    return client.ws.close_code


def _recovers(platform, fault, after_fault=lambda: None, while_down: bool = False):
    world, port = platform.world, platform.ports[0]
    lat, lon = world["centre"]
    busy, free = world["cabs"][1], world["cabs"][2]
    busy_at, free_at_ = (lat - 0.003, lon), (lat + 0.02, lon)  # ~2 km apart: each ride's nearest cab is plain

    async def scenario():
        a, b = await driver(port, busy["token"]), await driver(port, free["token"])
        await a.recv_until("snapshot"), await b.recv_until("snapshot")
        await free_at(a, *busy_at)
        await free_at(b, *free_at_)
        await flushed(world, (busy, *busy_at), (free, *free_at_))
        p = await passenger(port, world["passenger_token"])
        o = await operator(port, world["operator"]["session"])
        await o.recv_until("snapshot")
        await p.send(type="ride_request", pickup={"lat": busy_at[0] + 0.0005, "lon": busy_at[1]})
        offer = (await a.recv_until("offer", timeout=30))["offer"]  # the first: the offering workers may still be loading
        ride_id = offer["ride_id"]
        await a.send(type="offer_accept", offer_id=offer["id"])
        await p.recv_until("ride_update", where=lambda m: m["ride"]["status"] == "accepted")

        fault()
        assert [await _closed_with(c) for c in (a, b, p, o)] == [LAYER_LOST] * 4  # told to reconnect
        if while_down:  # a driver connecting now is accepted, then told to reconnect (a refused handshake: "log in again")
            early = await driver(port, free["token"])
            assert await _closed_with(early) == LAYER_LOST
        after_fault()
        deadline = time.monotonic() + RECOVERY_SECONDS

        a = await _again(lambda: driver(port, busy["token"]), deadline)
        b = await _again(lambda: driver(port, free["token"]), deadline)
        p = await _again(lambda: passenger(port, world["passenger_token"]), deadline)
        o = await _again(lambda: operator(port, world["operator"]["session"]), deadline)
        assert [r["status"] for r in p.seen[-1]["rides"] if r["id"] == ride_id] == ["accepted"]  # the snapshot has it
        await free_at(b, *free_at_)  # what the driver app sends again on reconnecting
        # The ride goes on: the passenger and the operators hear it again.
        await a.send(type="ride_arriving", ride_id=ride_id)
        left = lambda: max(0.1, deadline - time.monotonic())  # noqa: E731
        await p.recv_until("ride_update", timeout=left(), where=lambda m: m["ride"]["id"] == ride_id and m["ride"]["status"] == "arriving")
        await o.recv_until("ride_update", timeout=left(), where=lambda m: m["ride"]["id"] == ride_id and m["ride"]["status"] == "arriving")
        # The free cab is online and gets the ride asked where it is (the console's call).
        await flushed(world, (free, *free_at_))
        await o.send(type="ride_create", pickup={"lat": free_at_[0] + 0.0005, "lon": free_at_[1]},
                     caller_name="Maria", caller_phone="32999990000")
        second = (await b.recv_until("offer", timeout=left()))["offer"]
        assert second["ride_id"] != ride_id
        assert time.monotonic() < deadline
        for client in (a, b, p, o):
            await client.close()

    asyncio.run(scenario())


def test_a_redis_killed_and_restarted_brings_every_socket_back(on_private_redis):
    platform, redis = on_private_redis
    _recovers(platform, fault=redis.kill, after_fault=redis.start, while_down=True)


def test_a_redis_that_lost_its_memory_under_open_sockets_closes_them(on_private_redis):
    """FLUSHALL on the private Redis: what a restart between two reads does, without a failed read."""
    platform, redis = on_private_redis
    _recovers(platform, fault=lambda: subprocess.run(["redis-cli", "-p", str(redis.port), "FLUSHALL"], check=True,
                                                     capture_output=True))
