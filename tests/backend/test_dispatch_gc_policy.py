"""The serving process's garbage-collector policy: freeze what survives every second, collect everything hourly."""

import pytest

from dispatch.transport import gc_policy


class FakeGC:
    def __init__(self):
        self.calls = []

    def __getattr__(self, name):
        return lambda *args: self.calls.append((name, *args))


@pytest.fixture
def collector(monkeypatch):
    fake, clock = FakeGC(), [1000.0]
    monkeypatch.setattr(gc_policy, "gc", fake)
    monkeypatch.setattr(gc_policy.time, "monotonic", lambda: clock[0])
    gc_policy.start()
    assert fake.calls == [("collect",), ("freeze",), ("set_threshold", 1_000, 4, 100)]
    fake.calls.clear()

    def at(seconds):
        clock[0] = 1000.0 + seconds
        gc_policy.tick()
        calls, fake.calls[:] = list(fake.calls), []
        return calls

    return at


def test_survivors_are_frozen_every_second_and_everything_collected_hourly(collector):
    half = gc_policy.FREEZE_EVERY_SECONDS / 2  # the tick comes about once a second; the period may be as short
    assert collector(gc_policy.FREEZE_EVERY_SECONDS - half) == []
    assert collector(gc_policy.FREEZE_EVERY_SECONDS) == [("freeze",)]
    assert collector(gc_policy.FREEZE_EVERY_SECONDS + half) == []
    assert collector(gc_policy.FULL_COLLECTION_EVERY_SECONDS) == [("unfreeze",), ("collect",), ("freeze",)]
    assert collector(gc_policy.FULL_COLLECTION_EVERY_SECONDS + gc_policy.FREEZE_EVERY_SECONDS - half) == []
