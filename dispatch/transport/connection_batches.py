"""The database work of drivers' connections (going online, snapshot, status, going offline), in batches on threads of its own.

After a restart every driver reconnects at once. On Channels' one database thread those thousands of
connections (each a dozen statements and two commits) queued behind one another and in front of
every ride's steps. Here what connections ask while the previous batch of the same kind runs is taken
together: one call of a ``*_many`` function, a few statements and one commit for the whole batch. A lone
connection is not delayed: its batch of one starts on the next turn of the event loop.

One batch of a kind runs at a time, the kinds side by side on a few threads. Building and compiling an ORM statement
costs the serving process the interpreter lock whatever the batch's size, so a storm is served faster with fewer,
larger batches than with several of a kind at once (docs/dispatch-benchmark.md, "Measurements by module"). """

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async

THREADS = 4  # each with its own database connection: one per kind of batch
MAX_BATCH = 100
_threads = ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="dispatch-connect")


async def run(func, *args):
    return await database_sync_to_async(func, thread_sensitive=False, executor=_threads)(*args)


class Batched:
    """``await batched(item)`` is ``func_many([item, ...])[i]``, with the items asked meanwhile in the same call.

    ``func_many`` takes a list and returns one result per item, in order; an exception it raises
    reaches every caller of that batch. One call runs at a time: what arrives meanwhile waits for the next.
    """

    def __init__(self, func_many):
        self.func_many = func_many
        self._loop = None

    async def __call__(self, item):
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a new event loop (tests run several): nothing of the old one carries over
            self._loop, self._pending, self._running, self._scheduled = loop, [], False, False
        future = loop.create_future()
        self._pending.append((item, future))
        self._kick()
        return await future

    def _kick(self) -> None:
        if self._pending and not self._running and not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._start)  # what arrives in this turn joins the batch

    def _start(self) -> None:
        self._scheduled = False
        if not self._pending or self._running:
            return
        batch, self._pending = self._pending[:MAX_BATCH], self._pending[MAX_BATCH:]
        self._running = True
        asyncio.get_running_loop().create_task(self._run(batch))

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
            self._running = False
            if self._loop is asyncio.get_running_loop():
                self._kick()
