"""An admin action with its intermediate form, as DIMUTRAN staff use it in Chromium against the demo (issue #31: the
tolerance of Art. 34, § único, typed with the admin's calendar, never as raw text): select a permit, choose the
action, see the form with the selected permit and the calendar's shortcuts, register the act, read the message."""

from __future__ import annotations

import pytest

from .conftest import ROOT
from .test_first_run_browser import _login, demo_platform  # noqa: F401 (fixture)
from .test_payments_e2e import browser, expect  # noqa: F401 (fixtures)

pytestmark = pytest.mark.e2e
ARTIFACTS = ROOT / "test-artifacts" / "admin-acts"


@pytest.mark.article("Art. 34, § único")
def test_staff_grant_a_tolerance_through_the_action_form(demo_platform, browser):  # noqa: F811
    base = f"http://127.0.0.1:{demo_platform.ports[0]}"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="pt-BR", timezone_id="America/Sao_Paulo")
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        _login(page, base, "/admin/login/", "dimutran", "dimutran123")
        page.goto(f"{base}/admin/registry/permit/?status__exact=active")
        page.locator("input.action-select").first.check()
        page.select_option("select[name=action]", "tolerate_vehicle")
        page.locator("button[name=index]").click()
        expect(page.get_by_role("heading", name="Conceder tolerância do veículo")).to_be_visible(timeout=15000)
        expect(page.locator(".datetimeshortcuts").first).to_be_visible(timeout=15000)  # the admin's calendar
        page.select_option("select[name=case]", "provisional_vehicle")
        page.screenshot(path=str(ARTIFACTS / "tolerance-form.png"), full_page=True)
        page.locator("input[name=apply]").click()
        expect(page.locator(".messagelist .success")).to_contain_text("tolerância concedida até", timeout=15000)
        page.screenshot(path=str(ARTIFACTS / "tolerance-done.png"), full_page=True)
    finally:
        context.close()
    assert errors == []
