"""The pickup on Muriaé's streets, drawn as lines on a Kivy canvas (no tiles, no network).

:func:`view_lines` is plain Python (tested without a window): the streets of the
shipped gazetteer (``zones/data/streets.geojson``, sources in ``zones/data/SOURCE.md``)
within ``radius_m`` of the pickup, as polylines in pixels of a ``width`` x ``height``
view centred on it. :class:`StreetMapWidget` draws them and the pickup.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Iterable

STREETS_FILE = Path(__file__).resolve().parents[1] / "zones" / "data" / "streets.geojson"
M_PER_DEG_LAT = 110_574.0


@lru_cache(maxsize=1)
def _streets() -> tuple[tuple[str, tuple[tuple[float, float], ...]], ...]:
    doc = json.loads(STREETS_FILE.read_text("utf-8"))
    return tuple((f["properties"]["name"], tuple(map(tuple, line)))
                 for f in doc["features"] for line in f["geometry"]["coordinates"])


def view_lines(lat: float, lon: float, width: float, height: float, radius_m: float = 400.0,
               streets: Iterable | None = None) -> list[tuple[str, list[float]]]:
    """(name, [x0, y0, x1, y1, ...]) of every street part with a vertex within ``radius_m`` of the pickup.

    The view spans ``2 * radius_m`` across its shorter side; y grows upwards (Kivy's canvas).
    """
    kx = M_PER_DEG_LAT * math.cos(math.radians(lat)) * 1.0068  # metres per degree of longitude
    scale = min(width, height) / (2 * radius_m)  # pixels per metre
    cx, cy = width / 2, height / 2
    reach = max(width, height) / 2 / scale * 1.2  # metres: every street reaching into the view
    out = []
    for name, line in streets if streets is not None else _streets():
        pts = [((x - lon) * kx, (y - lat) * M_PER_DEG_LAT) for x, y in line]
        if not any(abs(px) < reach and abs(py) < reach for px, py in pts):
            continue
        flat = []
        for px, py in pts:
            flat.extend((cx + px * scale, cy + py * scale))
        out.append((name, flat))
    return out


def nearest_name(lat: float, lon: float, lines: list[tuple[str, list[float]]], width: float, height: float) -> str:
    """The named street drawn nearest the pickup (the map's caption)."""
    cx, cy = width / 2, height / 2
    best, name = float("inf"), ""
    for street, flat in lines:
        for i in range(0, len(flat) - 2, 2):
            d = _segment_distance(cx, cy, *flat[i:i + 4])
            if street and d < best:
                best, name = d, street
    return name


def _segment_distance(px, py, x0, y0, x1, y1) -> float:
    dx, dy = x1 - x0, y1 - y0
    t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((px - x0) * dx + (py - y0) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - (x0 + t * dx), py - (y0 + t * dy))


try:  # the widget needs Kivy; the functions above do not
    from kivy.graphics import Color, Ellipse, Line, Rectangle
    from kivy.properties import NumericProperty, StringProperty
    from kivy.uix.stencilview import StencilView

    class StreetMapWidget(StencilView):  # clips the lines to the widget
        """The streets around ``lat``/``lon`` and the pickup as a purple dot; ``caption`` names the nearest street."""

        lat = NumericProperty(0.0)
        lon = NumericProperty(0.0)
        radius_m = NumericProperty(350.0)
        caption = StringProperty("")

        def on_kv_post(self, *_):
            self.bind(pos=self.redraw, size=self.redraw, lat=self.redraw, lon=self.redraw)

        def redraw(self, *_):
            self.canvas.clear()
            if not self.lat and not self.lon:
                self.caption = ""
                return
            lines = view_lines(self.lat, self.lon, self.width, self.height, self.radius_m)
            self.caption = nearest_name(self.lat, self.lon, lines, self.width, self.height)
            with self.canvas:
                Color(0.93, 0.95, 0.97, 1)
                Rectangle(pos=self.pos, size=self.size)
                Color(0.55, 0.58, 0.63, 1)
                for _name, flat in lines:
                    shifted = [v + (self.x if i % 2 == 0 else self.y) for i, v in enumerate(flat)]
                    Line(points=shifted, width=1.6)
                Color(0.36, 0.13, 0.71, 1)
                r = 9
                Ellipse(pos=(self.center_x - r, self.center_y - r), size=(2 * r, 2 * r))
except ImportError:  # pragma: no cover - Kivy absent (backend-only installs)
    pass
