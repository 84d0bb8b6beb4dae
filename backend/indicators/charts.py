"""Server-side SVG charts for the DIMUTRAN page: no script, nothing fetched, rendered with the page (CSP-safe).

A chart is bars over labelled categories; every text is escaped. ``data-bars`` counts the bars drawn with a
value, so a test (and a reader) can tell an empty chart from a drawn one."""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import mark_safe

from taxilaw.brazil import br_number

WIDTH, HEIGHT, LEFT, BOTTOM, TOP = 640, 220, 48, 46, 14
COLOUR = "#1d4ed8"


def _fmt(value: float) -> str:
    return br_number(value, 1).removesuffix(",0")


def bars(chart_id: str, title: str, labels: list[str], values: list[float | None], unit: str = "",
         every: int = 1) -> str:
    """A vertical bar chart; ``every``: label one category in so many (31 days do not fit 31 labels)."""
    values = [v or 0 for v in values]
    top = max(values, default=0) or 1
    plot_w, plot_h = WIDTH - LEFT - 10, HEIGHT - BOTTOM - TOP
    step = plot_w / max(len(values), 1)
    parts = [f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{WIDTH - 10}" y2="{TOP + plot_h}" stroke="#9ca3af"/>',
             f'<text x="{LEFT - 6}" y="{TOP + 4}" text-anchor="end" font-size="11" fill="#4b5563">{escape(_fmt(top))}</text>',
             f'<text x="{LEFT - 6}" y="{TOP + plot_h}" text-anchor="end" font-size="11" fill="#4b5563">0</text>']
    drawn = 0
    for i, (label, value) in enumerate(zip(labels, values)):
        h = plot_h * value / top
        x = LEFT + i * step + step * 0.15
        if value > 0:
            drawn += 1
            parts.append(f'<rect class="bar" x="{x:.1f}" y="{TOP + plot_h - h:.1f}" width="{step * 0.7:.1f}" '
                         f'height="{h:.1f}" fill="{COLOUR}"><title>{escape(label)}: {escape(_fmt(value))}{escape(unit)}'
                         f'</title></rect>')
        if i % every == 0:
            cx = LEFT + i * step + step / 2
            turn = f' text-anchor="end" transform="rotate(-40 {cx:.1f} {TOP + plot_h + 14})"' if len(values) > 12 else \
                ' text-anchor="middle"'  # a few labels fit level
            parts.append(f'<text x="{cx:.1f}" y="{TOP + plot_h + 14}" font-size="10" fill="#374151"{turn}>'
                         f'{escape(label)}</text>')
    return _svg(chart_id, title, drawn, parts, WIDTH, HEIGHT)


def hbars(chart_id: str, title: str, labels: list[str], values: list[float | None], unit: str = "") -> str:
    """A horizontal bar chart (long category names: bairros, reasons)."""
    values = [v or 0 for v in values]
    top = max(values, default=0) or 1
    row, left = 22, 200
    height = TOP + row * max(len(values), 1) + 10
    parts, drawn = [], 0
    for i, (label, value) in enumerate(zip(labels, values)):
        y = TOP + i * row
        w = (WIDTH - left - 60) * value / top
        parts.append(f'<text x="{left - 6}" y="{y + 14}" text-anchor="end" font-size="11" fill="#374151">{escape(label[:32])}</text>')
        if value > 0:
            drawn += 1
            parts.append(f'<rect class="bar" x="{left}" y="{y + 3}" width="{w:.1f}" height="{row - 6}" fill="{COLOUR}">'
                         f'<title>{escape(label)}: {escape(_fmt(value))}{escape(unit)}</title></rect>')
        parts.append(f'<text x="{left + w + 4:.1f}" y="{y + 14}" font-size="11" fill="#111827">{escape(_fmt(value))}{escape(unit)}</text>')
    return _svg(chart_id, title, drawn, parts, WIDTH, height)


def _svg(chart_id: str, title: str, drawn: int, parts: list[str], width: int, height: int) -> str:
    return mark_safe(  # noqa: S308 (every interpolated text is escaped above; numbers are formatted by us)
        f'<svg id="{escape(chart_id)}" class="chart" data-bars="{drawn}" role="img" aria-labelledby="{escape(chart_id)}-t" '
        f'viewBox="0 0 {width} {height}" width="100%" preserveAspectRatio="xMinYMin meet" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{escape(chart_id)}-t">{escape(title)}</title>{"".join(parts)}</svg>')
