"""Open data in its published schemas (issue 32): every open endpoint's output validates against the Table Schema
(CSV) or JSON Schema (JSON, GeoJSON) at /api/open/schemas/, which name no field that identifies a person and carry
the small-cell rule (LGPD: no published cell under 5 trips)."""

import csv
import io
import json
from datetime import datetime, time, timedelta

import jsonschema
import pytest
from django.utils import timezone

from backend.indicators import open_schemas
from backend.indicators.open_data import MIN_CELL_TRIPS
from backend.indicators.periods import LOCAL
from backend.ranks.models import Rank, RankAssignment

from .indicator_fixtures import CENTRO, SAO_GOTARDO, ride

pytestmark = pytest.mark.django_db
JSON_ENDPOINTS = [("/api/open/ranks.geojson", "pontos-geojson"), ("/api/open/fleet.json", "frota-json"),
                  ("/api/open/trips.json", "viagens-json")]
CSV_ENDPOINTS = [("/api/open/ranks.csv", "pontos-csv"), ("/api/open/fleet.csv", "frota-csv"),
                 ("/api/open/trips.csv", "viagens-csv")]
# Every field name the open data may publish: places, categories and counts, nothing about a person.
NOT_A_PERSON = {"type", "features", "id", "geometry", "coordinates", "properties", "nome", "categoria", "zona",
                "provisorio", "vagas", "latitude", "longitude", "data", "permissoes_ativas", "aguardando_termo",
                "podem_trabalhar", "impedidas", "motivos", "motivo", "artigo", "permissoes", "inicio", "fim",
                "minimo_por_celula", "celulas_suprimidas", "celulas", "bairro", "hora", "pedidos"}
_CAST = {"integer": int, "number": float, "boolean": lambda v: v in ("True", "true", "1"), "string": str, "date": str}


@pytest.fixture
def open_world(working_cab):
    """A private rank with its titular, a blocked-free fleet, and last month's requests: one cell of 6 published,
    one of 2 suppressed."""
    rank = Rank.objects.create(name="Ponto da Praça", lon=-42.366, lat=-21.1324, category=Rank.Category.PRIVATE,
                               zone=Rank.Zone.CENTRAL)
    RankAssignment.objects.create(permit=working_cab(), rank=rank, since=timezone.localdate())
    Rank.objects.create(name="Hospital", lon=-42.364, lat=-21.135, category=Rank.Category.FREE, zone=Rank.Zone.CENTRAL)
    day = timezone.localdate().replace(day=1) - timedelta(days=3)
    for i in range(6):
        ride(datetime.combine(day, time(8, i), tzinfo=LOCAL), where=CENTRO, status="completed")
    for i in range(2):
        ride(datetime.combine(day, time(9, i), tzinfo=LOCAL), where=SAO_GOTARDO, status="completed")


def published_schema(anonymous, name) -> dict:
    answer = anonymous.get(f"/api/open/schemas/{name}.json")
    assert answer.status_code == 200, name
    return answer.json()


def row_schema(table: dict) -> dict:
    """A CSV row (cast by the Table Schema's types) as a JSON Schema object, its constraints kept."""
    props = {f["name"]: {k: v for k, v in f.get("constraints", {}).items() if k != "required"} for f in table["fields"]}
    return {"type": "object", "additionalProperties": False, "required": list(props), "properties": props}


def validate_json(schema: dict, value) -> None:
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker()).validate(value)


@pytest.mark.parametrize("url, name", JSON_ENDPOINTS)
def test_each_json_answer_validates_against_its_published_json_schema(open_world, anonymous, url, name):
    body = json.loads(anonymous.get(url).content)
    validate_json(published_schema(anonymous, name), body)
    assert body.get("features") or body.get("motivos") is not None or body.get("celulas")  # not an empty pass


@pytest.mark.parametrize("url, name", CSV_ENDPOINTS)
def test_each_csv_validates_against_its_published_table_schema(open_world, anonymous, url, name):
    table = published_schema(anonymous, name)
    assert table["$schema"].endswith("table-schema.json")
    types = {f["name"]: f["type"] for f in table["fields"]}
    reader = csv.reader(io.StringIO(anonymous.get(url).content.decode()))
    header, *rows = list(reader)
    assert header == [f["name"] for f in table["fields"]]  # the columns, in the schema's order
    assert rows
    for row in rows:
        cast = {name: _CAST[types[name]](value) if value != "" else "" for name, value in zip(header, row)}
        cast = {k: v for k, v in cast.items() if v != "" or types[k] == "string"}
        jsonschema.validate(cast, row_schema(table) | {"required": [k for k in cast]})


def test_the_schemas_forbid_a_small_cell_and_any_unnamed_field(anonymous):
    trips = published_schema(anonymous, "viagens-json")
    ok = {"inicio": "2026-10-01", "fim": "2026-10-31", "minimo_por_celula": MIN_CELL_TRIPS, "celulas_suprimidas": 1,
          "celulas": [{"bairro": "Centro", "hora": 8, "pedidos": MIN_CELL_TRIPS}]}
    validate_json(trips, ok)
    small = {**ok, "celulas": [{"bairro": "Centro", "hora": 8, "pedidos": MIN_CELL_TRIPS - 1}]}
    named = {**ok, "celulas": [{"bairro": "Centro", "hora": 8, "pedidos": 9, "passageiro": "Maria"}]}
    for bad in (small, named, {**ok, "cpf": "000"}):
        with pytest.raises(jsonschema.ValidationError):
            validate_json(trips, bad)
    [pedidos] = [f for f in published_schema(anonymous, "viagens-csv")["fields"] if f["name"] == "pedidos"]
    assert pedidos["constraints"]["minimum"] == MIN_CELL_TRIPS


def _field_names(schema: dict) -> set[str]:
    """The names a schema lets an answer carry: its properties (nested ones too) and its table's fields."""
    names = {f["name"] for f in schema.get("fields", [])}
    for name, sub in schema.get("properties", {}).items():
        names |= {name} | _field_names(sub)
    for sub in [schema.get("items") or {}, *schema.get("prefixItems", [])]:
        if sub:
            names |= _field_names(sub)
    return names


def test_no_published_field_identifies_a_person(anonymous):
    every = set().union(*(_field_names(published_schema(anonymous, name)) for name in open_schemas.NAMES))
    assert every <= NOT_A_PERSON, every - NOT_A_PERSON


def test_the_page_and_the_catalogue_link_every_schema(client, anonymous):
    html = client.get("/dados-abertos/").content.decode()
    catalogue = anonymous.get("/api/open/").json()
    for name in open_schemas.NAMES:
        url = f"/api/open/schemas/{name}.json"
        assert url in html and url in json.dumps(catalogue)
    assert anonymous.get("/api/open/schemas/senhas-csv.json").status_code == 404
