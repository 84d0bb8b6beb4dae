"""Open data: anonymous, in the published schema, no cell under 5 trips, no field that identifies a person."""

import csv
import io
import json
from datetime import datetime, time, timedelta

import pytest
from django.utils import timezone

from backend.indicators import open_data
from backend.indicators.periods import LOCAL, Period
from backend.ranks.models import Rank, RankAssignment
from backend.registry.models import Person

from .indicator_fixtures import CENTRO, SAO_GOTARDO, ride

pytestmark = pytest.mark.django_db


def _last_month() -> Period:
    this = timezone.localdate().replace(day=1)
    last = this - timedelta(days=1)
    return Period(last.replace(day=1), last)


def _requests(n, where, hour, day):
    for i in range(n):
        ride(datetime.combine(day, time(hour, i), tzinfo=LOCAL), where=where, status="completed")


@pytest.fixture
def month_of_trips():
    month = _last_month()
    _requests(5, CENTRO, 8, month.first)  # published: exactly 5
    _requests(4, CENTRO, 9, month.first)  # suppressed: 4
    _requests(1, SAO_GOTARDO, 8, month.last)  # suppressed: 1
    _requests(7, SAO_GOTARDO, 18, month.last + timedelta(days=1))  # this month: not finished, not published
    return month


def test_trip_cells_under_five_are_never_published(month_of_trips, anonymous):
    body = anonymous.get("/api/open/trips.json").json()
    assert body["celulas"] == [{"bairro": "Centro", "hora": 8, "pedidos": 5}]
    assert body["celulas_suprimidas"] == 2 and body["minimo_por_celula"] == 5
    assert all(cell["pedidos"] >= open_data.MIN_CELL_TRIPS for cell in body["celulas"])
    rows = list(csv.DictReader(io.StringIO(anonymous.get("/api/open/trips.csv").content.decode())))
    assert rows == [{"bairro": "Centro", "hora": "8", "pedidos": "5"}]
    assert all(int(r["pedidos"]) >= 5 for r in rows)


def test_only_whole_finished_months(anonymous):
    this_month = f"{timezone.localdate():%Y-%m}"
    refused = anonymous.get("/api/open/trips.json", {"month": this_month})
    assert refused.status_code == 400 and refused.json()["month"] == ["Só se publicam meses encerrados."]
    for bad in ("2026-13", "0000-01", "9999-12", "2026-1"):
        assert anonymous.get("/api/open/trips.json", {"month": bad}).status_code == 400
    assert anonymous.get("/api/open/trips.json").json()["inicio"] == _last_month().first.isoformat()  # the default


def test_ranks_and_fleet_in_their_schema_and_naming_no_one(working_cab, anonymous, month_of_trips):
    permit = working_cab(number="TX-0501")
    rank = Rank.objects.create(name="Ponto da Praça", lon=-42.366, lat=-21.1324, category=Rank.Category.PRIVATE,
                               zone=Rank.Zone.CENTRAL)
    RankAssignment.objects.create(permit=permit, rank=rank, since=timezone.localdate())
    geo = json.loads(anonymous.get("/api/open/ranks.geojson").content)
    [feature] = geo["features"]
    assert feature["geometry"] == {"type": "Point", "coordinates": [-42.366, -21.1324]}
    schema = open_data.SCHEMAS
    assert set(feature["properties"]) == set(schema["pontos"]) - {"latitude", "longitude"}
    assert feature["properties"]["vagas"] == 1 and feature["properties"]["categoria"] == "privativo"
    ranks_csv = list(csv.DictReader(io.StringIO(anonymous.get("/api/open/ranks.csv").content.decode())))
    assert list(ranks_csv[0]) == list(schema["pontos"])
    fleet = anonymous.get("/api/open/fleet.json").json()
    assert fleet["permissoes_ativas"] == 1 and fleet["podem_trabalhar"] == 1 and fleet["impedidas"] == 0
    fleet_csv = list(csv.DictReader(io.StringIO(anonymous.get("/api/open/fleet.csv").content.decode())))
    assert list(fleet_csv[0]) == list(schema["frota"])
    catalogue = anonymous.get("/api/open/").json()
    assert "CC BY 4.0" in catalogue["licenca"]["name"] and {d["nome"] for d in catalogue["conjuntos"]} == set(schema)

    published = "".join(anonymous.get(url).content.decode() for url in (
        "/api/open/", "/api/open/ranks.geojson", "/api/open/ranks.csv", "/api/open/fleet.json", "/api/open/fleet.csv",
        "/api/open/trips.json", "/api/open/trips.csv"))
    for person in Person.objects.all():
        for value in (person.full_name, person.cpf, person.cnh, person.phone):
            assert not value or value not in published
    assert permit.number not in published
    for field in ("nome_", "cpf", "cnh", "telefone", "placa", "permissao", "motorista", "passageiro", "lat_embarque"):
        assert f'"{field}' not in published


def test_the_open_data_page_lists_the_datasets_with_their_licence(client):
    page = client.get("/dados-abertos/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "CC BY 4.0" in html and "/api/open/ranks.geojson" in html and "/api/open/trips.csv" in html
    assert html.count('class="card"') == 3
