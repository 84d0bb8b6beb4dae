"""Per-process background work, about once a second: renew the process's lease and take offline the cabs of a
dead process (dispatch.transport.presence), flush positions, expire offers, tell connected
cabs the registry no longer allows (whatever wrote the registry, the database triggers forgot their facts),
dispatch the advance bookings whose time came, and offer escalated rides again (dispatch.rides.escalations).

Every Daphne process runs it, started with the server (``dispatch.transport.server``; in-process tests: by the first
websocket that connects), so offers made by a process that died are still finished by the others and
bookings fall due whether or not any socket is connected. It
runs on its own thread with its own database connection: the consumers'
database work (requests, offers, accepts) never queues behind a flush of
thousands of positions.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import OperationalError

from dispatch.events import announcements
from dispatch.ops import health
from dispatch.rides import cabs, escalations, offer_workers, offers, positions
from dispatch.rides.due_bookings import dispatch_due
from dispatch.rides.positions import buffer
from dispatch.transport import gc_policy, held_sockets, presence

log = logging.getLogger(__name__)
_task: asyncio.Task | None = None
_worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dispatch-tick")


def ensure_running() -> None:
    """Start this process's tick, announcement outbox and offering workers (idempotent; called on the event loop)."""
    global _task
    announcements.start_outbox()
    if _task is None or _task.done():
        offer_workers.start()
        _task = asyncio.get_running_loop().create_task(_loop())


async def _loop() -> None:
    interval = settings.DISPATCH_TICK_SECONDS
    while True:
        await asyncio.sleep(interval)
        gc_policy.tick()
        try:
            mark = held_sockets.mark()
            # The batch is taken on the event loop's thread, where positions are recorded: no lock needed.
            registered = await database_sync_to_async(tick, thread_sensitive=False, executor=_worker)(buffer.take(), held_sockets.audit_due())
            if registered is not None:
                held_sockets.heal(mark, registered)
        except OperationalError as busy:  # the database busy for a moment (SQLite's one writer) or restarting
            log.warning("dispatch background tick: the database did not answer (%s); the next tick retries", busy)
        except Exception:  # keep the loop alive: the next tick retries
            log.exception("dispatch background tick failed")


def tick(batch: dict, audit: bool = False) -> set[str] | None:
    """One tick's work; with ``audit``, or when this process's lease had lapsed, the channels of its sockets the
    dispatcher sees (``dispatch.transport.held_sockets`` records the others again)."""
    kept = cabs.sweep_presence()  # this process's lease renewed; cabs of a dead process offline
    registered = presence.registered_channels() if audit or not kept else None
    if not kept:
        log.warning("this process's presence lease had lapsed (stalled longer than %s s): its sockets are checked",
                    settings.DISPATCH_PROCESS_LEASE_SECONDS)
    positions.flush(batch)
    offers.expire_offers()
    cabs.tell_the_no_longer_allowed()
    dispatch_due()  # advance bookings whose time came: each claimed by one process (a conditional UPDATE)
    escalations.give_up()  # escalated rides no cab took in time: cancelled, with the reason the passenger reads
    escalations.retry_when_due()  # escalated rides offered again when a cab may take them
    health.ticked()  # measured (metrics, /readyz) and told to the operators' consoles
    return registered
