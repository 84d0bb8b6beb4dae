"""No thread waits for a serving process's event loop once it has stopped (issue 34: SIGTERM hung Daphne)."""

from __future__ import annotations

import asyncio
import threading

from asgiref.sync import sync_to_async

from dispatch import events


def test_a_thread_announcing_after_the_event_loop_stopped_does_not_wait_for_it(settings):
    """A connection batch commits on its thread while SIGTERM stops the loop: its announcement is left to the
    clients' snapshots. Handed to ``async_to_sync``, it waited for the stopped loop for ever, and the interpreter's
    exit waited for that thread."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    loop = asyncio.new_event_loop()
    stopped, announced = threading.Event(), threading.Event()

    def commit_then_announce():  # on a thread of the serving process, called from its event loop
        stopped.wait(5)
        events.post(events.OPERATORS, {"type": "cab_update"})
        announced.set()

    async def serve():
        events.start_outbox()
        asyncio.ensure_future(sync_to_async(commit_then_announce, thread_sensitive=False)())
        await asyncio.sleep(0.1)
        loop.stop()  # SIGTERM

    try:
        loop.create_task(serve())
        loop.run_forever()
        stopped.set()
        assert announced.wait(3), "the thread waits for the stopped event loop"
    finally:
        loop.close()
