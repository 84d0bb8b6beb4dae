"""Announcements over the channel layer, always after the database commit.

The channel layer delivers at most once; clients re-sync from a snapshot
when they (re)connect and when a ``version`` jumps, so a lost event loses
nothing that matters.

In a serving process (Daphne) announcements leave through an outbox: the
committing thread only hands them to the event loop, and one sender task
sends them in commit order. Without it each announcement held the
database thread until the busy event loop got round to it. Elsewhere
(management commands, the admin under WSGI, tests) they are sent at once.
In an offering worker process (``dispatch.rides.offer_workers``) they are collected and
handed back to the serving process, which posts them to its outbox.

A send that fails (Redis busy or away) is tried again a few times (``RETRY_PAUSES_SECONDS``), the later
announcements waiting behind it so that the order holds; one that still fails is lost. While the layer keeps
failing each announcement gets one attempt, so that a backlog does not grow behind the pauses. A lost
announcement's group is remembered, and once the layer carries a send again (or every
``RESYNC_EVERY_SECONDS`` while the outbox is idle) that group is sent a ``resync``: each of its sockets sends
its client a fresh snapshot (``dispatch.consumers``), so a client is not left behind until it reconnects.
Every failed attempt, every loss and every resync is counted (:func:`failed_sends`, :func:`lost_announcements`,
``dispatch.ops.metrics``).
"""

from __future__ import annotations

import asyncio
import logging
import sys

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from dispatch import wire
from dispatch.ops import latency_trace, metrics

log = logging.getLogger(__name__)
OPERATORS = "operators"
DRAIN_SECONDS = 1.0  # at SIGTERM, the longest the outbox is given to send what it holds

_loop: asyncio.AbstractEventLoop | None = None
_outbox: asyncio.Queue | None = None
_sender: asyncio.Task | None = None
_collected: list | None = None  # in an offering worker: what the current call announced
RETRY_PAUSES_SECONDS = (0.05, 0.25, 1.0)  # between the attempts of one send: about 1.3 s in all
_failed_sends = 0  # group_send attempts that raised, since the process started
_lost = 0  # announcements given up after every attempt
_layer_failing = False  # the last announcement was lost: one attempt each until a send works again
RESYNC = {"type": "resync"}  # to a group whose announcement was lost: its sockets send their snapshots
RESYNC_EVERY_SECONDS = 1.0  # an idle outbox tries the owed resyncs this often
RESYNC_GROUPS_MAX = 20_000  # groups owed a resync kept at most (every cab's, rides', operators'): memory bounded
_owed: dict[str, None] = {}  # groups whose announcement was lost, oldest first, owed a resync


def failed_sends() -> int:
    """Channel-layer sends of announcements that failed (each attempt), since this process started."""
    return _failed_sends


def lost_announcements() -> int:
    """Announcements given up after every attempt (their clients catch up from a snapshot), since this process started."""
    return _lost


def owed_resyncs() -> list[str]:
    """Groups whose announcement was lost and whose sockets have not been sent a ``resync`` yet."""
    return list(_owed)


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
    """Send this process's announcements from the running event loop (called on it when the server starts, or by the first websocket)."""
    global _loop, _outbox, _sender
    loop = asyncio.get_running_loop()
    if _loop is loop and _sender is not None and not _sender.done():
        return
    if _loop is None:
        _send_the_rest_at_shutdown()
    _outbox = asyncio.Queue()
    _sender = loop.create_task(_send_in_order(_outbox))
    _loop = loop


def _send_the_rest_at_shutdown() -> None:
    """Under Daphne (Twisted), when the server is asked to stop (SIGTERM), send what the outbox holds before the
    event loop stops, for at most ``DRAIN_SECONDS``; what is committed later is left to the clients' snapshots."""
    if "twisted.internet.reactor" in sys.modules:
        from twisted.internet import defer, reactor

        reactor.addSystemEventTrigger("before", "shutdown", lambda: defer.Deferred.fromFuture(asyncio.ensure_future(drain())))


async def drain(timeout: float = DRAIN_SECONDS) -> bool:
    """Wait until the outbox has sent everything posted so far (at most ``timeout``); whether it has."""
    if _outbox is None:
        return True
    try:
        await asyncio.wait_for(_outbox.join(), timeout)
    except asyncio.TimeoutError:
        return False
    return True


