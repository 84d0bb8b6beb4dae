"""Zones (Art. 24, Art. 25): public GeoJSON, the classifier and the upload of the central zone."""

import json

import pytest
from shapely.geometry import shape

from backend.ranks.models import CentralZone, Rank

from .ranks_helpers import CENTRAL, OUTSIDE, PERIPHERAL, make_rank, refused

pytestmark = pytest.mark.django_db


def feature_collection(response):
    assert response.status_code == 200, response.content.decode()
    assert response["Content-Type"].startswith("application/geo+json")
    data = json.loads(response.content)
    assert data["type"] == "FeatureCollection"
    for feature in data["features"]:
        assert feature["type"] == "Feature"
        geom = shape(feature["geometry"])
        assert geom.is_valid and not geom.is_empty
        assert isinstance(feature["properties"], dict)
    return data


def square(lon, lat, d=0.002):
    ring = [[lon - d, lat - d], [lon + d, lat - d], [lon + d, lat + d], [lon - d, lat + d], [lon - d, lat - d]]
    return {"type": "Polygon", "coordinates": [ring]}


@pytest.mark.article("Art. 24", "Art. 25")
def test_geojson_endpoints_are_public_feature_collections(anonymous, dimutran):
    make_rank(dimutran, "Praça João Pinheiro", CENTRAL)
    central = feature_collection(anonymous.get("/api/geo/central-zone.geojson"))
    assert central["features"][0]["geometry"]["type"] == "Polygon"
    assert central["features"][0]["properties"]["article"] == "Art. 24"
    boundary = feature_collection(anonymous.get("/api/geo/boundary.geojson"))
    assert boundary["features"][0]["properties"]["ibge_code"] == "3143906"
    ranks = feature_collection(anonymous.get("/api/geo/ranks.geojson"))
    assert [f["properties"]["name"] for f in ranks["features"]] == ["Praça João Pinheiro"]
    assert ranks["features"][0]["geometry"] == {"type": "Point", "coordinates": list(CENTRAL)}
    assert ranks["features"][0]["properties"]["zone"] == "central"


@pytest.mark.article("Art. 24", "Art. 25")
def test_classify_point(anonymous):
    assert anonymous.get("/api/zones/classify/", {"lat": CENTRAL[1], "lon": CENTRAL[0]}).json()["zone"] == "central"
    body = anonymous.get("/api/zones/classify/", {"lat": PERIPHERAL[1], "lon": PERIPHERAL[0]}).json()
    assert body == {"zone": "peripheral", "article": "Art. 25", "label": "Zona periférica"}
    assert anonymous.get("/api/zones/classify/", {"lat": OUTSIDE[1], "lon": OUTSIDE[0]}).json()["zone"] == "outside"
    assert anonymous.get("/api/zones/classify/", {"lat": "x"}).status_code == 400


@pytest.mark.article("Art. 24")
def test_upload_central_zone_takes_effect_and_rezones_ranks(dimutran, today):
    rank = make_rank(dimutran, "Bairro", PERIPHERAL)
    assert rank["zone"] == "peripheral"
    response = dimutran.post(
        "/api/geo/central-zone/",
        {"geojson": square(*PERIPHERAL), "effective_from": today.isoformat(), "source": "Decreto 1/2026"},
        format="json",
    )
    assert response.status_code == 201, response.content.decode()
    assert Rank.objects.get(pk=rank["id"]).zone == "central"
    current = json.loads(dimutran.get("/api/geo/central-zone.geojson").content)
    assert current["features"][0]["properties"]["source"] == "Decreto 1/2026"
    assert dimutran.get("/api/zones/classify/", {"lat": CENTRAL[1], "lon": CENTRAL[0]}).json()["zone"] == "peripheral"


@pytest.mark.article("Art. 24")
@pytest.mark.parametrize(
    "geojson",
    [
        # self-intersecting "bow tie"
        {"type": "Polygon", "coordinates": [[[-42.37, -21.14], [-42.36, -21.13], [-42.36, -21.14], [-42.37, -21.13], [-42.37, -21.14]]]},
        # open ring
        {"type": "Polygon", "coordinates": [[[-42.37, -21.14], [-42.36, -21.14], [-42.36, -21.13], [-42.37, -21.13]]]},
        # outside the municipality
        square(*OUTSIDE),
        # not a polygon / not JSON
        {"type": "Point", "coordinates": list(CENTRAL)},
        "isto não é GeoJSON",
    ],
    ids=["self-intersecting", "open-ring", "outside", "point", "not-json"],
)
def test_bad_central_zone_upload_is_refused_and_nothing_written(dimutran, today, geojson):
    dimutran.get("/api/geo/central-zone.geojson")  # seeds the shipped zone
    before = CentralZone.objects.count()
    response = dimutran.post(
        "/api/geo/central-zone/", {"geojson": geojson, "effective_from": today.isoformat(), "source": "x"}, format="json"
    )
    body = refused(response, "Art. 24")
    assert "Art. 24" in body["geojson"][0]
    assert CentralZone.objects.count() == before


@pytest.mark.article("Art. 24")
def test_only_dimutran_uploads_the_central_zone(working_cab, user_for, today):
    holder = user_for(working_cab().holder)
    response = holder.post("/api/geo/central-zone/", {"geojson": square(*CENTRAL), "effective_from": today.isoformat(), "source": "x"}, format="json")
    assert response.status_code == 403
    assert not CentralZone.objects.exclude(source__startswith="zones/data").exists()
