"""No announcement lost to a full Redis pool (issue 33, item 3): the layer's pool waits for a connection, a failed
send is tried again, and every failure is counted (dispatch.transport.channel_layers, dispatch.events.announcements).

On a private ``redis-server`` (a deliberately small pool, never the shared Redis's settings).
"""

import asyncio
import os
import shutil
import socket
import subprocess
import time

import pytest
import redis
from channels_redis.core import RedisChannelLayer
from redis.asyncio import BlockingConnectionPool
from redis.exceptions import MaxConnectionsError

from dispatch.events import announcements
from dispatch.transport.channel_layers import WaitingPoolRedisChannelLayer

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs the redis-server binary (make test installs it)")
RIDE = "ride.7"
CLIENTS = 30  # sockets joining the ride's group at once, as in a connection storm
VERSIONS = 40


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def private_redis():
    port = _free_port()
    server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis.from_url(url).ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.05)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture(autouse=True)
def _outbox_restored(monkeypatch):
    """Each test's outbox and layer state are its own; the module's are put back after it."""
    for name in ("_loop", "_outbox", "_sender"):
        monkeypatch.setattr(announcements, name, getattr(announcements, name))
    monkeypatch.setattr(announcements, "_layer_failing", False)
    monkeypatch.setattr(announcements, "_owed", {})


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 60))


def ride_update(version: int) -> dict:
    return {"type": "ride_update", "ride": {"id": 7, "version": version, "status": "offered"}}


async def _storm(layer, channels: list[str]):
    """Every channel joins the ride's group and a cab group at once: ``2 * len(channels)`` commands in flight."""
    return await asyncio.gather(*(layer.group_add(g, c) for c in channels for g in (RIDE, f"cab.{c[-6:]}")),
                                return_exceptions=True)


def test_the_stock_pool_of_two_fails_under_the_storm(private_redis):
    """The control: channels_redis's own pool of this size raises at once (what the 16-core benchmark logged)."""

    async def scenario():
        layer = RedisChannelLayer(hosts=[{"address": private_redis, "max_connections": 2}], prefix="stock")
        channels = [await layer.new_channel() for _ in range(CLIENTS)]
        results = await _storm(layer, channels)
        await layer.flush()
        return results

    assert any(isinstance(r, MaxConnectionsError) for r in run(scenario()))


def test_a_pool_of_two_under_a_storm_loses_no_announcement_every_client_sees_the_rides_state(private_redis, monkeypatch):
    async def scenario():
        layer = WaitingPoolRedisChannelLayer(hosts=[{"address": private_redis, "max_connections": 2, "socket_timeout": None}], prefix="waiting")
        monkeypatch.setattr(announcements, "get_channel_layer", lambda: layer)
        announcements.start_outbox()
        channels = [await layer.new_channel() for _ in range(CLIENTS)]
        await asyncio.gather(*(layer.group_add(RIDE, c) for c in channels[:2]))  # two clients were there already
        storm = asyncio.ensure_future(_storm(layer, channels))
        operators = [await layer.new_channel() for _ in range(100)]
        noise = asyncio.ensure_future(asyncio.gather(*(layer.group_add("operators", c) for c in operators)))
        for version in range(1, VERSIONS):  # the ride's updates while the others connect
            announcements.post(RIDE, ride_update(version))
            await asyncio.sleep(0)
        assert not [r for r in await storm if isinstance(r, Exception)]
        await noise
        announcements.post(RIDE, ride_update(VERSIONS))  # the ride's state once all are there (a later one reads its snapshot)

        async def follow(channel):
            seen = []
            while not seen or seen[-1] < VERSIONS:
                message = await layer.receive(channel)
                seen.append(message["message"]["ride"]["version"])
            return seen

        seen = await asyncio.gather(*(follow(c) for c in channels))
        await layer.flush()
        return seen

    failed, lost = announcements.failed_sends(), announcements.lost_announcements()
    seen = run(scenario())
    assert all(s[-1] == VERSIONS and s == sorted(s) for s in seen)  # each client's last frame is the ride's state, in order
    assert seen[0] == list(range(1, VERSIONS + 1)) == seen[1]  # those in the group from the start saw every one
    assert announcements.lost_announcements() == lost and announcements.failed_sends() == failed  # it waited: nothing failed


