"""Loading and validating a central-zone polygon (Art. 24) from GeoJSON.

The shipped ``data/central_zone.geojson`` is an approximation; the
municipality replaces it by uploading its surveyed polygon. Every upload goes
through :func:`load_polygon_geojson`, which refuses anything that is not one
closed, valid polygon inside the municipality, with a pt-BR message citing
Art. 24.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

import shapely
from shapely.geometry import Polygon, shape
from shapely.validation import explain_validity

from taxilaw import territory

from .geometry import buffer_metres, distance_metres

DATA_DIR = Path(__file__).resolve().parent / "data"
CENTRAL_ZONE_FILE = DATA_DIR / "central_zone.geojson"
BOUNDARY_FILE = DATA_DIR / "muriae_boundary.geojson"

#: How far (metres) an uploaded central zone may stick out of the IBGE
#: boundary. The shipped boundary is simplified; the centre is kilometres
#: away from it, so this only absorbs rounding.
MUNICIPALITY_TOLERANCE_M = 10.0

ARTICLE = territory.ARTICLE


class ZoneFileError(ValueError):
    """An uploaded central-zone file was refused; ``reason`` renders in pt-BR."""

    def __init__(self, code: str, **params: Any):
        self.reason = territory.zone_file_refusal(code, **params)
        self.code = code
        super().__init__(self.reason.message)

    @property
    def message(self) -> str:
        return self.reason.message


def _parse(text_or_dict: str | bytes | Mapping[str, Any]) -> Mapping[str, Any]:
    if isinstance(text_or_dict, Mapping):
        return text_or_dict
    try:
        data = json.loads(text_or_dict)
    except (TypeError, ValueError) as exc:
        raise ZoneFileError("zone_file_not_json", error=str(exc)) from None
    if not isinstance(data, Mapping):
        raise ZoneFileError("zone_file_not_object")
    return data


def _single_polygon_geometry(data: Mapping[str, Any]) -> Mapping[str, Any]:
    kind = data.get("type")
    if kind == "FeatureCollection":
        geoms = [f.get("geometry") or {} for f in data.get("features") or [] if isinstance(f, Mapping)]
        polys = [g for g in geoms if g.get("type") in ("Polygon", "MultiPolygon")]
        if len(polys) != 1:
            raise ZoneFileError("zone_file_polygon_count", count=len(polys))
        geometry = polys[0]
    elif kind == "Feature":
        geometry = data.get("geometry") or {}
    else:
        geometry = data
    if geometry.get("type") == "MultiPolygon" and len(geometry.get("coordinates") or []) == 1:
        geometry = {"type": "Polygon", "coordinates": geometry["coordinates"][0]}
    if geometry.get("type") != "Polygon":
        raise ZoneFileError("zone_file_not_polygon", kind=str(geometry.get("type")))
    return geometry


def _check_rings(geometry: Mapping[str, Any]) -> None:
    rings = geometry.get("coordinates")
    if not isinstance(rings, (list, tuple)) or not rings:
        raise ZoneFileError("zone_file_no_coordinates")
    for index, ring in enumerate(rings):
        try:
            positions = [(float(p[0]), float(p[1])) for p in ring]
        except (TypeError, ValueError, IndexError):
            raise ZoneFileError("zone_file_bad_position", ring=index + 1) from None
        if len(positions) < 4:
            raise ZoneFileError("zone_file_ring_too_short", ring=index + 1, count=len(positions))
        if positions[0] != positions[-1]:
            raise ZoneFileError("zone_file_ring_open", ring=index + 1)
        for lon, lat in positions:
            if not (-180 <= lon <= 180 and -90 <= lat <= 90):
                raise ZoneFileError("zone_file_not_lonlat")


@lru_cache(maxsize=1)
def load_municipality() -> Polygon:
    """The shipped IBGE boundary of Muriaé (3143906), CC0, tbrugz/geodata-br."""
    data = json.loads(BOUNDARY_FILE.read_text("utf-8"))
    geom = shape(_single_polygon_geometry(data))
    shapely.prepare(geom)
    return geom


def load_polygon_geojson(
    text_or_dict: str | bytes | Mapping[str, Any],
    municipality: Polygon | None = None,
    tolerance_m: float = MUNICIPALITY_TOLERANCE_M,
) -> Polygon:
    """Parse and validate a central-zone polygon (Art. 24) and return it.

    Accepts a Polygon geometry, a Feature, or a FeatureCollection holding
    exactly one (Multi)Polygon (Point features, such as the vertex table of
    the shipped file, are ignored). Raises :class:`ZoneFileError`.
    """
    data = _parse(text_or_dict)
    geometry = _single_polygon_geometry(data)
    _check_rings(geometry)
    polygon = shape(geometry)
    if not shapely.is_valid(polygon):
        raise ZoneFileError("zone_file_invalid", detail=explain_validity(polygon))
    if polygon.is_empty or polygon.area == 0:
        raise ZoneFileError("zone_file_empty")
    muni = municipality if municipality is not None else load_municipality()
    if not buffer_metres(muni, tolerance_m).covers(polygon):
        from shapely.geometry import Point

        outside = polygon.difference(muni)
        coords = shapely.get_coordinates(outside)
        furthest = max((distance_metres(Point(xy), muni) for xy in coords), default=0.0)
        raise ZoneFileError("zone_file_outside_municipality", metres=round(furthest))
    return polygon
