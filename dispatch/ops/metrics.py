"""Every Prometheus metric of a serving process, in one place (prometheus-client; docs/operations.md).

Each Daphne process counts what it does itself and exposes it at its own ``/metrics`` (``dispatch.web.ops_views``):
scrape every process, never through the load balancer. The offering workers beside a process count nothing:
what they make comes back through the process's outbox (``dispatch.events.announcements.post``), where it is counted.
Counters are totals since the process started; per minute is the scrape's ``rate()``.

Imported before Django is set up (``dispatch.events.announcements`` in an offering worker): no model at module level.
"""

from __future__ import annotations

import time
import weakref

from django.db.backends.signals import connection_created
from prometheus_client import Counter, Gauge, Histogram

DRIVER_SOCKETS = Gauge("dispatch_driver_sockets", "Driver websockets open in this process (accepted, cab online)")
OFFERS = Counter("dispatch_offers", "Offers of a ride sent to a cab through this process")
ESCALATIONS = Counter("dispatch_escalations", "Rides escalated to the operators through this process (no cab may take them)")
REQUEST_TO_OFFER = Histogram(
    "dispatch_request_to_offer_seconds",
    "A passenger's ride_request frame to its ride written offered (or escalated), in this process",
    ["outcome"], buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
TICK_LAG = Histogram(
    "dispatch_tick_lag_seconds",
    "How much later than its interval each background tick of this process finished after the previous one",
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0),
)
TICK_AGE = Gauge("dispatch_tick_age_seconds", "Seconds since this process's background tick last finished (NaN: never)")
FRAMES_REJECTED = Counter("dispatch_frames_rejected", "Inbound websocket frames refused, by reason", ["reason"])
ANNOUNCEMENT_FAILURES = Counter("dispatch_announcement_failures", "Announcements the channel layer failed to send (each attempt)")
ANNOUNCEMENTS_LOST = Counter(
    "dispatch_announcements_lost", "Announcements given up after every attempt (their group is owed a resync: dispatch.events.announcements)",
)
RESYNCS = Counter("dispatch_resyncs", "Resyncs sent to groups whose announcement was lost (their sockets send fresh snapshots)")
DB_CONNECTIONS = Gauge("dispatch_db_connections", "Database connections this process holds open (its threads')")
CABS_REGISTERED = Gauge(
    "dispatch_cabs_registered",
    "Cabs the dispatcher sees connected through this process (its connection rows; below dispatch_driver_sockets: "
    "sockets whose cab the dispatcher ignores)",
)
REJECTIONS = ("flood", "protocol", "auth_required")
for _reason in REJECTIONS:
    FRAMES_REJECTED.labels(_reason)  # exported as 0 before the first one
for _outcome in ("offered", "escalated"):
    REQUEST_TO_OFFER.labels(_outcome)

_last_tick: float | None = None
_last_lag = 0.0
_wrappers: weakref.WeakSet = weakref.WeakSet()


def rejected(reason: str) -> None:
    FRAMES_REJECTED.labels(reason).inc()


def announced(message: dict | list) -> None:
    """Count an announcement leaving this process (``announcements.post``): offers and escalations."""
    for frame in message if isinstance(message, list) else (message,):
        kind = frame.get("type")
        if kind == "offer":
            OFFERS.inc()
        elif kind == "escalation":
            ESCALATIONS.inc()


def requested(ride, received: float) -> None:
    """A passenger's request answered: ``received`` is the ``time.perf_counter()`` of its frame."""
    outcome = "offered" if ride.status == "offered" else "escalated"
    REQUEST_TO_OFFER.labels(outcome).observe(time.perf_counter() - received)


def ticked(interval: float) -> float:
    """This process's background tick finished; returns its lag (seconds later than ``interval`` after the last)."""
    global _last_tick, _last_lag
    now = time.monotonic()
    if _last_tick is not None:
        _last_lag = max(0.0, now - _last_tick - interval)
        TICK_LAG.observe(_last_lag)
    _last_tick = now
    return _last_lag


def tick_age() -> float | None:
    """Seconds since this process's tick last finished; None if it never ran here."""
    return None if _last_tick is None else time.monotonic() - _last_tick


def last_tick_lag() -> float:
    return _last_lag


def _db_connections() -> int:
    return sum(1 for wrapper in list(_wrappers) if wrapper.connection is not None)


def _track_connection(sender, connection, **kwargs) -> None:
    _wrappers.add(connection)


def _cabs_registered() -> float:
    from dispatch.ops.health import registered_here  # the models, once Django is set up

    try:
        return registered_here()
    except Exception:  # the database is down: the scrape still answers (and /readyz says why)
        return float("nan")


connection_created.connect(_track_connection, dispatch_uid="dispatch.ops.metrics")
TICK_AGE.set_function(lambda: float("nan") if _last_tick is None else tick_age())
DB_CONNECTIONS.set_function(_db_connections)
CABS_REGISTERED.set_function(_cabs_registered)
