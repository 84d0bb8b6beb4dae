"""A receipt built once, and one at a time in a process (issue 27: eight anonymous clients fetching a long ride's
receipt PDF held a Daphne process's event loop for 1.7 s).

Sync views run in threads under ASGI, but building a receipt is pure Python (the meter re-run over a trace of up
to ``meter_max_trace_fixes`` fixes, then fpdf2 for the PDF): about half a second each for 5,000 fixes, holding
the GIL in turns with the event loop. Eight builds at once left the loop one turn in nine. So a process builds one
receipt at a time (``BUILD_SLOTS``): its data (the page, the passenger's JSON) or its PDF; a request that waits
longer than ``WAIT_SECONDS`` for its turn is answered 503 with ``Retry-After`` (bounded work, no pile of waiting
threads). What is built is kept in the cache (shared by the processes when Redis is configured) for
``CACHE_SECONDS`` under a fingerprint of what the receipt shows, in the request's language, so the same receipt
fetched again is not built again. Erasure forgets a passenger's cached receipts (:func:`forget`).
"""

from __future__ import annotations

import hashlib
import threading

from django.core.cache import cache
from django.utils import translation

from . import documents, receipts

BUILD_SLOTS = threading.BoundedSemaphore(1)
WAIT_SECONDS = 10
RETRY_AFTER_SECONDS = 5
CACHE_SECONDS = 600


class Busy(Exception):
    """Another receipt is being built and this one waited its whole turn."""


KINDS = ("data", "pdf")


def _key(kind: str, ride_id: int) -> str:
    return f"receipt-{kind}:{ride_id}"


def fingerprint(ride) -> str:
    """What the receipt shows, cheaply (the trace by its size and ends), and in which language: a changed ride
    is a different receipt."""
    trace = ride.trace or []
    shown = (translation.get_language(), ride.version, ride.status, ride.fare, ride.meter_reading,
             ride.correction_factor, ride.server_total, ride.meter_disagreement, ride.distance_m, len(trace),
             trace[:1], trace[-1:], ride.pickup_lat, ride.pickup_lon, ride.pickup_address, ride.destination_lat,
             ride.destination_lon, ride.destination_address, ride.credentials, ride.completed_at, ride.on_board_at,
             ride.passenger_id, ride.requested_at)
    return hashlib.sha256(repr(shown).encode()).hexdigest()


def _cached(kind: str, ride_id: int, mark: str):
    hit = cache.get(_key(kind, ride_id))
    return hit[1] if hit is not None and hit[0] == mark else None


def _built(kind: str, ride, make):
    """The cached ``kind`` of the ride's receipt, or ``make(mark)`` in this process's one slot; :class:`Busy`
    after waiting ``WAIT_SECONDS`` for it."""
    mark = fingerprint(ride)
    hit = _cached(kind, ride.pk, mark)
    if hit is not None:
        return hit
    if not BUILD_SLOTS.acquire(timeout=WAIT_SECONDS):
        raise Busy
    try:
        hit = _cached(kind, ride.pk, mark)  # built while this one waited
        if hit is None:
            hit = make(mark)
            cache.set(_key(kind, ride.pk), (mark, hit), CACHE_SECONDS)
        return hit
    finally:
        BUILD_SLOTS.release()


def _data(ride, mark: str) -> dict:
    """Inside the slot: the receipt's data, cached for the page and the PDF alike."""
    data = _cached("data", ride.pk, mark)
    if data is None:
        data = receipts.receipt(ride)
        cache.set(_key("data", ride.pk), (mark, data), CACHE_SECONDS)
    return data


def receipt_data(ride) -> dict:
    """What the receipt shows (``receipts.receipt``), for its page and the passenger's JSON."""
    return _built("data", ride, lambda mark: _data(ride, mark))


def receipt_pdf(ride) -> bytes:
    """The receipt as a PDF."""
    return _built("pdf", ride, lambda mark: documents.receipt_pdf(_data(ride, mark)))


def forget(ride_ids) -> None:
    """Drop the cached receipts of these rides (erasure: they showed the passenger's addresses)."""
    cache.delete_many([_key(kind, pk) for pk in ride_ids for kind in KINDS])
