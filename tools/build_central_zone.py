"""Build ``zones/data/central_zone.geojson`` (Art. 24) along the real streets of ``zones/data/streets.geojson``.

Art. 24 names the boundary in order: from Rua Gil Moreira round to the Ponte do
Porto and back along Av. Juscelino Kubitschek to the start, the Rio Muriaé
closing it. For each named street in that order the ring follows that street's
own geometry (the block edge the gazetteer keeps, see zones/data/SOURCE.md)
from where it meets the previous street to where it meets the next one:

* ``follow``: the street's parts between the two junctions, ordered along the way;
* ``pass``: only the two junctions (a praça, whose outline is a loop around the square);
* a landmark (the Hospital São Paulo) is a vertex of its own.

Each junction is the midpoint of the nearest points of the two streets. Where
two consecutive streets do not meet (the river side, from the west end of Av.
Juscelino Kubitschek back to Rua Gil Moreira) the ring closes in a straight
line, marked ``approximate``. Every vertex keeps its source. The readings
(Maestro Soares = Rua Monsenhor Soares, the Ponte do Porto, Av. Freitas = Av.
Comendador Freitas) are documented in docs/zones.md. The result stays replaceable
by DIMUTRAN's surveyed polygon (upload through ``zones.geojson``).

Run:  .venv/bin/python tools/build_central_zone.py   (after tools/build_gazetteer.py)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import shapely
from shapely.geometry import LineString, MultiLineString, Point, Polygon, mapping, shape
from shapely.ops import nearest_points

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from zones.gazetteer import _KX, _KY, LANDMARKS_FILE, STREETS_FILE  # noqa: E402

OUT = ROOT / "zones" / "data" / "central_zone.geojson"

#: Two consecutive streets whose nearest points are farther apart than this do not meet:
#: the ring closes between them in a straight, approximate segment (metres).
MEET_M = 40.0

# (Art. 24 item as the law writes it, the street of zones/data/streets.geojson or landmark, mode, reading)
TRACE: list[tuple[str, str, str, str]] = [
    ("Rua Gil Moreira", "Rua Gil Moreira", "follow", "start of the polygon, at the Rio Muriaé"),
    ("praça Cel. Tibúrcio", "Praça Coronel Tibúrcio", "pass", ""),
    ("ruas Lídio Bandeira de Melo", "Rua Doutor Lídio Bandeira de Melo", "follow", ""),
    ("Benedito Valadares", "Rua Benedito Valadares", "follow", ""),
    ("Getulio Vargas", "Rua Presidente Getúlio Vargas", "follow", ""),
    ("Constantino Pinto", "Avenida Constantino Pinto", "follow", ""),
    ("Cel. Domiciano", "Rua Coronel Domiciano", "follow", ""),
    ("Praça Cel. Pacheco de Medeiros", "Praça Coronel Pacheco de Medeiros", "pass", ""),
    ("Dr. Afonso Canêdo até ao Hospital São Paulo", "Rua Doutor Afonso Canedo", "follow", ""),
    ("Hospital São Paulo", "landmark:Hospital São Paulo", "pass",
     "the hospital's emergency entrance (Rua Cel. Izalino 185), the end of Afonso Canêdo in Art. 24"),
    ("Praça São Paulo", "Praça São Paulo", "pass", ""),
    ("Rua São Pedro", "Rua São Pedro", "follow", ""),
    ("Rua Dr. Silveira Brum", "Rua Doutor Silveira Brum", "follow", ""),
    ("Praça João Pinheiro", "Praça João Pinheiro", "pass", ""),
    ("Rua Paschoal Bernardino", "Rua Paschoal Bernardino", "follow", ""),
    ("Av. Freitas", "Avenida Comendador Freitas", "follow",
     "reading: 'Av. Freitas' is Avenida Comendador Freitas, the only Freitas avenue of the centre, between "
     "Paschoal Bernardino and Monsenhor Soares"),
    ("Rua Maestro Soares", "Rua Monsenhor Soares", "follow",
     "reading: no 'Maestro Soares' exists; Rua Monsenhor Soares (AVENIDA MOSENHOR SOARES in the street layer) "
     "lies in the law's order, between Av. Comendador Freitas and Princesa Isabel"),
    ("Rua Princesa Izabel", "Rua Princesa Isabel", "follow", ""),
    ("Rua Cel. Pereira Sobrinho até atingir a ponte do Porto", "Rua Coronel Pereira Sobrinho", "follow",
     "reading: the Ponte do Porto is not in the data; it is taken where Rua Cel. Pereira Sobrinho meets "
     "Av. Juscelino Kubitschek at the river, the avenue's eastern end"),
    ("Av. Juscelino Kubitschek", "Avenida Presidente Juscelino Kubitschek", "follow",
     "along the Rio Muriaé's south bank, westwards"),
]

STREETS_SOURCE = ("zones/data/streets.geojson (street layer of 9v8vz2kws9-boop/PAIRDI, probably IBGE faces de "
                  "logradouro; one block edge, ~4-5 m off the axis)")
RIVER_CLOSE = ("approximation: straight closure along the Rio Muriaé (its course is not in the data) from the "
               "west end of Av. Juscelino Kubitschek back to the start on Rua Gil Moreira")
GAP_LINK = ("approximation: straight link to the next item of Art. 24, which this street does not meet in the "
            "street layer (Afonso Canêdo 'até ao Hospital São Paulo', whose entrance is on Rua Cel. Izalino)")
NOTE = (
    "Central zone of Lei 1.242/1987, Art. 24, traced along the street geometry of each street the article "
    "names, in its order, closing along Av. Juscelino Kubitschek and the Rio Muriaé. Junctions are where "
    "consecutive streets meet in the street layer; readings (Av. Freitas, Maestro Soares, Ponte do Porto) and "
    "the straight river closure are marked per vertex. To be replaced by DIMUTRAN's surveyed polygon "
    "(upload validated by zones.geojson)."
)


def _metric(geom):
    return shapely.transform(geom, lambda xy: xy * [_KX, _KY])


def _degrees(geom):
    return shapely.transform(geom, lambda xy: xy / [_KX, _KY])


def load_places() -> dict:
    places = {f["properties"]["name"]: _metric(shape(f["geometry"]))
              for f in json.loads(STREETS_FILE.read_text("utf-8"))["features"] if f["properties"]["name"]}
    for f in json.loads(LANDMARKS_FILE.read_text("utf-8"))["features"]:
        places["landmark:" + f["properties"]["name"]] = _metric(shape(f["geometry"]))
    return places


def junction(a, b) -> tuple[Point, float]:
    pa, pb = nearest_points(a, b)
    return Point((pa.x + pb.x) / 2, (pa.y + pb.y) / 2), pa.distance(pb)


def follow(geom, entry: Point, exit_: Point) -> list[tuple[float, float]]:
    """The street's vertices between ``entry`` and ``exit_``, in travel order.

    Each part is cut to the stretch between the two junctions' projections on the part and the
    parts are ordered by where they lie along the chord entry -> exit.
    """
    chord = LineString([entry, exit_])
    parts = list(geom.geoms) if isinstance(geom, MultiLineString) else [geom]
    pieces = []
    for part in parts:
        a, b = part.project(entry), part.project(exit_)
        piece = shapely.ops.substring(part, min(a, b), max(a, b))
        if piece.length < 1.0:
            continue
        mid = chord.project(piece.interpolate(0.5, normalized=True), normalized=True)
        if not 0.0 < mid < 1.0 or piece.distance(chord) > max(60.0, chord.length * 0.5):
            continue
        coords = list(piece.coords)
        t0, t1 = (chord.project(Point(c), normalized=True) for c in (coords[0], coords[-1]))
        if t0 > t1:
            coords.reverse()
            t0, t1 = t1, t0
        pieces.append((t0, t1, piece.length, coords))
    # both block edges may remain on a stretch: keep one piece per stretch of the chord, longest first
    taken: list[tuple[float, float, list]] = []
    for t0, t1, _length, coords in sorted(pieces, key=lambda p: -p[2]):
        overlap = sum(max(0.0, min(t1, b1) - max(t0, b0)) for b0, b1, _c in taken)
        if overlap <= 0.3 * max(t1 - t0, 1e-9):
            taken.append((t0, t1, coords))
    return [xy for _t0, _t1, coords in sorted(taken, key=lambda p: p[0]) for xy in coords]


def trace(places: dict) -> list[tuple[tuple[float, float], dict]]:
    """The ring's vertices (metric), each with its properties."""
    n = len(TRACE)
    geoms = [places[ref] for _item, ref, _mode, _reading in TRACE]
    joints = [junction(geoms[i], geoms[(i + 1) % n]) for i in range(n)]  # joints[i]: street i -> i + 1
    vertices: list[tuple[tuple[float, float], dict]] = []
    for i, (item, ref, mode, reading) in enumerate(TRACE):
        (entry, entry_gap), (exit_, exit_gap) = joints[i - 1], joints[i]
        base = {"street": item, "order": i + 1, "geocoded_as": ref.removeprefix("landmark:"), "source": STREETS_SOURCE,
                "confidence": "street geometry"}
        if reading:
            base["note"] = reading
        if ref.startswith("landmark:"):
            vertices.append(((geoms[i].x, geoms[i].y), {**base, "source": "zones/data/landmarks.geojson",
                                                         "confidence": "medium", "vertex": "landmark"}))
            continue
        start = entry if entry_gap <= MEET_M else nearest_points(geoms[i], exit_)[0]
        end = exit_ if exit_gap <= MEET_M else nearest_points(geoms[i], joints[(i + 1) % n][0])[0]
        if entry_gap > MEET_M:  # the river closure arrives here: start at the street's far end from the exit
            far = max(shapely.get_coordinates(geoms[i]), key=lambda xy: Point(xy).distance(end))
            start = Point(far)
        if exit_gap > MEET_M:  # the river closure leaves from here: end at the street's far end from the entry
            far = max(shapely.get_coordinates(geoms[i]), key=lambda xy: Point(xy).distance(start))
            end = Point(far)
        vertices.append(((start.x, start.y), {**base, "vertex": "junction" if entry_gap <= MEET_M else "street end",
                                              "junction_gap_m": round(entry_gap, 1)}))
        if mode == "follow":
            vertices.extend((xy, {**base, "vertex": "street"}) for xy in follow(geoms[i], start, end))
        vertices.append(((end.x, end.y), {**base, "vertex": "street end" if exit_gap > MEET_M else "junction",
                                          **({"next": RIVER_CLOSE if i == n - 1 else GAP_LINK, "confidence": "approximate"}
                                             if exit_gap > MEET_M else {})}))
    # drop repeats closer than a metre
    kept: list[tuple[tuple[float, float], dict]] = []
    for xy, props in vertices:
        if not kept or Point(xy).distance(Point(kept[-1][0])) > 1.0:
            kept.append((xy, props))
        elif props["vertex"] != "street":  # a junction or street end repeating a street vertex: keep what it says
            kept[-1] = (kept[-1][0], props)
    return kept


