"""Distances on the WGS-84 ellipsoid, for the meter (Art. 43) and the dispatcher (Art. 66).

geopy's own geodesic engine (geographiclib) is called directly through one shared instance:
``geopy.distance.geodesic(a, b)`` builds a new engine and two ``Point`` objects per call, which
doubles the cost (~100 µs against ~50 µs).

The meter measures thousands of short GPS segments per trip; for those
:func:`segment_distance_m` uses the ellipsoid's local flat-earth formula (the
meridian and prime-vertical radii of curvature at the mean latitude), ~40x
cheaper than the geodesic and within :data:`SEGMENT_ERROR_M` (0.1 mm) of it
(tests/law/test_geodesy.py; docs/meter.md).  Longer or polar segments go to
geographiclib.
"""

from __future__ import annotations

from math import cos, radians, sin, sqrt

from geographiclib.geodesic import Geodesic

_WGS84 = Geodesic.WGS84
_A = _WGS84.a
_E2 = _WGS84.f * (2 - _WGS84.f)

# The flat-earth formula is used when both coordinate differences are at most this
# (about 2.2 km north-south, 2.1 km east-west at Muriaé's latitude) and away from the poles.
SEGMENT_MAX_DEG = 0.02
SEGMENT_MAX_LAT = 80.0
# Its stated error bound against the geodesic inside those limits (the tests check it).
SEGMENT_ERROR_M = 0.0001
# The flat distance with :func:`degree_m`'s scales at one point is within this fraction of the geodesic
# to any point within DEGREE_SCALE_MAX_DEG of it in both coordinates, at |lat| <= 60° (the tests check it).
DEGREE_SCALE_ERROR = 1e-3
DEGREE_SCALE_MAX_DEG = 0.07


def distance_m(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Geodesic distance on WGS-84 in metres (same result as geopy's ``geodesic``)."""
    return _WGS84.Inverse(lat1, lon1, lat2, lon2, Geodesic.DISTANCE)["s12"]


def degree_m(lat: float) -> tuple[float, float]:
    """Metres per degree of latitude and of longitude at ``lat`` on WGS-84 (the meridian and
    prime-vertical radii of curvature): the scales of :func:`segment_distance_m`'s flat formula."""
    phi = radians(lat)
    s = sin(phi)
    w2 = 1.0 - _E2 * s * s
    n = _A / sqrt(w2)
    return radians(n * (1.0 - _E2) / w2), radians(n * cos(phi))


def segment_distance_m(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """WGS-84 distance in metres of a GPS segment: within ``SEGMENT_ERROR_M`` of :func:`distance_m`.

    Short segments (both differences <= ``SEGMENT_MAX_DEG``, latitudes within
    ``SEGMENT_MAX_LAT``) use the local flat-earth formula on the ellipsoid; the
    rest use the geodesic."""
    dlat, dlon = lat2 - lat1, lon2 - lon1
    if (-SEGMENT_MAX_DEG <= dlat <= SEGMENT_MAX_DEG and -SEGMENT_MAX_DEG <= dlon <= SEGMENT_MAX_DEG
            and -SEGMENT_MAX_LAT <= lat1 <= SEGMENT_MAX_LAT):
        phi = radians(lat1 + 0.5 * dlat)
        s = sin(phi)
        w2 = 1.0 - _E2 * s * s
        n = _A / sqrt(w2)  # prime-vertical radius of curvature
        m = n * (1.0 - _E2) / w2  # meridian radius of curvature
        dy = m * radians(dlat)
        dx = n * cos(phi) * radians(dlon)
        return sqrt(dx * dx + dy * dy)
    return distance_m(lat1, lon1, lat2, lon2)
