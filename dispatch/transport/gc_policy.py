"""The garbage collector of a serving process that holds thousands of websockets.

Every frame leaves a few objects alive until the same connection's next frame (the wait for that
frame: a coroutine, a future, its iterator and the task's wake-up, ``dispatch.transport.message_loop``; autobahn's frame
masker): at 10,000 cabs about ten thousand a second go through the collector's young generations,
and they are most of what a young collection visits.
Measured (docs/dispatch-benchmark.md): with Python's way, collections of the young generations
took 12-160 ms and full collections 0.5-1.5 s, every minute or two; 5-9% of the time the process
answered nothing.

So what survives is frozen every second (``gc.freeze()`` only moves lists: it costs nothing):
collections then look only at what was made since, and stay short. At 10,000 cabs, freezing every
ten seconds still let a young collection reach 50-90 ms of CPU now and then, the event loop's
longest stalls (docs/dispatch-benchmark.md, seventh round); every second, the serving process's
size and frozen count stayed flat over the benchmark's windows. Cycles frozen while alive and
garbage since are collected once an hour, when everything is unfrozen and collected (about a
second at 5,000 connections).
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
