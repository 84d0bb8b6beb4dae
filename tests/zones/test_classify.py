"""Zone classification: Art. 24 (central), Art. 25 (peripheral), outside the municipality."""

import json
from pathlib import Path

import numpy as np
import pytest
import shapely
from shapely.geometry import Point

from zones import Zone, ZoneClassifier, default_classifier, load_default_polygons
from zones.classify import CENTRAL_CODE, OUTSIDE_CODE, PERIPHERAL_CODE
from zones.geojson import CENTRAL_ZONE_FILE

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


@pytest.mark.article("Art. 24")
@pytest.mark.parametrize("name,lon,lat", CENTRAL_STREET_POINTS, ids=[p[0] for p in CENTRAL_STREET_POINTS])
def test_points_on_named_central_streets_are_central(clf, name, lon, lat):
    assert clf.classify(lon, lat) is Zone.CENTRAL


@pytest.mark.article("Art. 24")
def test_every_reference_point_on_a_named_street_is_central(clf):
    features = json.loads(REFERENCE_POINTS.read_text("utf-8"))["features"]
    named = [f for f in features if f["properties"]["art24_item"] in NAMED_ITEMS]
    assert len(named) >= 25
    lons = [f["geometry"]["coordinates"][0] for f in named]
    lats = [f["geometry"]["coordinates"][1] for f in named]
    zones = clf.classify_many(lons, lats)
    assert all(z is Zone.CENTRAL for z in zones), [f["properties"]["name"] for f, z in zip(named, zones) if z is not Zone.CENTRAL]


@pytest.mark.article("Art. 24")
def test_shipped_polygon_is_valid_and_covers_the_named_points_within_tolerance():
    central, _ = load_default_polygons()
    assert shapely.is_valid(central)
    for name, lon, lat in CENTRAL_STREET_POINTS:
        # vertices may sit on the points; allow ~1 m of rounding
        assert central.buffer(1e-5).covers(Point(lon, lat)), name


@pytest.mark.article("Art. 24")
def test_shipped_file_documents_every_vertex():
    doc = json.loads(CENTRAL_ZONE_FILE.read_text("utf-8"))
    assert "approximation" in doc["note"].lower() or "APPROXIMATION" in doc["note"]
    polys = [f for f in doc["features"] if f["geometry"]["type"] == "Polygon"]
    vertices = [f for f in doc["features"] if f["geometry"]["type"] == "Point"]
    assert len(polys) == 1 and polys[0]["properties"]["approximation"] is True
    ring = polys[0]["geometry"]["coordinates"][0]
    assert len(vertices) == len(ring) - 1
    orders = [v["properties"]["order"] for v in vertices]
    assert orders == sorted(orders) == list(range(1, len(vertices) + 1))
    for v in vertices:
        p = v["properties"]
        assert p["street"] and p["source"]
        assert p["confidence"] in {"high", "medium", "low", "approximate"}
    streets = [v["properties"]["street"] for v in vertices]
    assert streets[0] == "Rua Gil Moreira" and streets[-1] == "Av. Juscelino Kubitschek"
    # the law's order
    law_order = [
        "Rua Gil Moreira", "Praça Cel. Tibúrcio", "Rua Lídio Bandeira de Melo", "Rua Benedito Valadares",
        "Rua Getúlio Vargas", "Rua Constantino Pinto", "Rua Cel. Domiciano", "Praça Cel. Pacheco de Medeiros",
        "Rua Dr. Afonso Canêdo", "Hospital São Paulo", "Praça São Paulo", "Rua São Pedro", "Rua Dr. Silveira Brum",
        "Praça João Pinheiro", "Rua Paschoal Bernardino", "Av. Freitas", "Rua Maestro Soares",
        "Rua Princesa Izabel", "Rua Cel. Pereira Sobrinho", "Ponte do Porto", "Av. Juscelino Kubitschek",
    ]
    assert list(dict.fromkeys(streets)) == law_order


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
    # a vertex sits on the Câmara geocode: on the boundary, so not strictly contained
    assert strict.classify(-42.36757, -21.1311092) is Zone.PERIPHERAL
    assert clf.classify(-42.36757, -21.1311092) is Zone.CENTRAL
    # ~40 m outside the traced polygon east of the Ponte do Porto vertex: peripheral either way
    assert clf.classify(-42.3585, -21.1288) is Zone.PERIPHERAL


def test_empty_and_mismatched_inputs(clf):
    assert clf.classify_many([], []).shape == (0,)
    with pytest.raises(ValueError):
        clf.classify_many([1.0, 2.0], [1.0])


def test_zone_labels_cite_articles():
    assert Zone.CENTRAL.article == "Art. 24"
    assert Zone.PERIPHERAL.article == "Art. 25"
    assert Zone.CENTRAL.label == "Zona central"
