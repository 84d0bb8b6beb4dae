"""The base map in a real browser: Muriaé's streets drawn on the console and the passenger page, and the
console's address search centring the map on the street typed (Debian's chromium, a running Daphne).

Screenshots land in test-artifacts/maps/; the bytes and time to first draw of the streets layer are printed
(docs/maps.md quotes them).
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "maps"
assert shutil.which(CHROMIUM), "Debian's chromium is needed: apt-get install -y chromium"
from playwright import sync_api  # noqa: E402

expect = sync_api.expect
DOMICIANO = "Rua Coronel Domiciano"

# Alpha of the streets canvas around a street's points, in canvas pixels (a 7x7 window each).
INK_AT = """([name]) => {
  const map = window.TaxiConsole ? window.TaxiConsole.map : window.TaxiPassenger.map;
  const canvas = document.querySelector('.leaflet-streets-pane canvas');
  const rect = canvas.getBoundingClientRect(), box = map.getContainer().getBoundingClientRect();
  const sx = canvas.width / rect.width, sy = canvas.height / rect.height, ctx = canvas.getContext('2d');
  const out = [];
  window.__streets.forEach(f => {
    if (f.properties.name !== name) return;
    f.geometry.coordinates.forEach(line => line.slice(1).forEach(([lon, lat], i) => {
     const [lon0, lat0] = line[i];
     for (let k = 0; k < 4; k++) {  // points along each segment, not only its vertices
      const t = k / 4, p = map.latLngToContainerPoint([lat0 + t * (lat - lat0), lon0 + t * (lon - lon0)]);
      const x = Math.round((box.left + p.x - rect.left) * sx), y = Math.round((box.top + p.y - rect.top) * sy);
      if (x < 4 || y < 4 || x > canvas.width - 4 || y > canvas.height - 4) return;
      const d = ctx.getImageData(x - 3, y - 3, 7, 7).data;
      let ink = 0; for (let i = 3; i < d.length; i += 4) ink = Math.max(ink, d[i]);
      out.push(ink);
     }
    }));
  });
  return out;
}"""


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        yield b
        b.close()


def _open(browser, url, cookies=()):
    context = browser.new_context(viewport={"width": 1400, "height": 900}, locale="pt-BR", timezone_id="America/Sao_Paulo")
    if cookies:
        context.add_cookies(list(cookies))
    page = context.new_page()
    errors, streets = [], {}
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    def seen(response):
        if response.url.endswith("/api/geo/streets.geojson"):
            streets["bytes"] = int(response.headers.get("content-length", 0))
            streets["encoding"] = response.headers.get("content-encoding", "")
    page.on("response", seen)
    page.goto(url)
    page.wait_for_function("() => window.TaxiMapTiming && window.TaxiMapTiming.streets > 1000", timeout=20000)
    page.evaluate("fetch('/api/geo/streets.geojson').then(r => r.json()).then(d => { window.__streets = d.features; })")
    page.wait_for_function("() => window.__streets && window.__streets.length > 1000")
    return context, page, errors, streets


def _streets_drawn(page, where: str):
    page.evaluate("([lat, lon]) => { (window.TaxiConsole || window.TaxiPassenger).map.setView([lat, lon], 16, {animate: false}); }",  # names show from 16
                  [-21.13165, -42.3683])
    page.wait_for_timeout(600)
    ink = page.evaluate(INK_AT, [DOMICIANO])
    assert len(ink) >= 5, f"{where}: Rua Cel. Domiciano not in view"
    assert sum(1 for a in ink if a > 0) >= 0.8 * len(ink), f"{where}: the canvas is blank where Rua Cel. Domiciano runs"
    labels = page.locator(".street-label")
    expect(labels.filter(has_text=DOMICIANO)).to_have_count(1, timeout=5000)  # names appear as one zooms in


def _report(where, streets, page):
    timing = page.evaluate("window.TaxiMapTiming")
    print(f"\n{where}: streets layer {streets.get('bytes')} bytes ({streets.get('encoding') or 'identity'}), "
          f"{timing['streets']} streets, first draw {timing['firstDrawMs']} ms after the page asked")
    return timing


@pytest.mark.article("Art. 66")
def test_console_draws_the_streets_and_the_address_search_centres_the_map(platform, browser):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    cookie = {"name": "sessionid", "value": platform.world["operator"]["session"], "domain": "127.0.0.1", "path": "/"}
    context, page, errors, streets = _open(browser, f"http://127.0.0.1:{platform.ports[0]}/central/", [cookie])
    try:
        timing = _report("console", streets, page)
        assert streets["encoding"] == "gzip" and streets["bytes"] < 150_000
        assert timing["firstDrawMs"] < 10_000
        page.screenshot(path=str(ARTIFACTS / "console-overview.png"))
        _streets_drawn(page, "console")
        page.screenshot(path=str(ARTIFACTS / "console-domiciano.png"))

        # the operator types an address: suggestions, pick one, the map centres on that street
        page.evaluate("() => { window.TaxiConsole.map.setView([-21.1500, -42.3900], 14, {animate: false}); }")
        page.fill("#pickup-search", "domiciano 94")
        first = page.locator("#pickup-suggestions .suggestion").first
        expect(first).to_contain_text("Rua Coronel Domiciano, 94", timeout=5000)
        first.dispatch_event("mousedown")
        page.wait_for_timeout(800)
        centre = page.evaluate("(() => { const c = window.TaxiConsole.map.getCenter(); return [c.lat, c.lng]; })()")
        feature = page.evaluate("window.__streets.find(f => f.properties.name === 'Rua Coronel Domiciano')")
        points = [xy for line in feature["geometry"]["coordinates"] for xy in line]
        nearest = min(math.hypot((lon - centre[1]) * 104_000, (lat - centre[0]) * 110_600) for lon, lat in points)
        assert nearest < 150, f"map centred {nearest:.0f} m from the street"
        assert page.input_value("#pickup-lat") and page.input_value("#pickup-lon")
        assert "Rua Coronel Domiciano" in page.input_value("#pickup-address")
        page.screenshot(path=str(ARTIFACTS / "console-search.png"))
        assert errors == []
    finally:
        context.close()


@pytest.mark.article("Art. 66")
def test_passenger_page_draws_the_streets(platform, browser):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context, page, errors, streets = _open(browser, f"http://127.0.0.1:{platform.ports[0]}/passageiro/")
    try:
        _report("passenger", streets, page)
        _streets_drawn(page, "passenger page")
        page.screenshot(path=str(ARTIFACTS / "passenger-domiciano.png"))
        assert errors == []
    finally:
        context.close()


def test_streets_layer_is_served_small_and_cached(platform):
    import urllib.request

    url = f"http://127.0.0.1:{platform.ports[0]}/api/geo/streets.geojson"
    with urllib.request.urlopen(urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})) as r:
        assert r.headers["Content-Encoding"] == "gzip" and "max-age" in r.headers["Cache-Control"]
        packed = r.read()
    import gzip

    doc = json.loads(gzip.decompress(packed))
    assert len(doc["features"]) > 1000 and "ODbL" in doc["attribution"]
