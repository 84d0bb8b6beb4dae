"""No thread waits for a serving process's event loop once it has stopped (issue 34: SIGTERM hung Daphne)."""

from __future__ import annotations

import asyncio
import threading

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from dispatch.events import announcements


def test_a_thread_announcing_after_the_event_loop_stopped_does_not_wait_for_it(settings):
    """A connection batch commits on its thread while SIGTERM stops the loop: its announcement is left to the
    clients' snapshots. Handed to ``async_to_sync``, it waited for the stopped loop for ever, and the interpreter's
    exit waited for that thread."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    loop = asyncio.new_event_loop()
    stopped, announced = threading.Event(), threading.Event()

    def commit_then_announce():  # on a thread of the serving process, called from its event loop
        stopped.wait(5)
        announcements.post(announcements.OPERATORS, {"type": "cab_update"})
        announced.set()

    async def serve():
        announcements.start_outbox()
        asyncio.ensure_future(sync_to_async(commit_then_announce, thread_sensitive=False)())
        await asyncio.sleep(0.1)  # a duration, not a wait: SIGTERM comes while the thread is still committing
        loop.stop()  # SIGTERM

    try:
        loop.create_task(serve())
        loop.run_forever()
        stopped.set()
        assert announced.wait(3), "the thread waits for the stopped event loop"
    finally:
        left = asyncio.all_tasks(loop)  # the outbox's sender, the thread's call
        for task in left:
            task.cancel()
        loop.run_until_complete(asyncio.gather(*left, return_exceptions=True))
        loop.close()


def test_at_shutdown_the_outbox_sends_what_it_holds_before_the_loop_stops(settings):
    """SIGTERM's "before shutdown" step (``announcements.drain``): the announcements already posted reach the channel layer."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

    async def scenario():
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(announcements.OPERATORS, channel)
        announcements.start_outbox()
        for n in range(50):
            announcements.post(announcements.OPERATORS, {"type": "cab_update", "n": n})
        assert await announcements.drain()
        return [(await layer.receive(channel))["message"]["n"] for _ in range(50)]

    assert asyncio.run(scenario()) == list(range(50))
