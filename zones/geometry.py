"""Small metric helpers for lon/lat geometries around Muriaé (no projection library)."""

from __future__ import annotations

import math

from shapely import affinity
from shapely.geometry.base import BaseGeometry

METRES_PER_DEGREE_LAT = 110_574.0
METRES_PER_DEGREE_LON_EQUATOR = 111_320.0


def _factors(lat: float) -> tuple[float, float]:
    return METRES_PER_DEGREE_LON_EQUATOR * math.cos(math.radians(lat)), METRES_PER_DEGREE_LAT


def buffer_metres(geom: BaseGeometry, metres: float, quad_segs: int = 4) -> BaseGeometry:
    """Buffer a lon/lat geometry by ``metres`` in a local equirectangular frame.

    Good to well under 1 % for buffers of metres to hundreds of metres at the
    scale of a municipality; there is no need for pyproj here.
    """
    if metres == 0:
        return geom
    lat = geom.centroid.y
    kx, ky = _factors(lat)
    local = affinity.scale(geom, xfact=kx, yfact=ky, origin=(0, 0))
    grown = local.buffer(metres, quad_segs=quad_segs)
    return affinity.scale(grown, xfact=1 / kx, yfact=1 / ky, origin=(0, 0))


def distance_metres(a: BaseGeometry, b: BaseGeometry) -> float:
    """Approximate distance in metres between two lon/lat geometries."""
    lat = (a.centroid.y + b.centroid.y) / 2
    kx, ky = _factors(lat)
    la = affinity.scale(a, xfact=kx, yfact=ky, origin=(0, 0))
    lb = affinity.scale(b, xfact=kx, yfact=ky, origin=(0, 0))
    return la.distance(lb)
