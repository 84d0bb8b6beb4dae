"""Rates per passenger for their writes (bookings, complaints, ratings).

DRF's ``AnonRateThrottle`` counts only anonymous requests: a passenger is authenticated (``PassengerPrincipal``), so
on their writes it never applied. These count per passenger (a digest of their token: ids are reused by test
databases, a token never is), and per address for anyone else. The caps that hold over a day or a ride are the
services' (named parameters); these only spread a burst.
"""

import hashlib

from rest_framework.throttling import SimpleRateThrottle


class PassengerRateThrottle(SimpleRateThrottle):
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
