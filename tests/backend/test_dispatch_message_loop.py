"""A consumer's message loop: every message of both sources, one at a time, errors raised (Art. 66's consumers)."""

import asyncio
import gc

import pytest
from channels.exceptions import StopConsumer

from dispatch.transport.message_loop import dispatch_from


def _source(messages, delay=0.0):
    queue = asyncio.Queue()
    for m in messages:
        queue.put_nowait(m)

    async def receive():
        await asyncio.sleep(delay)  # a duration, not a wait: a source that reads slowly
        return await queue.get()

    return receive


def test_messages_of_both_sources_are_handled_one_at_a_time_until_the_consumer_stops():
    handled, busy = [], []

    async def dispatch(message):
        busy.append(1)
        assert len(busy) == 1, "two messages handled at once"
        await asyncio.sleep(0.001)  # a duration, not a wait: a handler that takes time
        handled.append(message)
        busy.pop()
        if message == "disconnect":
            raise StopConsumer

    async def run():
        client = _source(["a1", "a2", "a3", "disconnect"], delay=0.003)
        layer = _source(["b1", "b2"])
        with pytest.raises(StopConsumer):
            await dispatch_from([client, layer], dispatch)
        assert len(asyncio.all_tasks()) == 1  # the pumps were cancelled and awaited

    asyncio.run(run())
    assert sorted(handled) == ["a1", "a2", "a3", "b1", "b2", "disconnect"]
    assert [m for m in handled if m[0] == "a"] == ["a1", "a2", "a3"] and handled[-1] == "disconnect"


def test_a_failing_source_ends_the_loop_with_its_error():
    async def broken():
        raise ConnectionError("layer gone")

    async def run():
        await dispatch_from([_source([]), broken], lambda message: asyncio.sleep(0))

    with pytest.raises(ConnectionError, match="layer gone"):
        asyncio.run(run())


def test_no_message_is_handled_after_the_dispatch_ends_the_loop():
    handled = []

    async def dispatch(message):
        if message == "disconnect":
            await asyncio.sleep(0.01)  # a duration, not a wait: the layer's message arrives meanwhile and waits its turn
            handled.append(message)
            raise StopConsumer
        handled.append(message)

    async def run():
        with pytest.raises(StopConsumer):
            await dispatch_from([_source(["disconnect"]), _source(["offer"], delay=0.002)], dispatch)

    asyncio.run(run())
    assert handled == ["disconnect"]


def test_a_source_error_lets_the_message_being_handled_finish():
    handled = []

    async def dispatch(message):
        await asyncio.sleep(0.02)  # a duration, not a wait: a handler that takes time
        handled.append(message)

    async def broken():
        await asyncio.sleep(0.005)  # a duration, not a wait: the source fails mid-handling
        raise ConnectionError("layer gone")

    async def run():
        with pytest.raises(ConnectionError, match="layer gone"):
            await dispatch_from([_source(["position"]), broken], dispatch)

    asyncio.run(run())
    assert handled == ["position"]


def test_between_two_frames_a_connection_keeps_only_what_waits_for_the_next():
    """What a message leaves alive until the connection's next one is what young collections go through (dispatch/transport/gc_policy.py)."""
    connections = 200

    async def run():
        frames = [asyncio.Queue() for _ in range(connections)]
        layers = [asyncio.Queue() for _ in range(connections)]

        async def dispatch(message):
            pass

        loops = [asyncio.ensure_future(dispatch_from([f.get, lay.get], dispatch)) for f, lay in zip(frames, layers)]
        for _ in range(5):
            await asyncio.sleep(0)
        gc.collect()
        gc.freeze()
        try:
            for queue in frames:
                queue.put_nowait("position")
            for _ in range(5):
                await asyncio.sleep(0)
            assert all(q.empty() for q in frames)
            survivors = len(gc.get_objects()) / connections
        finally:
            gc.unfreeze()
            for task in loops:
                task.cancel()
            await asyncio.gather(*loops, return_exceptions=True)
        return survivors

    # the frames' source waits again: its coroutine, future, future iterator and the task's wake-up
    assert asyncio.run(run()) <= 5  # 4.0 here; 8.0 when a queue handed the messages to the consumer's task
