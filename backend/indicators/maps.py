"""Maps drawn on the server as SVG over Muriaé's streets (zones/data/streets.geojson): no tiles, no script.

Two maps for the DIMUTRAN page: the requests no cab answered, by pickup cell (the bairro indicators' 0.001° cells),
and the ranks sized by their mean cabs and coloured by their occupancy (``rank_occupancy``). The frame is the town's
urban area (``FRAME``); a mark outside it is not drawn and the legend says how many. ``data-marks`` counts the marks
drawn, so a test (and a reader) can tell an empty map from a drawn one."""

from __future__ import annotations

import json
import math
from functools import lru_cache

from django.db.models import Count
from django.utils.html import escape
from django.utils.safestring import mark_safe

from backend.trips.models import NO_CAB
from taxilaw.brazil import br_number, percent
from zones.gazetteer import STREETS_FILE

from .periods import Period
from .service import CELLS_PER_DEGREE, pickup_cells, requests

# (west, south, east, north): Muriaé's urban area, about 5.2 km x 4.5 km.
FRAME = (-42.392, -21.150, -42.342, -21.110)
WIDTH = 640
HEIGHT = round(WIDTH * (FRAME[3] - FRAME[1]) / ((FRAME[2] - FRAME[0]) * math.cos(math.radians(-21.13))))
UNANSWERED = "#b91c1c"


def project(lon: float, lat: float) -> tuple[float, float]:
    west, south, east, north = FRAME
    return (lon - west) / (east - west) * WIDTH, (north - lat) / (north - south) * HEIGHT


def _inside(x: float, y: float) -> bool:
    return 0 <= x <= WIDTH and 0 <= y <= HEIGHT


@lru_cache(maxsize=1)
def streets_path() -> str:
    """Every street line touching the frame as one SVG path (read once per process)."""
    parts = []
    for feature in json.loads(STREETS_FILE.read_text("utf-8"))["features"]:
        geometry = feature["geometry"]
        lines = geometry["coordinates"] if geometry["type"] == "MultiLineString" else [geometry["coordinates"]]
        for line in lines:
            points = [project(lon, lat) for lon, lat in line]
            if any(_inside(x, y) for x, y in points):
                parts.append("M" + "L".join(f"{x:.1f} {y:.1f}" for x, y in points))
    return "".join(parts)


def _svg(map_id: str, title: str, marks: list[str], legend: str) -> str:
    return mark_safe(  # noqa: S308 (names are escaped where each mark is built; numbers are formatted here)
        f'<svg id="{escape(map_id)}" class="map" data-marks="{len(marks)}" role="img" aria-labelledby="{escape(map_id)}-t" '
        f'viewBox="0 0 {WIDTH} {HEIGHT + 24}" width="100%" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{escape(map_id)}-t">{escape(title)}</title>'
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#f8fafc"/>'
        f'<path class="streets" d="{streets_path()}" fill="none" stroke="#9ca3af" stroke-width="0.8"/>'
        f'{"".join(marks)}<text x="6" y="{HEIGHT + 17}" font-size="12" fill="#374151">{escape(legend)}</text></svg>')


def unanswered_cells(period: Period) -> list[dict]:
    """Requests no cab answered (given up with no cab, or escalated to the operators) per pickup cell of 0.001°."""
    missed = requests(period).filter(NO_CAB)  # read through its partial index (trips.models)
    rows = pickup_cells(missed).annotate(n=Count("pk"))
    return [{"lat": row["cy"] / CELLS_PER_DEGREE, "lon": row["cx"] / CELLS_PER_DEGREE, "requests": row["n"]}
            for row in rows]


def unanswered_map(period: Period) -> str:
    cells = unanswered_cells(period)
    top = max((c["requests"] for c in cells), default=1)
    marks, outside = [], 0
    for cell in sorted(cells, key=lambda c: -c["requests"]):  # small circles drawn last, on top
        x, y = project(cell["lon"], cell["lat"])
        if not _inside(x, y):
            outside += cell["requests"]
            continue
        r = 4 + 10 * math.sqrt(cell["requests"] / top)
        marks.append(f'<circle class="mark" cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{UNANSWERED}" fill-opacity="0.55" '
                     f'stroke="#7f1d1d"><title>{cell["requests"]} pedido(s) sem táxi</title></circle>')
    total = sum(c["requests"] for c in cells)
    legend = f"{total} pedido(s) sem táxi; círculo: área de ~100 m, maior = mais pedidos"
    return _svg("map-unanswered", "Mapa dos pedidos sem táxi", marks, legend + (f"; {outside} fora do mapa" if outside else ""))


def _occupancy_colour(share: float) -> str:
    """Red (empty) through amber to green (always a cab there)."""
    share = max(0.0, min(1.0, share))
    hue = round(120 * share)
    return f"hsl({hue}, 70%, 40%)"


def _pct(share: float | None) -> str:
    return percent(share)


def occupancy_map(rows: list[dict]) -> str:
    """``rows``: :func:`backend.indicators.rank_occupancy.rank_occupancy`'s answer."""
    marks, outside = [], 0
    for row in sorted(rows, key=lambda r: -(r["cabs"] or 0)):
        x, y = project(row["lon"], row["lat"])
        if not _inside(x, y):
            outside += 1
            continue
        r = 5 + 9 * min(row["cabs"] or 0, 3) / 3
        cabs = br_number(row["cabs"] or 0, 1)
        marks.append(f'<circle class="mark" cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{_occupancy_colour(row["occupancy"] or 0)}" '
                     f'stroke="#111827"><title>{escape(row["name"])}: com táxi {_pct(row["occupancy"])} do tempo, '
                     f'{cabs} táxi(s) em média</title></circle>'
                     f'<text x="{x + r + 3:.1f}" y="{y + 4:.1f}" font-size="11" fill="#111827">{escape(row["name"][:28])} '
                     f'{_pct(row["occupancy"])}</text>')
    legend = "Cor: vermelho = ponto vazio, verde = sempre com táxi; tamanho: média de táxis"
    return _svg("map-ranks", "Mapa da ocupação dos pontos", marks, legend + (f"; {outside} fora do mapa" if outside else ""))
