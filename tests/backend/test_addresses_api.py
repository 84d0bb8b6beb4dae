"""The address API: staff and passengers search streets and name a point; bad input is a pt-BR answer, never a 500."""

import pytest
from rest_framework.test import APIClient

from backend.trips.models import Passenger

pytestmark = pytest.mark.django_db


@pytest.fixture
def passenger_client():
    passenger = Passenger.objects.create(name="Maria", phone="32999991234")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Passenger {passenger.token}")
    return client


@pytest.mark.article("Art. 66")
def test_operator_searches_an_address_with_typos(dimutran):
    response = dimutran.get("/api/addresses/", {"q": "R. Cel. Domicano 94"})
    assert response.status_code == 200
    first = response.json()["results"][0]
    assert first["name"] == "Rua Coronel Domiciano"
    assert first["label"] == "Rua Coronel Domiciano, 94 - Centro"
    assert first["geometry"]["type"] == "MultiLineString"


@pytest.mark.article("Art. 66")
def test_passenger_token_searches_and_reverses(passenger_client):
    assert passenger_client.get("/api/addresses/", {"q": "rodoviaria"}).json()["results"][0]["name"] == "Rodoviária de Muriaé"
    body = passenger_client.get("/api/addresses/reverse/", {"lat": -21.1314, "lon": -42.3675}).json()
    assert body["address"] == "Rua Coronel Domiciano, bairro Centro"


@pytest.mark.article("Art. 66")
def test_anonymous_and_unknown_passenger_are_refused():
    client = APIClient()
    assert client.get("/api/addresses/", {"q": "domiciano"}).status_code in (401, 403)
    client.credentials(HTTP_AUTHORIZATION="Passenger nope")
    response = client.get("/api/addresses/", {"q": "domiciano"})
    assert response.status_code == 401
    assert "passageiro" in response.json()["detail"].lower()


@pytest.mark.article("Art. 66")
@pytest.mark.parametrize("params,status", [
    ({"q": ""}, 200), ({"q": "%%%$$$"}, 200), ({"q": "01310-100"}, 200), ({"q": "x" * 5000}, 400), ({}, 400),
    ({"q": "centro", "limit": "abc"}, 400),
])
def test_bad_search_input(dimutran, params, status):
    response = dimutran.get("/api/addresses/", params)
    assert response.status_code == status, response.content
    body = response.json()
    if status == 200 and params["q"] != "centro":
        assert body["results"] == [] and body["message"]


@pytest.mark.article("Art. 25")
@pytest.mark.parametrize("params,field", [
    ({"lat": -23.55, "lon": -46.63}, "lat"),  # São Paulo
    ({"lat": 10, "lon": 10}, "lat"),  # at sea
    ({"lat": "abc", "lon": -42.36}, "lat"),
    ({"lat": 95, "lon": -42.36}, "lat"),
    ({"lon": -42.36}, "lat"),
])
def test_bad_reverse_input_is_a_400_naming_the_field(dimutran, params, field):
    response = dimutran.get("/api/addresses/reverse/", params)
    assert response.status_code == 400
    assert response.json()[field]


@pytest.mark.article("Art. 25")
def test_reverse_outside_names_the_municipality(dimutran):
    body = dimutran.get("/api/addresses/reverse/", {"lat": -23.55, "lon": -46.63}).json()
    assert body["detail"].startswith("O local (-23.55, -46.63) fica fora do município de Muriaé")
