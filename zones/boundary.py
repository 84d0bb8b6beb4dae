"""Is a place inside the municipality of Muriaé? Pickups, destinations, ranks and address lookups ask here.

Lei 1.242/1987 governs the taxi service of the municipality (Art. 25: the
peripheral zone is the rest of the municipality; Art. 23: ranks are on its
public streets). A place outside the IBGE boundary (``data/muriae_boundary.geojson``)
is refused with a pt-BR reason naming the municipality.
"""

from __future__ import annotations

import math

import shapely

from taxilaw import territory
from taxilaw.decision import Reason

from .geojson import load_municipality


def inside_municipality(lon: float, lat: float) -> bool:
    """True when (lon, lat) is a finite point inside the municipal boundary."""
    return math.isfinite(lon) and math.isfinite(lat) and bool(shapely.contains_xy(load_municipality(), lon, lat))


def outside_reason(lon: float, lat: float) -> Reason:
    """Why a place outside the municipality is refused (the core's ground, Art. 25)."""
    return territory.outside_municipality(lon, lat)
