"""The database work of drivers' connections (token, going online, snapshot, first status), in batches on threads of its own.

After a restart every driver reconnects at once. On Channels' one database thread those thousands of
connections (15-25 ms each, ~17 statements and two commits) queued behind one another and in front of
every ride's steps. Here what connections ask while the previous batches run is taken together: one
call of a ``*_many`` function, a few statements and one commit for the whole batch, on a few threads
that overlap their round trips to the database. A lone connection is not delayed: its batch of one
starts on the next turn of the event loop. Each connection still runs its own steps one at a time.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async

THREADS = 4  # each with its own database connection; at most this many batches at once
MAX_BATCH = 100
_threads = ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="dispatch-connect")


async def run(func, *args):
    return await database_sync_to_async(func, thread_sensitive=False, executor=_threads)(*args)


class Batched:
    """``await batched(item)`` is ``func_many([item, ...])[i]``, with the items asked meanwhile in the same call.

    ``func_many`` takes a list and returns one result per item, in order; an exception it raises
    reaches every caller of that batch.
    """

    def __init__(self, func_many):
        self.func_many = func_many
        self._loop = None

    async def __call__(self, item):
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a new event loop (tests run several): nothing of the old one carries over
            self._loop, self._pending, self._running, self._scheduled = loop, [], 0, False
        future = loop.create_future()
        self._pending.append((item, future))
        self._kick()
        return await future

    def _kick(self) -> None:
        if self._pending and self._running < THREADS and not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._start)  # what arrives in this turn joins the batch

    def _start(self) -> None:
        self._scheduled = False
        if not self._pending or self._running >= THREADS:
            return
        batch, self._pending = self._pending[:MAX_BATCH], self._pending[MAX_BATCH:]
        self._running += 1
        asyncio.get_running_loop().create_task(self._run(batch))
        self._kick()

    async def _run(self, batch) -> None:
        try:
            results = await run(self.func_many, [item for item, _future in batch])
        except BaseException as exc:  # noqa: BLE001 -- handed to every caller of the batch
            for _item, future in batch:
                if not future.done():
                    future.set_exception(exc)
        else:
            for (_item, future), result in zip(batch, results):
                if not future.done():  # its connection may have gone meanwhile
                    future.set_result(result)
        finally:
            self._running -= 1
            if self._loop is asyncio.get_running_loop():
                self._kick()
