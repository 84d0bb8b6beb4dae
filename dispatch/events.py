"""Announcements over the channel layer, always after the database commit.

The channel layer delivers at most once; clients re-sync from a snapshot
when they (re)connect and when a ``version`` jumps, so a lost event loses
nothing that matters.

In a serving process (Daphne) announcements leave through an outbox: the
committing thread only hands them to the event loop, and one sender task
sends them in commit order. Without it each announcement held the
database thread until the busy event loop got round to it. Elsewhere
(management commands, the admin under WSGI, tests) they are sent at once.
In an offering worker process (``dispatch.offering``) they are collected and
handed back to the serving process, which posts them to its outbox.
"""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from . import hops, wire

log = logging.getLogger(__name__)
OPERATORS = "operators"

_loop: asyncio.AbstractEventLoop | None = None
_outbox: asyncio.Queue | None = None
_sender: asyncio.Task | None = None
_collected: list | None = None  # in an offering worker: what the current call announced


def cab_group(permit_id: int) -> str:
    return f"cab.{permit_id}"


def ride_group(ride_id: int) -> str:
    return f"ride.{ride_id}"


def passenger_group(passenger_id: int) -> str:
    return f"passenger.{passenger_id}"


def listened(group: str) -> bool:
    """Whether ``group`` may have members: known for the in-memory layer, assumed for the others.

    For a large message (the once-a-second positions for operators) that nobody would receive.
    """
    members = getattr(get_channel_layer(), "groups", None)  # InMemoryChannelLayer's {group: {channel: expiry}}
    return not isinstance(members, dict) or bool(members.get(group))


def announce(group: str, message: dict) -> None:
    """Send ``message`` to ``group`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: post(group, message))


def announce_each(group: str, messages: list[dict]) -> None:
    """:func:`announce` of each message, in order, as one channel-layer message (``relay_many``): a batch of
    connections tells the operators of its hundred cabs with one send, not a hundred (Redis: one round trip)."""
    if messages:
        transaction.on_commit(lambda: post(group, messages))


def announce_compliance_change(permit_id: int) -> None:
    """Tell the cab's open connection to re-check whether it may work (suspension, revocation)."""
    announce(cab_group(permit_id), wire.COMPLIANCE_CHANGED(permit_id=permit_id))


def start_outbox() -> None:
    """Send this process's announcements from the running event loop (called on it by the first websocket)."""
    global _loop, _outbox, _sender
    loop = asyncio.get_running_loop()
    if _loop is loop and _sender is not None and not _sender.done():
        return
    _outbox = asyncio.Queue()
    _sender = loop.create_task(_send_in_order(_outbox))
    _loop = loop


async def _send_in_order(outbox: asyncio.Queue) -> None:
    layer = get_channel_layer()
    while True:
        group, message = await outbox.get()
        if isinstance(message, list):
            event = {"type": "relay_many", "messages": message}
        else:
            hops.mark_offer(message, "outbox")
            event = {"type": "relay", "message": message}
        try:
            await layer.group_send(group, event)
        except Exception:  # one failed send must not stop the others; clients re-sync from snapshots
            log.exception("announcement to %s failed", group)


def collect() -> list:
    """From now on keep this process's announcements in the returned list instead of sending them."""
    global _collected
    _collected = []
    return _collected


def post(group: str, message: dict | list[dict]) -> None:
    """Send a committed announcement (a message, or a list of them: ``announce_each``): through the outbox in a
    serving process, at once elsewhere."""
    if _collected is not None:
        _collected.append((group, message))
        return
    loop, outbox = _loop, _outbox
    if loop is None or loop.is_closed() or not loop.is_running():
        event = {"type": "relay_many", "messages": message} if isinstance(message, list) else {"type": "relay", "message": message}
        async_to_sync(get_channel_layer().group_send)(group, event)
        return
    try:
        on_loop = asyncio.get_running_loop() is loop
    except RuntimeError:
        on_loop = False
    if on_loop:
        outbox.put_nowait((group, message))
    else:
        loop.call_soon_threadsafe(outbox.put_nowait, (group, message))
