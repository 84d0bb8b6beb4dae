"""Connections that lost their channel-layer memberships are closed, so that they reconnect and re-sync.

With Redis as the channel layer, a connection's groups (its cab's, the ride's, the operators') live in
Redis's memory. When Redis dies, each connection's read from the layer fails: the consumer closes it with
``LAYER_LOST`` (``dispatch.consumers``) and the clients reconnect, with backoff, until Redis answers again;
their new connection joins its groups and gets a fresh snapshot. A Redis that restarts (or is flushed, or
fails over) between two reads loses the memberships without any read failing: those sockets would stay
open and hear nothing. So each serving process keeps a marker key in every Redis of the layer, renewed
every ``CHECK_SECONDS``; a marker found missing means the memberships went with it, and every connection
that joined before the layer was first seen failing (before now, if it was not) is closed with ``LAYER_LOST``
too; one that joined since joined the new Redis. The in-memory layer (one process) never loses them.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref

from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer

from dispatch import wire

log = logging.getLogger(__name__)
LAYER_LOST = wire.LAYER_LOST  # the central's message channel was lost; reconnect (docs/dispatch-protocol.md)
CHECK_SECONDS = 1.0
MARKER_TTL_SECONDS = 60  # a dead process's marker goes away by itself

_members: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # this process's consumers -> their first join
_failing_since: float | None = None  # when the layer was first seen failing since it last answered well
_task: asyncio.Task | None = None


class LayerUnavailable(Exception):
    """The channel layer failed a group operation: the connection cannot hear its events."""


def watch(consumer) -> None:
    """Close ``consumer`` (``close(code=LAYER_LOST)``) if the layer loses the memberships it has made so far (called on
    the event loop, after each join)."""
    global _task
    _members.setdefault(consumer, time.monotonic())
    layer = get_channel_layer()
    if isinstance(layer, RedisChannelLayer) and (_task is None or _task.done()):
        _task = asyncio.get_running_loop().create_task(_watch(layer))


def forget(consumer) -> None:
    _members.pop(consumer, None)


def failed() -> None:
    """The layer failed a read or a write: memberships made from now on are made after whatever failed."""
    global _failing_since
    if _failing_since is None:
        _failing_since = time.monotonic()


async def _watch(layer: RedisChannelLayer) -> None:
    global _failing_since
    marker = f"{layer.prefix}:alive:{layer.client_prefix}"
    placed = False  # a marker was set since this process joined its first group
    while True:
        try:
            previous = [await layer.connection(i).set(marker, 1, ex=MARKER_TTL_SECONDS, get=True) for i in range(layer.ring_size)]
        except Exception as exc:  # Redis unreachable: the connections' own reads fail and close them
            if _failing_since is None:
                log.warning("channel layer unreachable (%s): connections are closed as their reads fail", exc)
            failed()
        else:
            if placed and not all(previous):
                # Lost before the first failure seen (or before now, if none was): a join since then was made after it.
                await _close_joined_before(_failing_since or time.monotonic())
            elif _failing_since is not None:
                log.warning("channel layer answers again; its memberships were kept")
            placed, _failing_since = True, None
        await asyncio.sleep(CHECK_SECONDS)


async def _close_joined_before(cutoff: float) -> None:
    lost = [consumer for consumer, joined in list(_members.items()) if joined < cutoff]
    log.warning("channel layer lost its memberships (Redis restarted or flushed): closing %d connections so that they"
                " reconnect", len(lost))
    for consumer in lost:
        _members.pop(consumer, None)
        try:
            await consumer.close(code=LAYER_LOST)
        except Exception:  # its socket is already gone
            log.debug("closing a connection after the layer's loss failed", exc_info=True)
