"""The bairro of a point, from the gazetteer's streets (zones.gazetteer), cached per point."""

from __future__ import annotations

from functools import lru_cache

from zones.gazetteer import AddressError, default_gazetteer

OUTSIDE = "Fora do município"
UNNAMED = "Sem bairro conhecido"


@lru_cache(maxsize=65536)
def bairro_at(lat: float, lon: float) -> str:
    try:
        found = default_gazetteer().reverse(lon, lat)
    except AddressError:
        return OUTSIDE
    return found.bairro or UNNAMED