def main() -> None:
    vertices = trace(load_places())
    ring_m = [xy for xy, _ in vertices]
    polygon_m = Polygon(ring_m)
    if not polygon_m.is_valid:
        from shapely.validation import explain_validity

        raise SystemExit(f"invalid trace: {explain_validity(polygon_m)}")
    polygon = shapely.set_precision(_degrees(polygon_m), 1e-6)
    if not polygon.exterior.is_ccw:
        polygon = Polygon(list(reversed(polygon.exterior.coords)))
    features = [{
        "type": "Feature",
        "geometry": mapping(polygon),
        "properties": {"name": "Zona central (Lei 1.242/1987, Art. 24)", "kind": "central_zone", "article": "Art. 24",
                       "approximation": True, "note": NOTE, "vertices": len(polygon.exterior.coords)},
    }]
    for index, (xy, props) in enumerate(vertices, start=1):
        lon, lat = xy[0] / _KX, xy[1] / _KY
        features.append({"type": "Feature", "geometry": {"type": "Point", "coordinates": [round(lon, 6), round(lat, 6)]},
                         "properties": {"kind": "vertex", "index": index, **props}})
    doc = {"type": "FeatureCollection", "name": "muriae_central_zone_art24", "note": NOTE, "features": features}
    OUT.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", "utf-8")
    print(f"wrote {OUT} ({len(polygon.exterior.coords)} vertices, valid={polygon.is_valid}, "
          f"area {polygon_m.area / 1e6:.3f} km²)")


if __name__ == "__main__":
    main()
