"""A newcomer's first run walked in Chromium as each user, against Daphne with the demo data (seed_demo and
seed_demo_rides, as `make run` loads it): the permit holder and the auxiliary find a closed week's PDF and CSV and the
running week as a provisional PDF; the demo passenger finds her rides; DIMUTRAN finds the booking, the rating, the
complaint, the Pix keys and the suspension in force in the admin (Art. 1, §3; Art. 54, b; Art. 60; Art. 66)."""

from __future__ import annotations

import json

import pytest

from .conftest import MIGRATED, ROOT, Platform, _manage
from .test_payments_e2e import browser, expect  # noqa: F401 (fixtures)

pytestmark = pytest.mark.e2e
ARTIFACTS = ROOT / "test-artifacts" / "first-run"


@pytest.fixture(scope="module")
def demo_platform(tmp_path_factory):
    p = Platform(tmp_path_factory.mktemp("first-run"))
    try:
        if p.db_name:
            MIGRATED.clone_postgres(p.db_name)
        else:
            MIGRATED.clone_sqlite(p.db_file)
        _manage(p.env, "manage.py", "seed_demo")
        _manage(p.env, "manage.py", "seed_demo_rides")
        found = _manage(p.env, "manage.py", "shell", "-c",
                        "import json; from backend.trips.models import Passenger; "
                        "p = Passenger.objects.get(phone='32999990001'); print(json.dumps({'token': p.token, 'name': p.name}))")
        p.passenger = json.loads(found.stdout.strip().splitlines()[-1])
        p.start(1)
        yield p
    finally:
        p.stop()


def _login(page, base, path, username, password):
    page.goto(f"{base}{path}")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.locator("[type=submit]").first.click()


@pytest.mark.article("Art. 1, §3", "Art. 54, b", "Art. 60", "Art. 66")
def test_each_user_finds_the_demo_on_their_screen(demo_platform, browser):  # noqa: F811
    base = f"http://127.0.0.1:{demo_platform.ports[0]}"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    for username in ("permissionario", "auxiliar"):
        context = browser.new_context(viewport={"width": 1300, "height": 900}, locale="pt-BR", timezone_id="America/Sao_Paulo")
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        try:
            _login(page, base, "/extratos/entrar/", username, "taxi12345")
            expect(page.get_by_text("extrato provisório").first).to_be_visible(timeout=15000)
            expect(page.get_by_text("Nenhum extrato fechado")).to_have_count(0)
            for link, kind in (("a[href$='.pdf'][href^='/statements/']", "application/pdf"), ("a[href$='.csv']", "text/csv"),
                               ("a[href^='/extratos/em-curso/']", "application/pdf")):
                href = page.locator(link).first.get_attribute("href")
                answer = page.request.get(base + href)
                assert answer.ok and answer.headers["content-type"].startswith(kind), (username, href)
            page.screenshot(path=str(ARTIFACTS / f"statements-{username}.png"), full_page=True)
        finally:
            context.close()

    context = browser.new_context(viewport={"width": 1300, "height": 900}, locale="pt-BR", timezone_id="America/Sao_Paulo")
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:  # the passenger page remembers the passenger on the phone (localStorage), as after her sign-up
        page.goto(f"{base}/passageiro/")
        page.evaluate("(me) => localStorage.setItem('taxiMuriae.passenger', JSON.stringify(me))", demo_platform.passenger)
        page.reload()
        expect(page.locator("#history-list li.history-ride")).to_have_count(3, timeout=15000)
        page.screenshot(path=str(ARTIFACTS / "passenger-history.png"), full_page=True)
    finally:
        context.close()

    context = browser.new_context(viewport={"width": 1300, "height": 900}, locale="pt-BR", timezone_id="America/Sao_Paulo")
    page = context.new_page()
    try:
        _login(page, base, "/admin/login/", "dimutran", "dimutran123")
        expect(page.locator("#site-name, #header")).not_to_have_count(0, timeout=15000)
        for path, text in (("/admin/bookings/booking/", demo_platform.passenger["name"]),
                           ("/admin/ratings/riderating/", "Motorista educado e carro limpo"),
                           ("/admin/enforcement/complaint/", demo_platform.passenger["name"]),
                           ("/admin/payments/pixkey/", "CPF"),
                           ("/admin/registry/suspension/", "TX-093")):
            page.goto(base + path)
            expect(page.locator("#result_list")).to_contain_text(text, timeout=10000)
        page.screenshot(path=str(ARTIFACTS / "admin-suspension.png"))
    finally:
        context.close()
    assert not errors, errors
