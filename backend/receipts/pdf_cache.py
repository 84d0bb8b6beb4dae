"""A receipt's PDF built once, and one at a time in a process (issue 27: eight anonymous clients fetching a long
ride's receipt held a Daphne process's event loop for 1.7 s).

Sync views run in threads under ASGI, but building a receipt is pure Python (the meter re-run over a trace of up
to ``meter_max_trace_fixes`` fixes, then fpdf2): about a second for 5,000 fixes, holding the GIL in turns with
the event loop. Eight builds at once left the loop one turn in nine. So a process builds one receipt at a time
(``BUILD_SLOTS``); a request that waits longer than ``WAIT_SECONDS`` for its turn is answered 503 with
``Retry-After`` (bounded work, no pile of waiting threads), and a built PDF is kept in the cache (shared by the
processes when Redis is configured) for ``CACHE_SECONDS`` under a fingerprint of what the receipt shows, so the
same receipt fetched again is not built again. Erasure forgets a passenger's cached receipts (:func:`forget`).
"""

from __future__ import annotations

import hashlib
import threading

from django.core.cache import cache

from . import documents, receipts

BUILD_SLOTS = threading.BoundedSemaphore(1)
WAIT_SECONDS = 10
RETRY_AFTER_SECONDS = 5
CACHE_SECONDS = 600


class Busy(Exception):
    """Another receipt is being built and this one waited its whole turn."""


def _key(ride_id: int) -> str:
    return f"receipt-pdf:{ride_id}"


def fingerprint(ride) -> str:
    """What the receipt shows, cheaply (the trace by its size and ends): a changed ride is a different PDF."""
    trace = ride.trace or []
    shown = (ride.version, ride.status, ride.fare, ride.meter_reading, ride.correction_factor, ride.server_total,
             ride.meter_disagreement, ride.distance_m, len(trace), trace[:1], trace[-1:], ride.pickup_lat,
             ride.pickup_lon, ride.pickup_address, ride.destination_lat, ride.destination_lon,
             ride.destination_address, ride.credentials, ride.completed_at, ride.on_board_at)
    return hashlib.sha256(repr(shown).encode()).hexdigest()


def receipt_pdf(ride) -> bytes:
    """The ride's receipt PDF: from the cache, or built in this process's one slot; :class:`Busy` after waiting."""
    mark = fingerprint(ride)
    hit = cache.get(_key(ride.pk))
    if hit is not None and hit[0] == mark:
        return hit[1]
    if not BUILD_SLOTS.acquire(timeout=WAIT_SECONDS):
        raise Busy
    try:
        hit = cache.get(_key(ride.pk))  # built while this one waited
        if hit is not None and hit[0] == mark:
            return hit[1]
        pdf = documents.receipt_pdf(receipts.receipt(ride))
        cache.set(_key(ride.pk), (mark, pdf), CACHE_SECONDS)
        return pdf
    finally:
        BUILD_SLOTS.release()


def forget(ride_ids) -> None:
    """Drop the cached receipts of these rides (erasure: they showed the passenger's addresses)."""
    cache.delete_many([_key(pk) for pk in ride_ids])
