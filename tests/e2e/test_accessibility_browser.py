"""WCAG 2.2 AA on the pages people use, in Chromium against a running Daphne (Lei 13.146/2015, Art. 63; eMAG;
docs/passenger-app.md): axe-core (axe-playwright-python) finds no violation on the passenger page (at a phone's size
and on a desktop), the landing page, the statements pages and the operators' console; and a ride is requested,
followed and cancelled with the keyboard alone, its state announced in live regions."""

from __future__ import annotations

import pytest

from .test_console_browser import expect

pytestmark = pytest.mark.e2e
WCAG_22_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]},
              "resultTypes": ["violations"]}


def _violations(page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page, options=WCAG_22_AA).response["violations"]
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:5]]}" for v in found]


def _context(browser, size, passenger=None, cookie=None):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="pt-BR", timezone_id="America/Sao_Paulo")
    if passenger:
        context.add_init_script(f"localStorage.setItem('taxiMuriae.passenger', JSON.stringify({{token: '{passenger}', name: 'Ana Passageira'}}))")
    if cookie:
        context.add_cookies([{"name": "sessionid", "value": cookie, "domain": "127.0.0.1", "path": "/"}])
    return context


@pytest.mark.article("Art. 66")
@pytest.mark.parametrize("size", [(360, 740), (1280, 900)], ids=["phone", "desktop"])
def test_axe_finds_no_wcag_22_aa_violation_on_the_public_pages(platform, browser, size):
    world, base = platform.world, f"http://127.0.0.1:{platform.ports[0]}"
    context = _context(browser, size, passenger=world["passenger_token"])
    try:
        page = context.new_page()
        page.goto(f"{base}/passageiro/")
        expect(page.locator("#conn")).to_have_text("conectado", timeout=10000)
        assert _violations(page) == [], "passenger page"
        page.goto(f"{base}/")
        assert _violations(page) == [], "landing page"
        page.goto(f"{base}/extratos/entrar/")
        assert _violations(page) == [], "statements login"
        page.fill("input[name=username]", "driver1")
        page.fill("input[name=password]", "x")
        page.locator("button[type=submit], input[type=submit]").first.click()
        page.goto(f"{base}/extratos/")
        expect(page.get_by_role("heading", name="Extratos semanais", exact=False).first).to_be_visible()
        assert _violations(page) == [], "statements"
    finally:
        context.close()


@pytest.mark.article("Art. 66")
def test_axe_finds_no_wcag_22_aa_violation_on_the_console(platform, browser):
    context = _context(browser, (1280, 900), cookie=platform.world["operator"]["session"])
    try:
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{platform.ports[0]}/central/")
        expect(page.locator("#conn")).to_have_text("conectado", timeout=10000)
        assert _violations(page) == [], "console"
    finally:
        context.close()


def _tab_to(page, accessible_name: str, limit: int = 60) -> None:
    """Press Tab until the focus is on the element named ``accessible_name`` (its text or aria-label)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        name = page.evaluate("(() => { const e = document.activeElement; return e.getAttribute('aria-label') || e.id || e.textContent.trim(); })()")
        if name == accessible_name:
            return
    raise AssertionError(f"Tab never reached {accessible_name!r}")


@pytest.mark.article("Art. 66")
def test_a_ride_is_requested_followed_and_cancelled_with_the_keyboard_alone(platform, browser):
    context = _context(browser, (412, 915), passenger=platform.world["other_passenger_token"])
    try:
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{platform.ports[0]}/passageiro/")
        expect(page.locator("#conn")).to_have_text("conectado", timeout=10000)
        _tab_to(page, "pickup-search")
        page.keyboard.type("domiciano 94", delay=30)
        expect(page.locator("#pickup-suggestions .suggestion").first).to_contain_text("Rua Coronel Domiciano, 94", timeout=10000)
        page.keyboard.press("ArrowDown")
        page.wait_for_timeout(400)  # a person reads the suggestion: the list stays while the focus is in it
        page.keyboard.press("Enter")
        expect(page.locator("#pickup-search")).to_have_value("Rua Coronel Domiciano, 94 - Centro")
        assert page.input_value("#pickup-lat")
        _tab_to(page, "Pedir táxi")
        page.keyboard.press("Enter")
        expect(page.locator("#ride-status")).to_have_text("solicitada", timeout=10000)
        # The state is announced: inside live regions.
        live = page.locator("#ride-status").evaluate("e => !!e.closest('[aria-live]')")
        assert live and page.locator("#notice").get_attribute("aria-live") == "assertive"
        _tab_to(page, "Cancelar corrida")
        page.keyboard.press("Enter")
        expect(page.locator("#ride-status")).to_have_text("cancelada", timeout=10000)
    finally:
        context.close()