def test_a_send_that_cannot_get_a_connection_is_counted_and_tried_again_until_it_is_delivered(private_redis, monkeypatch):
    async def scenario():
        layer = WaitingPoolRedisChannelLayer(hosts=[{"address": private_redis, "max_connections": 1, "socket_timeout": None}], prefix="held",
                                             pool_timeout=0.05)
        client = await layer.new_channel()
        await layer.group_add(RIDE, client)
        held = asyncio.ensure_future(layer.connection(0).blpop(["nothing"], timeout=0.5))  # the only connection, 0.5 s
        await asyncio.sleep(0.05)  # a duration, not a wait: the held command goes out first and takes the only connection
        sent = await announcements.send_with_retries(layer, RIDE, {"type": "relay", "message": ride_update(1)})
        await held
        message = await layer.receive(client)
        await layer.flush()
        return sent, message

    failed, lost = announcements.failed_sends(), announcements.lost_announcements()
    sent, message = run(scenario())
    assert sent and message["message"] == ride_update(1)
    assert announcements.failed_sends() > failed and announcements.lost_announcements() == lost


def test_a_layer_that_stays_down_loses_the_announcement_counted_and_the_next_gets_one_attempt(monkeypatch):
    layer = WaitingPoolRedisChannelLayer(hosts=[{"address": f"redis://127.0.0.1:{_free_port()}/0"}], prefix="down")
    failed, lost = announcements.failed_sends(), announcements.lost_announcements()
    assert run(announcements.send_with_retries(layer, RIDE, {"type": "relay", "message": ride_update(1)})) is False
    assert announcements.failed_sends() == failed + 1 + len(announcements.RETRY_PAUSES_SECONDS) and announcements.lost_announcements() == lost + 1
    assert run(announcements.send_with_retries(layer, RIDE, {"type": "relay", "message": ride_update(2)})) is False
    assert announcements.failed_sends() == failed + 2 + len(announcements.RETRY_PAUSES_SECONDS) and announcements.lost_announcements() == lost + 2


def test_the_layers_pool_is_a_waiting_one_sized_as_configured(private_redis, settings):
    layer = WaitingPoolRedisChannelLayer(hosts=[{"address": private_redis, "socket_timeout": None, "max_connections": 64}],
                                         pool_timeout=10)
    pool = layer.create_pool(0)
    assert isinstance(pool, BlockingConnectionPool) and (pool.max_connections, pool.timeout) == (64, 10)
    if os.environ.get("REDIS_URL"):  # the project's layer on Redis is this one
        assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "dispatch.transport.channel_layers.WaitingPoolRedisChannelLayer"


def _held_pool_scenario(private_redis, monkeypatch, hold_seconds: float, prefix: str):
    """A pool of two connections, both held ``hold_seconds`` (long commands), while 20 ride updates go through the
    outbox to 10 clients: what each client received, in order (a ride update's version, or ``"resync"``). Two, as
    the clients' receive loop then holds one (channels_redis's ``BZPOPMIN``)."""

    async def scenario():
        layer = WaitingPoolRedisChannelLayer(hosts=[{"address": private_redis, "max_connections": 2, "socket_timeout": None}],
                                             prefix=prefix, pool_timeout=0.02)
        monkeypatch.setattr(announcements, "get_channel_layer", lambda: layer)
        announcements.start_outbox()
        channels = [await layer.new_channel() for _ in range(10)]
        for channel in channels:
            await layer.group_add(RIDE, channel)
        held = [asyncio.ensure_future(layer.connection(0).blpop(["nothing"], timeout=hold_seconds)) for _ in range(2)]
        await asyncio.sleep(0.05)  # a duration, not a wait: the held commands go out first and take both connections
        for version in range(1, 21):
            announcements.post(RIDE, ride_update(version))
        await asyncio.gather(*held)

        async def follow(channel):
            seen = []
            while not seen or seen[-1] not in (20, "resync"):
                message = await layer.receive(channel)
                seen.append("resync" if message["type"] == "resync" else message["message"]["ride"]["version"])
            return seen

        seen = await asyncio.gather(*(follow(c) for c in channels))
        await layer.flush()
        return seen

    return run(scenario())


def test_a_pool_of_two_held_briefly_delays_the_announcements_counted_and_every_client_gets_every_one(private_redis, monkeypatch):
    failed, lost = announcements.failed_sends(), announcements.lost_announcements()
    seen = _held_pool_scenario(private_redis, monkeypatch, 0.2, "brief")
    assert all(s == list(range(1, 21)) for s in seen)  # the retries covered the wait: nothing lost, order kept
    assert announcements.failed_sends() > failed and announcements.lost_announcements() == lost


def test_a_pool_of_two_held_past_the_retries_loses_announcements_counted_and_every_client_is_sent_a_resync(
        private_redis, monkeypatch):
    monkeypatch.setattr(announcements, "RESYNC_EVERY_SECONDS", 0.2)
    lost = announcements.lost_announcements()
    seen = _held_pool_scenario(private_redis, monkeypatch, 2.0, "long")  # longer than the retries' 1.3 s
    assert announcements.lost_announcements() > lost
    assert all(s[-1] == "resync" or s[-1] == 20 for s in seen)
    assert all("resync" in s for s in seen)  # each client is sent a resync: its consumer sends the snapshot
    assert not announcements.owed_resyncs()
