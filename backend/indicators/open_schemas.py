"""The published schemas of the open data: a Frictionless Table Schema per CSV, a JSON Schema per JSON/GeoJSON.

Served at ``/api/open/schemas/<name>.json`` and linked from ``/dados-abertos/``. Each field's description is the
catalogue's (``open_data.SCHEMAS``); its type and constraints are here, once, and both kinds of schema are built
from them. The JSON Schemas forbid any property they do not name (``additionalProperties: false``): a field added
to an answer without its schema fails the tests. The trip cells' schema carries the small-cell rule itself
(``pedidos`` at least ``MIN_CELL_TRIPS``)."""

from __future__ import annotations

from .open_data import MIN_CELL_TRIPS, SCHEMAS

TABLE_SCHEMA_PROFILE = "https://specs.frictionlessdata.io/schemas/table-schema.json"
JSON_SCHEMA = "https://json-schema.org/draft/2020-12/schema"
BASE = "/api/open/schemas/"
_COUNT = ("integer", {"minimum": 0})

# dataset -> field -> (Table Schema type, constraints); the order is the CSV's columns.
FIELDS = {
    "pontos": {
        "id": ("integer", {"required": True, "minimum": 1}), "nome": ("string", {"required": True}),
        "categoria": ("string", {"required": True, "enum": ["privativo", "livre"]}),
        "zona": ("string", {"required": True, "enum": ["central", "peripheral"]}),
        "provisorio": ("boolean", {"required": True}), "vagas": ("integer", {"required": True, "minimum": 0}),
        "latitude": ("number", {"required": True, "minimum": -90, "maximum": 90}),
        "longitude": ("number", {"required": True, "minimum": -180, "maximum": 180}),
    },
    "frota": {
        "data": ("date", {"required": True}), "permissoes_ativas": _COUNT, "aguardando_termo": _COUNT,
        "podem_trabalhar": _COUNT, "impedidas": _COUNT, "motivo": ("string", {}), "artigo": ("string", {}),
        "permissoes": _COUNT,
    },
    "viagens": {
        "bairro": ("string", {"required": True}), "hora": ("integer", {"required": True, "minimum": 0, "maximum": 23}),
        "pedidos": ("integer", {"required": True, "minimum": MIN_CELL_TRIPS}),
    },
}
_JSON_TYPES = {"integer": {"type": "integer"}, "number": {"type": "number"}, "boolean": {"type": "boolean"},
               "string": {"type": "string"}, "date": {"type": "string", "format": "date", "pattern": r"^\d{4}-\d{2}-\d{2}$"}}


def table_schema(dataset: str) -> dict:
    """The Frictionless Table Schema of ``dataset``'s CSV."""
    fields = [{"name": name, "type": kind, "description": SCHEMAS[dataset][name], **({"constraints": c} if c else {})}
              for name, (kind, c) in FIELDS[dataset].items()]
    out = {"$schema": TABLE_SCHEMA_PROFILE, "title": f"{dataset} (CSV)", "fields": fields, "missingValues": [""]}
    if dataset == "pontos":
        out["primaryKey"] = ["id"]
    return out


def _property(dataset: str, name: str) -> dict:
    kind, constraints = FIELDS[dataset][name]
    prop = {**_JSON_TYPES[kind], "description": SCHEMAS[dataset][name]}
    prop.update({k: v for k, v in constraints.items() if k in ("minimum", "maximum", "enum")})
    return prop


def _object(dataset: str, names: list[str]) -> dict:
    return {"type": "object", "additionalProperties": False, "required": names,
            "properties": {name: _property(dataset, name) for name in names}}


def _ranks_geojson() -> dict:
    props = [n for n in FIELDS["pontos"] if n not in ("latitude", "longitude")]
    point = {"type": "object", "additionalProperties": False, "required": ["type", "coordinates"], "properties": {
        "type": {"const": "Point"},
        "coordinates": {"type": "array", "minItems": 2, "maxItems": 2, "description": "[longitude, latitude], WGS 84",
                        "prefixItems": [_property("pontos", "longitude"), _property("pontos", "latitude")]}}}
    feature = {"type": "object", "additionalProperties": False, "required": ["type", "id", "geometry", "properties"],
               "properties": {"type": {"const": "Feature"}, "id": _property("pontos", "id"), "geometry": point,
                              "properties": _object("pontos", props)}}
    return {"type": "object", "additionalProperties": False, "required": ["type", "features"], "properties": {
        "type": {"const": "FeatureCollection"}, "features": {"type": "array", "items": feature}}}


def _fleet_json() -> dict:
    counts = ["data", "permissoes_ativas", "aguardando_termo", "podem_trabalhar", "impedidas"]
    schema = _object("frota", counts)
    schema["required"] = [*counts, "motivos"]
    schema["properties"]["motivos"] = {"type": "array", "items": _object("frota", ["motivo", "artigo", "permissoes"])}
    return schema


def _trips_json() -> dict:
    return {"type": "object", "additionalProperties": False,
            "required": ["inicio", "fim", "minimo_por_celula", "celulas_suprimidas", "celulas"], "properties": {
                "inicio": {**_JSON_TYPES["date"], "description": "primeiro dia do mês publicado"},
                "fim": {**_JSON_TYPES["date"], "description": "último dia do mês publicado"},
                "minimo_por_celula": {"const": MIN_CELL_TRIPS},
                "celulas_suprimidas": {"type": "integer", "minimum": 0, "description": "células não publicadas"},
                "celulas": {"type": "array", "items": _object("viagens", list(FIELDS["viagens"]))}}}


_JSON_SCHEMAS = {"pontos-geojson": ("pontos", _ranks_geojson), "frota-json": ("frota", _fleet_json),
                 "viagens-json": ("viagens", _trips_json)}
NAMES = [*_JSON_SCHEMAS, *(f"{dataset}-csv" for dataset in FIELDS)]


def schema(name: str) -> dict | None:
    """The published schema ``name`` (``NAMES``), or None."""
    if name in _JSON_SCHEMAS:
        dataset, build = _JSON_SCHEMAS[name]
        return {"$schema": JSON_SCHEMA, "$id": f"{BASE}{name}.json", "title": f"{dataset} ({name.split('-')[1]})",
                **build()}
    if name.endswith("-csv") and name.removesuffix("-csv") in FIELDS:
        return table_schema(name.removesuffix("-csv"))
    return None


def links(dataset: str) -> dict:
    """The schema URLs of a dataset, by format: for the catalogue and the page."""
    return {fmt: f"{BASE}{name}.json" for name in NAMES if name.startswith(f"{dataset}-")
            for fmt in [name.split("-")[1]]}
