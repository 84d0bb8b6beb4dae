"""The API's rate limits: counted in the shared cache (Redis, ``REDIS_URL``), in this process while it is unreachable.

DRF's throttles read and write their history in the default cache; with Redis down every throttled
request (login, sign-up, address search, the fare estimate, ratings) raised and answered 500. Here a
failed cache call is answered from this process's memory instead, and the shared cache is tried again
after ``RETRY_SECONDS``: the rate then holds per process (at most N processes times the rate) instead of
once for the city, and nothing answers 500. Why each limit may fall back rather than refuse:
docs/security.md ("Rate limits without Redis").
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time

from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from redis.exceptions import RedisError
from rest_framework import throttling

log = logging.getLogger(__name__)


class FallbackCache:
    """The default cache's ``get``/``set``, or this process's memory while the default cache fails."""

    RETRY_SECONDS = 5.0  # a dead Redis is asked again this often, not on every request

    def __init__(self):
        self._local = LocMemCache("rate-limits-fallback", {"MAX_ENTRIES": 100_000})
        self._lock = threading.Lock()
        self._retry_at = 0.0  # monotonic; 0: the shared cache is believed up
        self.fallbacks = 0  # calls answered from this process's memory since it started

    def get(self, key, default=None):
        return self._call("get", key, default)

    def set(self, key, value, timeout=None):
        return self._call("set", key, value, timeout)

    def _call(self, name: str, *args):
        if time.monotonic() >= self._retry_at:
            try:
                result = getattr(caches["default"], name)(*args)
            except (RedisError, OSError) as exc:
                with self._lock:
                    first = self._retry_at == 0.0
                    self._retry_at = time.monotonic() + self.RETRY_SECONDS
                if first:
                    log.warning("rate limits: the shared cache failed (%s); counting in this process until it answers", exc)
            else:
                if self._retry_at:
                    with self._lock:
                        self._retry_at = 0.0
                    log.warning("rate limits: the shared cache answers again; counting there")
                return result
        self.fallbacks += 1
        return getattr(self._local, name)(*args)


fallback_cache = FallbackCache()


class AnonRateThrottle(throttling.AnonRateThrottle):
    cache = fallback_cache


class UserRateThrottle(throttling.UserRateThrottle):
    cache = fallback_cache


class PassengerRateThrottle(throttling.SimpleRateThrottle):
    """Rates per passenger for their writes (bookings, complaints, ratings).

    DRF's ``AnonRateThrottle`` counts only anonymous requests: a passenger is authenticated (``PassengerPrincipal``), so
    on their writes it never applied. These count per passenger (a digest of their token: ids are reused by test
    databases, a token never is), and per address for anyone else. The caps that hold over a day or a ride are the
    services' (named parameters); these only spread a burst.
    """

    cache = fallback_cache

    def get_cache_key(self, request, view):
        passenger = getattr(request.user, "passenger", None)
        if passenger is not None:
            ident = "p" + hashlib.sha256(passenger.token.encode()).hexdigest()[:24]
        elif request.user and request.user.is_authenticated:
            ident = f"u{request.user.pk}"
        else:
            ident = self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class BookingThrottle(PassengerRateThrottle):
    scope, rate = "booking", "30/hour"


class ComplaintThrottle(PassengerRateThrottle):
    scope, rate = "complaint", "10/hour"


class RatingThrottle(PassengerRateThrottle):
    scope, rate = "rating", "30/hour"
