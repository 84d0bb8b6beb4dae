"""Draw the passenger app's icons (docs/passenger-app.md) with Pillow: 192 and 512 px, a maskable 512 px (its
drawing inside the central 80 % safe zone) and the favicon (ICO, 16/32/48 px), into dispatch/static/dispatch/icons/.

Run ``python tools/make_icons.py`` after changing the drawing; the PNGs are committed (no build step).
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parents[1] / "dispatch" / "static" / "dispatch" / "icons"
NAVY, AMBER, WHITE = (15, 42, 74), (245, 158, 11), (255, 255, 255)


def draw(size: int, content: float = 1.0, rounded: bool = True) -> Image.Image:
    """A navy tile with an amber taxi sign ("TÁXI" roof light over a car); ``content`` shrinks the drawing (maskable)."""
    scale = 4  # drawn large, then reduced: smooth edges without antialiasing support in ImageDraw
    s = size * scale
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([0, 0, s - 1, s - 1], radius=int(s * 0.18) if rounded else 0, fill=NAVY)
    c = s / 2
    k = s * content  # the drawing's own size

    def box(x0, y0, x1, y1):  # coordinates in [0, 1] of the drawing, centred
        return [c + (x0 - 0.5) * k, c + (y0 - 0.5) * k, c + (x1 - 0.5) * k, c + (y1 - 0.5) * k]

    d.rounded_rectangle(box(0.36, 0.20, 0.64, 0.32), radius=int(k * 0.03), fill=AMBER)  # roof sign
    d.rounded_rectangle(box(0.26, 0.32, 0.74, 0.52), radius=int(k * 0.08), fill=AMBER)  # cabin
    d.rounded_rectangle(box(0.32, 0.36, 0.68, 0.48), radius=int(k * 0.04), fill=NAVY)  # windows
    d.rectangle(box(0.49, 0.36, 0.51, 0.48), fill=AMBER)  # the pillar between them
    d.rounded_rectangle(box(0.14, 0.48, 0.86, 0.70), radius=int(k * 0.07), fill=AMBER)  # body
    for x in (0.30, 0.70):  # wheels
        d.ellipse(box(x - 0.08, 0.62, x + 0.08, 0.78), fill=NAVY)
        d.ellipse(box(x - 0.04, 0.66, x + 0.04, 0.74), fill=WHITE)
    for x in (0.18, 0.78):  # headlights
        d.ellipse(box(x, 0.53, x + 0.05, 0.58), fill=WHITE)
    return img.resize((size, size), Image.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        draw(size).save(OUT / f"icon-{size}.png", optimize=True)
    draw(512, content=0.72, rounded=False).save(OUT / "icon-maskable-512.png", optimize=True)  # full bleed, 80 % safe
    draw(180, rounded=False).save(OUT / "apple-touch-icon.png", optimize=True)
    draw(48).save(OUT / "favicon.ico", sizes=[(16, 16), (32, 32), (48, 48)])
    draw(32).save(OUT / "favicon-32.png", optimize=True)


if __name__ == "__main__":
    main()
