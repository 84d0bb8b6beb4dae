"""Build ``zones/data/central_zone.geojson`` (Art. 24) from the reference points.

The trace follows the streets in the order Art. 24 names them. Where a
geocoded point of ``/work/shared/data/geo/muriae_pontos_centro.geojson``
exists for the street it is used as the vertex (its coordinates, source and
confidence are copied); where none exists the vertex is an *approximation*
(``confidence: approximate``) placed so that the ring stays simple and the
known points stay inside. The result is a stand-in until the municipality
supplies its surveyed polygon (upload it through ``zones.geojson``).

Run:  .venv/bin/python tools/build_central_zone.py [path/to/muriae_pontos_centro.geojson]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from shapely.geometry import Polygon, mapping

ROOT = Path(__file__).resolve().parents[1]
POINTS = Path("/work/shared/data/geo/muriae_pontos_centro.geojson")
OUT = ROOT / "zones" / "data" / "central_zone.geojson"

APPROX = (
    "approximation: no coordinate found for this street; placed between the "
    "neighbouring known points, consistent with the order of Art. 24 and with "
    "the Rio Muriaé closing the polygon to the north"
)

# (Art. 24 item, name of the geocoded point to use | None, approximate (lon, lat) | None, note)
TRACE: list[tuple[str, str | None, tuple[float, float] | None, str]] = [
    ("Rua Gil Moreira", None, (-42.3702, -21.1293), "start of the polygon, at the Rio Muriaé bank"),
    ("Praça Cel. Tibúrcio", None, (-42.3700, -21.1299), ""),
    ("Rua Lídio Bandeira de Melo", None, (-42.3697, -21.1305), ""),
    ("Rua Benedito Valadares", None, (-42.3693, -21.1309), ""),
    ("Rua Getúlio Vargas", None, (-42.3689, -21.1312), ""),
    ("Rua Constantino Pinto", None, (-42.3685, -21.1315), ""),
    ("Rua Cel. Domiciano", "R. Cel. Domiciano, 47", None, "westernmost geocode of the street"),
    ("Praça Cel. Pacheco de Medeiros", "Câmara Municipal de Muriaé, Praça Cel. Pacheco de Medeiros", None, ""),
    ("Rua Dr. Afonso Canêdo", "Rua Dr. Afonso Canêdo, 124 (clinic)", None, ""),
    ("Hospital São Paulo", "Pronto Socorro, Rua Cel. Izalino 185 (Hospital São Paulo ER)", None,
     "Afonso Canêdo 'até ao Hospital São Paulo'"),
    ("Praça São Paulo", "Praça São Paulo, 109", None, ""),
    ("Rua São Pedro", "Rua São Pedro, 103", None, "easternmost geocode of the street"),
    ("Rua Dr. Silveira Brum", "Rua Dr. Silveira Brum, 85", None, ""),
    ("Rua Dr. Silveira Brum", "Rua Dr. Silveira Brum, 86", None, ""),
    ("Praça João Pinheiro", "Praça João Pinheiro, 39 (Google Maps embed centre)", None, ""),
    ("Praça João Pinheiro", "Praça João Pinheiro, 20 (claimed 'Relógio da Praça')", None, ""),
    ("Rua Paschoal Bernardino", "R. Paschoal Bernardino, 5", None, "westernmost geocode of the street"),
    ("Rua Paschoal Bernardino", "R. Paschoal Bernardino, 137", None, ""),
    ("Rua Paschoal Bernardino", "R. Paschoal Bernardino, 161 (Banco do Brasil)", None, "southern end of the known geocodes"),
    ("Av. Freitas", None, (-42.3606, -21.1325), ""),
    ("Rua Maestro Soares", None, (-42.3598, -21.1318), ""),
    ("Rua Princesa Izabel", None, (-42.3594, -21.1308), ""),
    ("Rua Cel. Pereira Sobrinho", None, (-42.3592, -21.1298), ""),
    ("Ponte do Porto", None, (-42.3590, -21.1288), "bridge over the Rio Muriaé"),
    ("Av. Juscelino Kubitschek", None, (-42.3625, -21.1285), "along the Rio Muriaé (course not surveyed)"),
    ("Av. Juscelino Kubitschek", None, (-42.3665, -21.1287), "along the Rio Muriaé (course not surveyed)"),
]

NOTE = (
    "APPROXIMATION of the central zone of Lei 1.242/1987, Art. 24, traced along the streets "
    "in the order the law names them and closed by the Rio Muriaé. Vertices with a geocoded "
    "address (2016 geocodes, accuracy about 10-50 m) use it; the others are approximate "
    "(confidence 'approximate'): no coordinates were available offline for Rua Gil Moreira, "
    "Praça Cel. Tibúrcio, Lídio Bandeira de Melo, Benedito Valadares, Getúlio Vargas, "
    "Constantino Pinto, Av. Freitas, Maestro Soares, Princesa Izabel, Cel. Pereira Sobrinho, "
    "the Ponte do Porto, Av. Juscelino Kubitschek, nor the course of the Rio Muriaé. "
    "To be replaced by the municipality's surveyed polygon (upload validated by zones.geojson)."
)


def main(points_path: Path = POINTS) -> None:
    points = {f["properties"]["name"]: f for f in json.loads(points_path.read_text("utf-8"))["features"]}
    vertices = []
    for order, (street, name, approx, note) in enumerate(TRACE, start=1):
        if name is not None:
            feat = points[name]
            lon, lat = feat["geometry"]["coordinates"]
            props = {
                "source": feat["properties"]["source"],
                "confidence": feat["properties"]["confidence"],
                "geocoded_as": name,
            }
        else:
            lon, lat = approx
            props = {"source": APPROX, "confidence": "approximate"}
        vertices.append((street, order, lon, lat, {**props, "note": note} if note else props))

    ring = [(lon, lat) for _, _, lon, lat, _ in vertices]
    polygon = Polygon(ring)
    if not polygon.is_valid:
        from shapely.validation import explain_validity

        raise SystemExit(f"invalid trace: {explain_validity(polygon)}")
    if not polygon.exterior.is_ccw:
        polygon = Polygon(list(reversed(ring)))

    features = [
        {
            "type": "Feature",
            "geometry": mapping(polygon),
            "properties": {
                "name": "Zona central (Lei 1.242/1987, Art. 24)",
                "kind": "central_zone",
                "article": "Art. 24",
                "approximation": True,
                "note": NOTE,
                "vertices": len(ring),
            },
        }
    ]
    for street, order, lon, lat, props in vertices:
        features.append(
            {
                "type": "Feature",
                "geometry": {"type": "Point", "coordinates": [lon, lat]},
                "properties": {"kind": "vertex", "street": street, "order": order, **props},
            }
        )
    doc = {
        "type": "FeatureCollection",
        "name": "muriae_central_zone_art24",
        "note": NOTE,
        "features": features,
    }
    OUT.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", "utf-8")
    print(f"wrote {OUT} ({len(ring)} vertices, valid={polygon.is_valid}, area ~{polygon.area * 111320 * 103900 / 1e6:.3f} km²)")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else POINTS)
