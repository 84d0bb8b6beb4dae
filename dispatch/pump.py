"""A consumer's message loop with nothing new per message that outlives it.

Channels' ``await_many_dispatch`` makes, for every message of every connection, a new Task for
the next receive and an ``asyncio.wait`` (a waiter future, callbacks, sets) that stay alive until
that connection's next frame, seconds later. At thousands of connections those survivors are what
the garbage collector's young collections wade through (dispatch/memory.py). Here each source is
read by one task for the connection's whole life, and messages are still handled one at a time,
in the order they are read.
"""

from __future__ import annotations

import asyncio


async def dispatch_from(sources, dispatch) -> None:
    """Like ``channels.utils.await_many_dispatch``: ``dispatch`` every message of ``sources``, one at a time.

    A source's error, or the dispatch's (``StopConsumer`` included), ends the loop and is raised.
    """
    inbox: asyncio.Queue = asyncio.Queue(maxsize=len(sources))  # each source reads at most one message ahead

    async def pump(source):
        try:
            while True:
                await inbox.put((True, await source()))
        except asyncio.CancelledError:
            raise
        except BaseException as exc:  # handed to the loop below, which raises it
            await inbox.put((False, exc))

    pumps = [asyncio.ensure_future(pump(source)) for source in sources]
    try:
        while True:
            ok, item = await inbox.get()
            if not ok:
                raise item
            await dispatch(item)
    finally:
        for task in pumps:
            task.cancel()
        await asyncio.gather(*pumps, return_exceptions=True)
