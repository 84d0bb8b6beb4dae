"""A consumer's message loop: every message of both sources, one at a time, errors raised (Art. 66's consumers)."""

import asyncio

import pytest
from channels.exceptions import StopConsumer

from dispatch.pump import dispatch_from


def _source(messages, delay=0.0):
    queue = asyncio.Queue()
    for m in messages:
        queue.put_nowait(m)

    async def receive():
        await asyncio.sleep(delay)
        return await queue.get()

    return receive


def test_messages_of_both_sources_are_handled_one_at_a_time_until_the_consumer_stops():
    handled, busy = [], []

    async def dispatch(message):
        busy.append(1)
        assert len(busy) == 1, "two messages handled at once"
        await asyncio.sleep(0.001)
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
