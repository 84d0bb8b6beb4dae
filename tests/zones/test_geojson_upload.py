"""Uploading the municipality's surveyed central-zone polygon (Art. 24)."""

import json

import pytest
from shapely.geometry import Polygon

from zones import ZoneFileError, load_polygon_geojson
from zones.geojson import CENTRAL_ZONE_FILE

# a small square around Praça João Pinheiro
SQUARE = [[-42.366, -21.133], [-42.362, -21.133], [-42.362, -21.130], [-42.366, -21.130], [-42.366, -21.133]]


def polygon(ring):
    return {"type": "Polygon", "coordinates": [ring]}


@pytest.mark.article("Art. 24")
def test_valid_polygon_is_accepted_as_text_geometry_feature_and_collection():
    for doc in (
        json.dumps(polygon(SQUARE)),
        {"type": "Feature", "properties": {}, "geometry": polygon(SQUARE)},
        {"type": "FeatureCollection", "features": [
            {"type": "Feature", "properties": {}, "geometry": polygon(SQUARE)},
            {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": SQUARE[0]}},
        ]},
    ):
        poly = load_polygon_geojson(doc)
        assert isinstance(poly, Polygon) and poly.is_valid and poly.area > 0


@pytest.mark.article("Art. 24")
def test_shipped_file_passes_its_own_validation():
    assert load_polygon_geojson(CENTRAL_ZONE_FILE.read_text("utf-8")).is_valid


@pytest.mark.article("Art. 24")
def test_self_intersecting_polygon_is_refused_with_explanation():
    bowtie = [[-42.366, -21.133], [-42.362, -21.130], [-42.362, -21.133], [-42.366, -21.130], [-42.366, -21.133]]
    with pytest.raises(ZoneFileError) as err:
        load_polygon_geojson(polygon(bowtie))
    assert err.value.code == "zone_file_invalid"
    assert "Self-intersection" in err.value.message
    assert "Art. 24" in err.value.message
    assert err.value.reason.article == "Art. 24"


@pytest.mark.article("Art. 24")
def test_open_ring_is_refused():
    with pytest.raises(ZoneFileError) as err:
        load_polygon_geojson(polygon(SQUARE[:-1]))
    assert err.value.code == "zone_file_ring_open"
    assert "não está fechado" in err.value.message and "Art. 24" in err.value.message


@pytest.mark.article("Art. 24")
def test_polygon_outside_the_municipality_is_refused():
    cataguases = [[-42.70, -21.39], [-42.69, -21.39], [-42.69, -21.38], [-42.70, -21.38], [-42.70, -21.39]]
    with pytest.raises(ZoneFileError) as err:
        load_polygon_geojson(polygon(cataguases))
    assert err.value.code == "zone_file_outside_municipality"
    assert "Art. 24" in err.value.message


@pytest.mark.article("Art. 24")
def test_polygon_crossing_the_boundary_is_refused_but_a_tiny_overlap_is_tolerated():
    from shapely import affinity
    from shapely.geometry import mapping

    from zones.geojson import load_municipality

    muni = load_municipality()
    # the whole municipality grown by 1 % (hundreds of metres beyond the boundary): refused
    grown = affinity.scale(muni, 1.01, 1.01, origin="centroid")
    with pytest.raises(ZoneFileError) as err:
        load_polygon_geojson(mapping(grown))
    assert err.value.code == "zone_file_outside_municipality"
    assert err.value.reason.params["metres"] > 100
    # grown by one millionth (centimetres): within the tolerance
    assert load_polygon_geojson(mapping(affinity.scale(muni, 1.000001, 1.000001, origin="centroid"))).is_valid


@pytest.mark.article("Art. 24")
@pytest.mark.parametrize(
    "doc,code",
    [
        ("{not json", "zone_file_not_json"),
        ({"type": "Point", "coordinates": [-42.36, -21.13]}, "zone_file_not_polygon"),
        ({"type": "FeatureCollection", "features": [
            {"type": "Feature", "geometry": polygon(SQUARE)}, {"type": "Feature", "geometry": polygon(SQUARE)}]},
         "zone_file_polygon_count"),
        (polygon(SQUARE[:2] + [SQUARE[0]]), "zone_file_ring_too_short"),
        (polygon([[-21.133, -42.366], [-21.133, -42.362], [-21.130, -42.362], [-21.133, -42.366]]),
         "zone_file_outside_municipality"),
        (polygon([[400, 10], [401, 10], [401, 11], [400, 10]]), "zone_file_not_lonlat"),
    ],
)
def test_malformed_files_are_refused(doc, code):
    with pytest.raises(ZoneFileError) as err:
        load_polygon_geojson(doc)
    assert err.value.code == code
    assert "Art. 24" in err.value.message
