"""DIMUTRAN's indicators page in Chromium against a running Daphne with the demo data (seed_demo and
seed_demo_rides): every chart and map drawn, the tables filled, a screenshot to look at (test-artifacts/indicators/)."""

from __future__ import annotations

import pytest

from .conftest import MIGRATED, ROOT, Platform, _manage
from .test_payments_e2e import browser, expect  # noqa: F401 (fixtures)

pytestmark = pytest.mark.e2e
ARTIFACTS = ROOT / "test-artifacts" / "indicators"


@pytest.fixture(scope="module")
def demo_platform(tmp_path_factory):
    """A platform with the demo fleet and four weeks of demo rides instead of the tests' small world."""
    p = Platform(tmp_path_factory.mktemp("indicators"))
    try:
        if p.db_name:
            MIGRATED.clone_postgres(p.db_name)
        else:
            MIGRATED.clone_sqlite(p.db_file)
        _manage(p.env, "manage.py", "seed_demo")
        _manage(p.env, "manage.py", "seed_demo_rides")
        p.start(1)
        yield p
    finally:
        p.stop()


def test_dimutran_sees_every_chart_drawn(demo_platform, browser):  # noqa: F811
    base = f"http://127.0.0.1:{demo_platform.ports[0]}"
    context = browser.new_context(viewport={"width": 1300, "height": 1000}, locale="pt-BR", timezone_id="America/Sao_Paulo")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{base}/dimutran/indicadores/")
        assert "/admin/login/" in page.url  # anonymous: to the login, then back
        page.fill("#id_username", "dimutran")
        page.fill("#id_password", "dimutran123")
        page.locator("input[type=submit]").click()
        expect(page.locator("h1")).to_contain_text("Indicadores do serviço de táxi", timeout=15000)
        charts = page.locator("svg.chart")
        expect(charts).to_have_count(8)
        for i in range(8):
            chart = charts.nth(i)
            assert int(chart.get_attribute("data-bars")) > 0, chart.get_attribute("id")
            box = chart.locator("rect.bar").first.bounding_box()
            assert box and box["width"] > 0 and box["height"] > 0  # drawn, not only present
        for map_id in ("map-unanswered", "map-ranks"):  # drawn over the streets, marks inside the frame
            drawn = page.locator(f"#{map_id}")
            assert int(drawn.get_attribute("data-marks")) > 0, map_id
            assert drawn.locator("path.streets").bounding_box()["width"] > 300
            box = drawn.locator("circle.mark").first.bounding_box()
            assert box and box["width"] > 0 and box["height"] > 0
        expect(page.locator("section[aria-labelledby=t-ranks] tbody tr").first).to_contain_text("Praça")
        expect(page.locator("#t-bairros")).to_be_visible()
        assert page.locator("section[aria-labelledby=t-bairros] tbody tr").count() >= 3
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "indicators_page.png"), full_page=True)
        assert errors == []
    finally:
        context.close()
