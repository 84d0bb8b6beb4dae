"""Distances on the WGS-84 ellipsoid, for the meter (Art. 43) and the dispatcher (Art. 66).

geopy's own geodesic engine (geographiclib) is called directly through one shared instance:
``geopy.distance.geodesic(a, b)`` builds a new engine and two ``Point`` objects per call, which
doubles the cost (~100 µs against ~50 µs).
"""

from __future__ import annotations

from geographiclib.geodesic import Geodesic

_WGS84 = Geodesic.WGS84


def distance_m(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Geodesic distance on WGS-84 in metres (same result as geopy's ``geodesic``)."""
    return _WGS84.Inverse(lat1, lon1, lat2, lon2, Geodesic.DISTANCE)["s12"]