async def _send_in_order(outbox: asyncio.Queue) -> None:
    layer = get_channel_layer()
    while True:
        try:
            group, message = await asyncio.wait_for(outbox.get(), RESYNC_EVERY_SECONDS) if _owed else await outbox.get()
        except asyncio.TimeoutError:  # idle while a resync is owed: try them
            await resync_owed(layer)
            continue
        if isinstance(message, list):
            event = {"type": "relay_many", "messages": message}
        else:
            latency_trace.mark_offer(message, "outbox")
            event = {"type": "relay", "message": message}
        try:
            await send_with_retries(layer, group, event)
        finally:
            outbox.task_done()  # drain() waits for these


async def send_with_retries(layer, group: str, event: dict) -> bool:
    """``layer.group_send``, tried again after each of ``RETRY_PAUSES_SECONDS``; whether it was sent. Never raises:
    one failed announcement must not stop the others."""
    global _failed_sends, _layer_failing
    pauses = [] if _layer_failing else list(RETRY_PAUSES_SECONDS)
    attempt = 0
    while True:
        attempt += 1
        try:
            await layer.group_send(group, event)
        except Exception:
            _failed_sends += 1
            metrics.ANNOUNCEMENT_FAILURES.inc()
            if not pauses:
                _lose(group, attempt)
                return False
            pause = pauses.pop(0)
            log.warning("announcement to %s failed (attempt %d); trying again in %s s", group, attempt, pause, exc_info=True)
            await asyncio.sleep(pause)
        else:
            _layer_failing = False
            if _owed:
                await resync_owed(layer)
            return True


def _lose(group: str, attempt: int) -> None:
    """Count a lost announcement and owe its group a resync."""
    global _lost, _layer_failing
    _lost += 1
    _layer_failing = True
    metrics.ANNOUNCEMENTS_LOST.inc()
    _owed.pop(group, None)
    _owed[group] = None
    while len(_owed) > RESYNC_GROUPS_MAX:  # the oldest forgotten: those clients wait for their reconnection
        _owed.pop(next(iter(_owed)))
    log.error("announcement to %s lost after %d attempt(s); its sockets will be sent a resync", group, attempt, exc_info=True)


async def resync_owed(layer) -> int:
    """Send ``resync`` to each group owed one, oldest first, until a send fails (the layer still failing: the rest
    wait for the next try); how many were sent. Never raises."""
    sent = 0
    for group in list(_owed):
        try:
            await layer.group_send(group, RESYNC)
        except Exception as exc:
            log.warning("resync of %s failed (%s); %d still owed", group, exc, len(_owed))
            return sent
        _owed.pop(group, None)
        metrics.RESYNCS.inc()
        sent += 1
    return sent


def collect() -> list:
    """From now on keep this process's announcements in the returned list instead of sending them."""
    global _collected
    _collected = []
    return _collected


def post(group: str, message: dict | list[dict]) -> None:
    """Send a committed announcement (a message, or a list of them: ``announce_each``): through the outbox in a
    serving process, at once elsewhere.

    A thread never waits for the serving process's event loop: once that loop has stopped (SIGTERM), what is
    posted is left to the clients' snapshots. Handing it to ``async_to_sync`` instead made a connection
    batch's thread wait for the stopped loop for ever, and the interpreter's exit wait for that thread.
    """
    if _collected is not None:
        _collected.append((group, message))
        return
    metrics.announced(message)
    loop, outbox = _loop, _outbox
    if loop is not None and not loop.is_closed():
        try:
            on_loop = asyncio.get_running_loop() is loop
        except RuntimeError:
            on_loop = False
        if on_loop:
            outbox.put_nowait((group, message))
            return
        try:
            loop.call_soon_threadsafe(outbox.put_nowait, (group, message))  # a stopped loop never runs it
        except RuntimeError:  # closed meanwhile
            log.info("announcement to %s dropped: the event loop has closed", group)
        return
    event = {"type": "relay_many", "messages": message} if isinstance(message, list) else {"type": "relay", "message": message}
    async_to_sync(send_with_retries, force_new_loop=not _callers_loop_runs())(get_channel_layer(), group, event)


def _callers_loop_runs() -> bool:
    """Whether the event loop that called this thread (``sync_to_async``), if any, still runs: ``async_to_sync``
    would hand it the coroutine and wait for it, for ever once it has stopped."""
    caller = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    return caller is None or caller.is_running()
