"""Per-process background work: flush positions and expire offers, about once a second.

Every Daphne process runs it (started by the first websocket that connects),
so offers made by a process that died are still finished by the others.
"""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async
from django.conf import settings

from . import services
from .positions import buffer

log = logging.getLogger(__name__)
_task: asyncio.Task | None = None


def ensure_running() -> None:
    global _task
    if _task is None or _task.done():
        _task = asyncio.get_running_loop().create_task(_loop())


async def _loop() -> None:
    interval = settings.DISPATCH_TICK_SECONDS
    while True:
        await asyncio.sleep(interval)
        try:
            await database_sync_to_async(tick)()
        except Exception:  # keep the loop alive: the next tick retries
            log.exception("dispatch background tick failed")


def tick() -> None:
    buffer.flush()
    services.expire_offers()
