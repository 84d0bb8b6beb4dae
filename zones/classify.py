"""Which zone a point is in: central (Art. 24), peripheral (Art. 25) or outside.

Art. 24 defines the central zone as the streets inside the polygon bounded by
the streets it names and the Rio Muriaé, *the boundary streets included*
("o conjunto de vias que integram ... a poligonal"). The traced polygon runs
along those streets' geocodes (their axis), so the classifier grows it by
``street_tolerance_m`` (half a street width plus geocode noise) before
testing: a cab standing on Rua Paschoal Bernardino is in the central zone.

Art. 25: the peripheral zone is every public street of the municipality not
in the central zone. A point outside the IBGE boundary is OUTSIDE.
"""

from __future__ import annotations

import enum
import json
from functools import lru_cache
from typing import Iterable

import numpy as np
import shapely
from shapely.geometry import Polygon

from taxilaw.i18n import gettext_noop as _

from .geojson import CENTRAL_ZONE_FILE, load_municipality, load_polygon_geojson
from .geometry import buffer_metres

#: Metres by which the central polygon is grown so that the boundary streets
#: themselves (Art. 24: "conjunto de vias") count as central.
STREET_TOLERANCE_M = 15.0


class Zone(str, enum.Enum):
    """Art. 24 (central), Art. 25 (peripheral); OUTSIDE the municipality."""

    CENTRAL = "central"
    PERIPHERAL = "peripheral"
    OUTSIDE = "outside"

    @property
    def code(self) -> int:
        return _CODES[self]

    @classmethod
    def from_code(cls, code: int) -> "Zone":
        return _BY_CODE[int(code)]

    @property
    def article(self) -> str:
        return {"central": "Art. 24", "peripheral": "Art. 25", "outside": "Art. 25"}[self.value]

    @property
    def label(self) -> str:
        return {
            "central": _("Zona central"),
            "peripheral": _("Zona periférica"),
            "outside": _("Fora do município de Muriaé"),
        }[self.value]


OUTSIDE_CODE, PERIPHERAL_CODE, CENTRAL_CODE = 0, 1, 2
_CODES = {Zone.OUTSIDE: OUTSIDE_CODE, Zone.PERIPHERAL: PERIPHERAL_CODE, Zone.CENTRAL: CENTRAL_CODE}
_BY_CODE = {v: k for k, v in _CODES.items()}
_ZONES_BY_CODE = np.array([Zone.OUTSIDE, Zone.PERIPHERAL, Zone.CENTRAL], dtype=object)


class ZoneClassifier:
    """Classify lon/lat points (WGS 84) against prepared geometries.

    ``central`` is the Art. 24 polygon as traced (the streets' axis);
    ``municipality`` the IBGE boundary. Both are prepared once.
    """

    def __init__(self, central: Polygon, municipality: Polygon, street_tolerance_m: float = STREET_TOLERANCE_M):
        self.central = central
        self.municipality = municipality
        self.street_tolerance_m = street_tolerance_m
        # The (grown) central zone never leaves the municipality.
        self._central = shapely.intersection(buffer_metres(central, street_tolerance_m), municipality)
        self._municipality = municipality
        shapely.prepare(self._central)
        shapely.prepare(self._municipality)

    def classify(self, lon: float, lat: float) -> Zone:
        """Zone of one point (Art. 24, Art. 25)."""
        if not shapely.contains_xy(self._municipality, lon, lat):
            return Zone.OUTSIDE
        if shapely.contains_xy(self._central, lon, lat):
            return Zone.CENTRAL
        return Zone.PERIPHERAL

    def classify_codes(self, lons: Iterable[float], lats: Iterable[float]) -> np.ndarray:
        """Vectorized: an int8 array of OUTSIDE_CODE / PERIPHERAL_CODE / CENTRAL_CODE."""
        x = np.asarray(lons, dtype=float)
        y = np.asarray(lats, dtype=float)
        if x.shape != y.shape:
            raise ValueError("lons and lats must have the same shape")
        codes = shapely.contains_xy(self._municipality, x, y).astype(np.int8)  # 1 inside, 0 outside
        inside = codes.astype(bool)
        if inside.any():
            central = shapely.contains_xy(self._central, x[inside], y[inside])
            codes[inside] += central.astype(np.int8)
        return codes

    def classify_many(self, lons: Iterable[float], lats: Iterable[float]) -> np.ndarray:
        """Vectorized (shapely 2 ``contains_xy``): an object array of :class:`Zone`."""
        return _ZONES_BY_CODE[self.classify_codes(lons, lats)]


def load_default_polygons() -> tuple[Polygon, Polygon]:
    """(central, municipality) from the files shipped in ``zones/data``."""
    municipality = load_municipality()
    central = load_polygon_geojson(json.loads(CENTRAL_ZONE_FILE.read_text("utf-8")), municipality)
    return central, municipality


@lru_cache(maxsize=1)
def default_classifier() -> ZoneClassifier:
    """The classifier over the shipped (approximate) Art. 24 polygon, cached."""
    central, municipality = load_default_polygons()
    return ZoneClassifier(central, municipality)
