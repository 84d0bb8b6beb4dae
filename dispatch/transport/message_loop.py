"""A consumer's message loop that leaves one waiter per source between two messages, no more.

Whatever a connection creates to wait for its next frame stays alive until that frame arrives,
seconds later. At 10,000 connections those survivors are what the garbage collector's young
collections go through (dispatch/transport/gc_policy.py). Channels' ``await_many_dispatch`` makes, for every
message, a new Task for the next receive and an ``asyncio.wait`` (a waiter future, callbacks, sets).
A task per source handing its messages to the consumer's task through a queue would still leave two
waiters per connection, the source's and the queue's; here each source's task handles what it reads
itself, and a lock takes the messages one at a time, in the order they were read (``asyncio.Lock``
serves its waiters first come, first served).
"""

from __future__ import annotations

import asyncio


async def dispatch_from(sources, dispatch) -> None:
    """Like ``channels.utils.await_many_dispatch``: ``dispatch`` every message of ``sources``, one at a time.

    A source's error, or the dispatch's (``StopConsumer`` included), ends the loop and is raised; no
    message is handled after it, and a message being handled when a source fails is finished first.
    """
    turn = asyncio.Lock()
    ended = False

    async def pump(source):
        nonlocal ended
        while True:
            message = await source()  # each source reads at most one message ahead
            async with turn:
                if ended:
                    return
                try:
                    await dispatch(message)
                except BaseException:
                    ended = True
                    raise

    pumps = [asyncio.ensure_future(pump(source)) for source in sources]
    try:
        done, _pending = await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
        async with turn:
            ended = True
        # a pump ends with an error, or without one once another's error has ended the loop: raise the error
        next(task for task in done if task.exception() is not None).result()
    finally:
        for task in pumps:
            task.cancel()
        await asyncio.gather(*pumps, return_exceptions=True)
