"""The garbage collector of a serving process that holds thousands of websockets.

Every frame leaves a few objects alive until the same connection's next frame (the wait for that
frame: a coroutine, a future, its iterator and the task's wake-up, ``dispatch.transport.message_loop``; autobahn's frame
masker): with thousands of cabs they are most of what a young collection visits. With Python's default
policy, collections grew long and frequent enough that the process stopped answering for part of the
time (docs/dispatch-benchmark.md, "Measurements by module").

So what survives is frozen every second (``gc.freeze()`` only moves lists: it costs nothing):
collections then look only at what was made since, and stay short. Freezing less often still let a
young collection become the event loop's longest stall; every second, the process's size and frozen
count stay flat. Cycles frozen while alive and garbage since are collected once an hour, when
everything is unfrozen and collected.
"""

from __future__ import annotations

import gc
import time

FREEZE_EVERY_SECONDS = 1.0
FULL_COLLECTION_EVERY_SECONDS = 3600.0

_frozen_at = _collected_at = 0.0


def start() -> None:
    """At start-up: collect and freeze what loading the project made; keep young collections short."""
    global _frozen_at, _collected_at
    gc.collect()
    gc.freeze()
    gc.set_threshold(1_000, 4, 100)
    _frozen_at = _collected_at = time.monotonic()


def tick() -> None:
    """Called about once a second by the background tick."""
    global _frozen_at, _collected_at
    now = time.monotonic()
    if now - _collected_at >= FULL_COLLECTION_EVERY_SECONDS:
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        _frozen_at = _collected_at = now
    elif now - _frozen_at >= FREEZE_EVERY_SECONDS:
        gc.freeze()
        _frozen_at = now
