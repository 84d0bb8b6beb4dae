"""The console's shift view at an operator's 1366x768 screen, in Chromium against a running Daphne, with 200 rides of
the last 8 hours in the database (tests/e2e/shift_world.py): totals, filters by result, search by phone, plate and
ride number as the operator types, the caller's history while typing, and street names that never overlap (Art. 66)."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from .conftest import ROOT, Platform, _manage
from .shift_world import OLD, RIDES, plan
from .test_console_browser import ARTIFACTS, expect

pytestmark = pytest.mark.e2e
SHOTS = Path("/work/shots/console")
SCREEN = {"width": 1366, "height": 768}


@pytest.fixture(scope="module")
def platform(tmp_path_factory):
    p = Platform(tmp_path_factory.mktemp("e2e-shift-view"))
    try:
        p.prepare()
        made = _manage(p.env, str(ROOT / "tests" / "e2e" / "shift_world.py"), json.dumps(p.world))
        p.first_id = json.loads(made.stdout.strip().splitlines()[-1])["first_id"]
        p.start(1)
        yield p
    finally:
        p.stop()


def _expected(cabs: int, rides=range(RIDES)) -> dict:
    plans = [plan(i, cabs) for i in rides]
    waits = [p["wait_s"] for p in plans if p["served"]]
    average = round(sum(waits) / len(waits))
    return {"requested": len(plans), "served": sum(p["served"] for p in plans), "escalated": sum(p["escalated"] for p in plans),
            "cancelled": sum(not p["served"] for p in plans), "average": f"{average // 60} min {average % 60:02d} s"}


def _overlap(a, b) -> bool:
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


@pytest.mark.article("Art. 66")
def test_shift_view_totals_filters_search_and_history_while_typing(platform, browser):
    world, port = platform.world, platform.ports[0]
    cabs, want = len(world["cabs"]), _expected(len(world["cabs"]))
    context = browser.new_context(viewport=SCREEN, locale="pt-BR", timezone_id="America/Sao_Paulo")
    context.add_cookies([{"name": "sessionid", "value": world["operator"]["session"], "domain": "127.0.0.1", "path": "/"}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    lookups: list[str] = []
    page.on("request", lambda r: lookups.append(r.post_data or "") if "/central/chamadas.json" in r.url else None)
    try:
        page.goto(f"http://127.0.0.1:{port}/central/")
        expect(page.locator("#conn")).to_have_text("conectado", timeout=10000)
        page.locator("#shift summary").click()
        totals = page.locator("#shift-totals")
        expect(totals.locator('[data-total="requested"]')).to_have_text(str(want["requested"]), timeout=10000)
        for key in ("served", "escalated", "cancelled"):
            expect(totals.locator(f'[data-total="{key}"]')).to_have_text(str(want[key]))
        expect(totals.locator('[data-total="average_pickup_s"]')).to_have_text(want["average"])
        rows = page.locator("#shift-rides li.shift-ride")
        expect(rows).to_have_count(50)  # a page at a time
        expect(page.locator("#shift-page")).to_have_text(f"página 1 de 4 · {RIDES} corridas")
        expect(rows.first).to_contain_text(f"nº {platform.first_id}")  # the newest first
        page.locator("#shift-next").click()
        expect(page.locator("#shift-page")).to_contain_text("página 2 de 4")

        # Filters by result: the counts agree with the totals; the cancelled ones say by whom.
        page.select_option("#shift-state", "cancelled")
        expect(page.locator("#shift-count")).to_have_text(str(want["cancelled"]))
        expect(page.locator("#shift-page")).to_contain_text("página 1 de 2")
        expect(rows.first).to_contain_text("cancelada pelo passageiro")
        page.select_option("#shift-state", "escalated")
        expect(page.locator("#shift-count")).to_have_text(str(want["escalated"]))
        expect(page.locator("#shift-rides")).to_contain_text("cancelada por falta de táxi")
        page.select_option("#shift-state", "served")
        expect(page.locator("#shift-count")).to_have_text(str(want["served"]))
        page.select_option("#shift-hours", "24")  # the older rides come in
        expect(page.locator("#shift-count")).to_have_text(str(_expected(cabs, range(RIDES + OLD))["served"]))
        page.select_option("#shift-state", "")
        expect(totals.locator('[data-total="requested"]')).to_have_text(str(RIDES + OLD))
        page.select_option("#shift-hours", "8")

        # Search as the operator types (no Enter, no leaving the field): a phone, a plate, a ride number.
        search = page.locator("#shift-search")
        search.press_sequentially("(32) 98800-0042", delay=40)
        expect(page.locator("#shift-count")).to_have_text("1")
        expect(rows).to_have_count(1)
        expect(rows.first).to_contain_text("Cliente 042")
        assert page.evaluate("document.activeElement.id") == "shift-search"
        first_cab = world["cabs"][0]
        plate_rides = sum(1 for i in range(RIDES) if plan(i, cabs)["cab"] == 0)
        search.fill("")
        search.press_sequentially("rqe1a11", delay=40)  # the first cab's plate (tests/e2e/world.py), lower case
        expect(page.locator("#shift-count")).to_have_text(str(plate_rides))
        expect(rows.first).to_contain_text(f"táxi {first_cab['permit']} (RQE1A11)")
        search.fill(f"nº {platform.first_id + 7}")
        expect(page.locator("#shift-count")).to_have_text("1")
        expect(rows.first).to_contain_text("cancelada pela central")

        # The caller's history while typing the phone: before the field loses focus, one lookup for the whole number.
        phone = page.locator("#caller-phone")
        phone.click()
        phone.press_sequentially("(32) 98800-0013", delay=40)
        expect(page.locator("#caller-history")).to_contain_text("Cliente 013")
        expect(page.locator("#caller-name")).to_have_value("Cliente 013")
        assert page.evaluate("document.activeElement.id") == "caller-phone"
        assert len(lookups) == 1 and "32988000013" in lookups[0], lookups

        # Usable at 1366x768: the map, the shift list and the broadcast all on the screen at once.
        search.fill("")
        expect(rows).to_have_count(50)
        for selector in ("#map", "#shift-rides", "form.broadcast"):
            box = page.locator(selector).bounding_box()
            assert box and box["y"] >= 0 and box["y"] + min(box["height"], 40) <= SCREEN["height"], selector
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "console-shift-1366x768.png"))

        # Street names at street zoom: none over another.
        page.evaluate("() => { TaxiConsole.map.setView([-21.1311, -42.3676], 16); }")
        labels = page.locator(".street-label")
        expect(labels.first).to_be_visible(timeout=15000)
        # every label read at once, until two readings agree: the map redraws them (old and new for a moment) as it settles
        read = ("() => [...document.querySelectorAll('.street-label')].map(e => {"
                " const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; })"
                ".filter(b => b.width && b.height)")
        boxes, deadline = None, time.monotonic() + 15
        while (latest := page.evaluate(read)) != boxes and time.monotonic() < deadline:
            boxes = latest
            time.sleep(0.3)
        clashes = [(i, j) for i in range(len(boxes)) for j in range(i) if _overlap(boxes[i], boxes[j])]
        assert len(boxes) >= 5 and not clashes, (len(boxes), clashes)
        page.screenshot(path=str(ARTIFACTS / "console-labels-zoom16.png"))
        if SHOTS.parent.is_dir():  # the shots the session looked at (not needed by the test)
            SHOTS.mkdir(exist_ok=True)
            for name in ("console-shift-1366x768.png", "console-labels-zoom16.png"):
                shutil.copy(ARTIFACTS / name, SHOTS / name)
        assert not errors, errors
    finally:
        context.close()
