"""Timestamps of each ride request's hops to its offer, for the benchmark (``DISPATCH_TRACE_HOPS=<file>``).

Off unless the variable names a file. Each mark is one line ``<ride id> <hop> <time.perf_counter()>``
appended to it by whichever process reaches the hop (serving processes and offering workers alike);
``perf_counter`` is CLOCK_MONOTONIC, one clock for every process of the machine, so the benchmark
can subtract marks of different processes (benchmarks/dispatch_bench.py).
"""

from __future__ import annotations

import contextvars
import os
import time

PATH = os.environ.get("DISPATCH_TRACE_HOPS", "")
# set by offer_workers.run: (started and ended in the worker, its answer read on the event loop)
worker_span: contextvars.ContextVar = contextvars.ContextVar("worker_span", default=None)


def mark(ride_id, hop: str, at: float | None = None) -> None:
    if PATH:
        with open(PATH, "a") as log:  # one short write in append mode: lines of several processes never mix
            log.write(f"{ride_id} {hop} {time.perf_counter() if at is None else at:.6f}\n")


def mark_offer(message: dict, hop: str) -> None:
    """Mark ``hop`` if ``message`` is an offer frame (the outbox and the cab's consumer see every frame)."""
    if PATH and message.get("type") == "offer":
        mark(message["offer"]["ride_id"], hop)
