"""Zone classification: Art. 24 (central), Art. 25 (peripheral), outside the municipality."""

import json
from pathlib import Path

import numpy as np
import pytest
import shapely
from shapely.geometry import Point, shape

from tools.build_central_zone import TRACE
from zones import Zone, ZoneClassifier, default_classifier, load_default_polygons
from zones.classify import CENTRAL_CODE, OUTSIDE_CODE, PERIPHERAL_CODE
from zones.gazetteer import STREETS_FILE
from zones.geojson import CENTRAL_ZONE_FILE
from zones.geometry import distance_metres

DATA = Path(__file__).resolve().parents[2] / "zones" / "data"
REFERENCE_POINTS = Path(__file__).resolve().parent / "data" / "muriae_pontos_centro.geojson"  # shipped (data/README.md)

# Items of Art. 24 for which geocoded points exist (copied from the reference file).
CENTRAL_STREET_POINTS = [
    ("Praça Cel. Pacheco de Medeiros (Câmara)", -42.36757, -21.1311092),
    ("Rua Cel. Domiciano, 26", -42.3675184, -21.1313751),
    ("Rua Cel. Domiciano, 53", -42.367233, -21.13149),
    ("Rua Cel. Domiciano, 47", -42.3681072, -21.1317302),
    ("Rua Dr. Afonso Canêdo, 124", -42.36805, -21.13185),
    ("Hospital São Paulo (PS)", -42.3651633, -21.1362544),
    ("Praça São Paulo, 109", -42.3650207, -21.1354965),
    ("Praça São Paulo, 130", -42.3653411, -21.1352098),
    ("Rua São Pedro, 17", -42.3643844, -21.1321699),
    ("Rua São Pedro, 103", -42.3642207, -21.1320901),
    ("Rua Dr. Silveira Brum, 1", -42.36465, -21.13231),
    ("Rua Dr. Silveira Brum, 86", -42.364279, -21.131834),
    ("Praça João Pinheiro, 39", -42.36430102427307, -21.131443544724124),
    ("Praça João Pinheiro, 20", -42.36289, -21.13154),
    ("Rua Paschoal Bernardino, 5", -42.3620136, -21.1316621),
    ("Rua Paschoal Bernardino, 161 (Banco do Brasil)", -42.361568, -21.1323133),
]

NAMED_ITEMS = {
    "Praça Cel. Pacheco de Medeiros", "Rua Cel. Domiciano", "Rua Dr. Afonso Canêdo", "Hospital São Paulo",
    "Praça São Paulo", "Rua São Pedro", "Rua Dr. Silveira Brum", "Praça João Pinheiro", "Rua Paschoal Bernardino",
}

OUTSIDE_PLACES = [
    ("Belo Horizonte, Praça Sete", -43.9378, -19.9208),
    ("Cataguases, centro", -42.6967, -21.3892),
    ("Rio de Janeiro, Centro", -43.1729, -22.9068),
]


@pytest.fixture(scope="module")
def clf() -> ZoneClassifier:
    return default_classifier()


#: The reference points are 2016 address geocodes (accuracy about 10-50 m, often the far side of the street).
GEOCODE_ACCURACY_M = 35.0


@pytest.mark.article("Art. 24")
@pytest.mark.parametrize("name,lon,lat", CENTRAL_STREET_POINTS, ids=[p[0] for p in CENTRAL_STREET_POINTS])
def test_addresses_on_named_central_streets_are_at_most_a_geocode_error_from_the_zone(name, lon, lat):
    central, _ = load_default_polygons()
    assert distance_metres(Point(lon, lat), central) <= GEOCODE_ACCURACY_M


@pytest.mark.article("Art. 24")
def test_every_reference_point_on_a_named_street_is_within_a_geocode_error(clf):
    central, _ = load_default_polygons()
    features = json.loads(REFERENCE_POINTS.read_text("utf-8"))["features"]
    named = [f for f in features if f["properties"]["art24_item"] in NAMED_ITEMS]
    assert len(named) >= 25
    far = [f["properties"]["name"] for f in named
           if distance_metres(Point(f["geometry"]["coordinates"]), central) > GEOCODE_ACCURACY_M]
    assert far == []
    central_now = clf.classify_many([f["geometry"]["coordinates"][0] for f in named],
                                    [f["geometry"]["coordinates"][1] for f in named])
    assert sum(z is Zone.CENTRAL for z in central_now) >= 0.8 * len(named)


def _streets() -> dict:
    return {f["properties"]["name"]: shape(f["geometry"]) for f in json.loads(STREETS_FILE.read_text("utf-8"))["features"]}


@pytest.mark.article("Art. 24")
@pytest.mark.parametrize("item,street,mode", [(t[0], t[1], t[2]) for t in TRACE if not t[1].startswith("landmark:")],
                         ids=[t[0] for t in TRACE if not t[1].startswith("landmark:")])
def test_every_street_art24_names_runs_along_the_boundary(item, street, mode):
    """The ring touches each named street, and where it follows one its vertices lie on that street."""
    central, _ = load_default_polygons()
    geometry = _streets()[street]
    assert distance_metres(geometry, central.exterior) <= 5.0, item
    doc = json.loads(CENTRAL_ZONE_FILE.read_text("utf-8"))
    own = [Point(f["geometry"]["coordinates"]) for f in doc["features"]
           if f["geometry"]["type"] == "Point" and f["properties"]["street"] == item]
    assert own, item
    assert max(distance_metres(p, geometry) for p in own) <= 30.0, item  # junctions sit between two streets


