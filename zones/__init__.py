"""Zones of Lei 1.242/1987 (Art. 24 central, Art. 25 peripheral) with Shapely.

Plain Python (no Django): the backend passes the zone of a rank to the law
core (``taxilaw``) as a value.
"""

from .classify import Zone, ZoneClassifier, default_classifier, load_default_polygons
from .geojson import ZoneFileError, load_municipality, load_polygon_geojson

__all__ = [
    "Zone",
    "ZoneClassifier",
    "ZoneFileError",
    "default_classifier",
    "load_default_polygons",
    "load_municipality",
    "load_polygon_geojson",
]
