"""dispatch.transport.layer_watch: which connections a lost channel layer closes (the real restart: tests/e2e/test_redis_restart.py)."""

import asyncio

import pytest

from dispatch.transport import layer_watch


class FakeConnection:
    def __init__(self):
        self.closed_with = None

    async def close(self, code):
        self.closed_with = code


@pytest.fixture
def members(monkeypatch):
    monkeypatch.setattr(layer_watch, "_members", layer_watch.weakref.WeakKeyDictionary())
    return layer_watch._members


def test_connections_joined_before_the_first_failure_are_closed_and_later_ones_kept(members):
    before, after = FakeConnection(), FakeConnection()
    members[before], members[after] = 10.0, 20.0  # joined before / after the layer was first seen failing (15.0)
    asyncio.run(layer_watch._close_joined_before(15.0))
    assert before.closed_with == layer_watch.LAYER_LOST and before not in members
    assert after.closed_with is None and after in members  # it joined the new Redis: no needless reconnection


def test_a_closed_connection_is_forgotten(members):
    gone = FakeConnection()
    members[gone] = 1.0
    layer_watch.forget(gone)
    asyncio.run(layer_watch._close_joined_before(15.0))
    assert gone.closed_with is None