@pytest.mark.article("Art. 24")
def test_points_on_the_boundary_streets_are_central(clf):
    """Art. 24: the boundary streets belong to the zone; a cab standing on any of them is CENTRAL."""
    streets = _streets()
    for item, street, mode, _ in TRACE:
        if mode != "follow":
            continue
        line = streets[street]
        central, _ = load_default_polygons()
        near = line.intersection(central.exterior.buffer(0.0001))  # the stretch the ring follows
        for d in np.linspace(0.1, 0.9, 5):
            p = near.interpolate(d, normalized=True) if not near.is_empty else None
            if p is not None:
                assert clf.classify(p.x, p.y) is Zone.CENTRAL, (item, p)


@pytest.mark.article("Art. 24")
def test_shipped_polygon_is_valid_and_documents_every_vertex():
    central, _ = load_default_polygons()
    assert shapely.is_valid(central)
    doc = json.loads(CENTRAL_ZONE_FILE.read_text("utf-8"))
    polys = [f for f in doc["features"] if f["geometry"]["type"] == "Polygon"]
    vertices = [f for f in doc["features"] if f["geometry"]["type"] == "Point"]
    assert len(polys) == 1 and polys[0]["properties"]["approximation"] is True
    ring = polys[0]["geometry"]["coordinates"][0]
    assert len(vertices) == len(ring) - 1
    assert [v["properties"]["index"] for v in vertices] == list(range(1, len(vertices) + 1))
    for v in vertices:
        p = v["properties"]
        assert p["street"] and p["source"]
        assert p["confidence"] in {"street geometry", "medium", "approximate"}
    # the law's order, closing along Av. Juscelino Kubitschek
    items = list(dict.fromkeys(v["properties"]["street"] for v in vertices))
    assert items == [t[0] for t in TRACE]
    assert items[0] == "Rua Gil Moreira" and items[-1] == "Av. Juscelino Kubitschek"
    readings = {v["properties"]["street"]: v["properties"].get("note", "") for v in vertices}
    assert "Monsenhor Soares" in readings["Rua Maestro Soares"]
    assert "Ponte do Porto" in readings["Rua Cel. Pereira Sobrinho até atingir a ponte do Porto"]
    # approximate: only the straight links where consecutive items do not meet, the last one the river closure
    approximate = [v["properties"] for v in vertices if v["properties"]["confidence"] == "approximate"]
    assert [p["street"] for p in approximate] == ["Dr. Afonso Canêdo até ao Hospital São Paulo", "Av. Juscelino Kubitschek"]
    assert "Rio Muriaé" in approximate[-1]["next"]


@pytest.mark.article("Art. 25")
def test_city_outside_the_centre_is_peripheral(clf):
    # about 2 km south of Praça João Pinheiro, still in the city
    assert clf.classify(-42.3650, -21.1500) is Zone.PERIPHERAL


@pytest.mark.article("Art. 25")
def test_points_near_the_municipal_boundary_inside_are_peripheral(clf):
    _, muni = load_default_polygons()
    c = muni.representative_point()
    coords = list(muni.exterior.coords)[:-1:12]
    # 3 % of the way from each sampled boundary vertex toward an interior point
    lons = [x + 0.03 * (c.x - x) for x, _ in coords]
    lats = [y + 0.03 * (c.y - y) for _, y in coords]
    inside = [muni.contains(Point(x, y)) for x, y in zip(lons, lats)]
    lons = [x for x, ok in zip(lons, inside) if ok]
    lats = [y for y, ok in zip(lats, inside) if ok]
    assert len(lons) >= 10
    assert all(z is Zone.PERIPHERAL for z in clf.classify_many(lons, lats))
    assert all(clf.classify(x, y) is Zone.PERIPHERAL for x, y in zip(lons, lats))


@pytest.mark.article("Art. 25")
@pytest.mark.parametrize("name,lon,lat", OUTSIDE_PLACES, ids=[p[0] for p in OUTSIDE_PLACES])
def test_other_municipalities_are_outside(clf, name, lon, lat):
    assert clf.classify(lon, lat) is Zone.OUTSIDE


@pytest.mark.article("Art. 24", "Art. 25")
def test_vectorized_agrees_with_scalar(clf):
    rng = np.random.default_rng(42)
    lons = np.concatenate([rng.uniform(-42.372, -42.358, 2000), rng.uniform(-42.6, -42.2, 2000)])
    lats = np.concatenate([rng.uniform(-21.138, -21.127, 2000), rng.uniform(-21.35, -20.8, 2000)])
    many = clf.classify_many(lons, lats)
    codes = clf.classify_codes(lons, lats)
    assert [clf.classify(x, y) for x, y in zip(lons, lats)] == list(many)
    assert set(np.unique(codes)) == {OUTSIDE_CODE, PERIPHERAL_CODE, CENTRAL_CODE}
    assert [Zone.from_code(c) for c in codes] == list(many)


@pytest.mark.article("Art. 24")
def test_street_tolerance_zero_uses_the_traced_polygon(clf):
    central, muni = load_default_polygons()
    strict = ZoneClassifier(central, muni, street_tolerance_m=0)
    # a vertex on Rua Gil Moreira, where the ring starts: on the boundary, so not strictly contained
    lon, lat = central.exterior.coords[1]
    assert strict.classify(lon, lat) is Zone.PERIPHERAL
    assert clf.classify(lon, lat) is Zone.CENTRAL
    # about 150 m south of Av. Comendador Freitas: peripheral either way
    assert clf.classify(-42.3600, -21.1345) is Zone.PERIPHERAL


def test_empty_and_mismatched_inputs(clf):
    assert clf.classify_many([], []).shape == (0,)
    with pytest.raises(ValueError):
        clf.classify_many([1.0, 2.0], [1.0])


def test_zone_labels_cite_articles():
    assert Zone.CENTRAL.article == "Art. 24"
    assert Zone.PERIPHERAL.article == "Art. 25"
    assert Zone.CENTRAL.label == "Zona central"
