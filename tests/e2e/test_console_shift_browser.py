"""The console for a whole shift, in Chromium at 1400x900 against a running Daphne: 30 real driver websockets all in
view on a map that fills the screen, an escalation that stays highlighted until handled, busy cabs marked in the
manual assignment, filters, the broadcast always reachable and a log that keeps every notice (Art. 66)."""

from __future__ import annotations

import random
import re

import pytest

from .client import driver, free_at, wait_flushed
from .conftest import Platform, fill_address
from .test_console_browser import ARTIFACTS, expect

pytestmark = pytest.mark.e2e
N_CABS = 30


@pytest.fixture(scope="module")
def platform(tmp_path_factory):
    p = Platform(tmp_path_factory.mktemp("e2e-shift"))
    p.env["E2E_CABS"] = str(N_CABS)
    try:
        p.prepare()
        p.start(1)
        yield p
    finally:
        p.stop()


def _inside(box, outer):
    return (box["x"] >= outer["x"] - 1 and box["y"] >= outer["y"] - 1 and box["x"] + box["width"] <= outer["x"] + outer["width"] + 1
            and box["y"] + box["height"] <= outer["y"] + outer["height"] + 1)


@pytest.mark.article("Art. 66")
def test_thirty_cabs_in_view_an_escalation_highlighted_until_handled(platform, browser, drivers):
    world, port = platform.world, platform.ports[0]
    lat, lon = world["centre"]
    rng = random.Random(66)

    async def connect_all():
        clients = []
        for cab in world["cabs"]:
            d = await driver(port, cab["token"])
            await d.recv_until("snapshot")
            at = (lat + rng.uniform(-0.018, 0.018), lon + rng.uniform(-0.018, 0.018))
            placed.append((cab, *at))
            await free_at(d, *at)
            await d.send(type="status", status="ocupado")  # every cab carries a street passenger: nobody can take a call
            await d.recv_until("status")
            clients.append(d)
        return clients

    placed: list = []
    clients = drivers.run(connect_all(), timeout=120)
    wait_flushed(world, *placed)
    context = browser.new_context(viewport={"width": 1400, "height": 900}, locale="pt-BR", timezone_id="America/Sao_Paulo")
    context.add_cookies([{"name": "sessionid", "value": world["operator"]["session"], "domain": "127.0.0.1", "path": "/"}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"http://127.0.0.1:{port}/central/")
        expect(page.locator("#conn")).to_have_text("conectado", timeout=10000)
        markers = page.locator("path.cab-marker")
        expect(markers).to_have_count(N_CABS, timeout=15000)
        page.wait_for_timeout(800)  # the boundary's fit
        map_box = page.locator("#map").bounding_box()
        assert map_box["height"] >= 780 and map_box["width"] >= 900  # the map fills the screen
        outside = [i for i in range(N_CABS) if not _inside(markers.nth(i).bounding_box(), map_box)]
        assert not outside, f"cabs out of view: {outside}"
        broadcast = page.locator("form.broadcast")
        assert _inside(broadcast.bounding_box(), {"x": 0, "y": 0, "width": 1400, "height": 900})  # reachable without scrolling

        page.mouse.click(5, 300)  # the operator's first click lets the page play sound
        page.fill("#caller-name", "Seu Zé da Padaria")
        page.fill("#caller-phone", "(32) 3721-4455")
        page.fill("#pickup-lat", f"{lat:.6f}")
        page.fill("#pickup-lon", f"{lon:.6f}")
        fill_address(page, "#pickup-address", "Padaria Central")
        page.get_by_role("button", name="Criar corrida").click()
        card = page.locator("li.ride", has_text="Seu Zé da Padaria")
        expect(card).to_have_class(lambda_re("is-escalated"), timeout=10000)
        expect(page.locator("#escalated-count")).to_have_text("1")
        expect(page.locator("path.escalated-marker")).to_have_count(1)
        options = card.locator("select.assign-select option.cab-busy")
        expect(options).to_have_count(N_CABS)
        assert options.first.is_disabled() and "(ocupado)" in options.first.inner_text()
        page.evaluate("Taxi.notice('')")  # another notice replaces the banner...
        expect(card).to_have_class(lambda_re("is-escalated"))  # ...the highlight stays, the log keeps the notice
        expect(page.locator("#log")).to_contain_text("Nenhum táxi aceitou")
        expect(card.locator(".countdown")).to_contain_text("nova tentativa a cada táxi livre · encerra às")  # gives_up_at
        page.screenshot(path=str(ARTIFACTS / "console-shift-escalation.png"))

        # The same caller phones again: their name comes back from the lookup, the phone sent in a POST body.
        with page.expect_request(lambda r: "/central/chamadas.json" in r.url) as lookup:
            page.fill("#caller-phone", "(32) 3721-4455")
            page.locator("#caller-phone").press("Tab")  # the lookup runs on change
        assert lookup.value.method == "POST" and "?" not in lookup.value.url and "37214455" in lookup.value.post_data
        expect(page.locator("#caller-history")).to_contain_text("Seu Zé da Padaria")

        # Filters: only the rides that need the operator; then back to all.
        page.select_option("#filter-state", "active")
        expect(card).to_have_count(0)
        page.select_option("#filter-state", "escalated")
        expect(card).to_have_count(1)
        page.select_option("#filter-zone", "outside")
        expect(markers).to_have_count(0)
        page.select_option("#filter-zone", "")
        expect(markers).to_have_count(N_CABS)
        page.select_option("#filter-state", "")

        # A cab leaves its passenger but stays out of service (the dispatcher offers it nothing); the operator
        # assigns it by hand: the escalation is handled and its highlight goes.
        first = world["cabs"][0]
        drivers.run(clients[0].send(type="status", status="fora_de_servico"))
        expect(card.locator(f'option[value="{first["permit_id"]}"]')).to_be_enabled(timeout=10000)
        card.locator("select.assign-select").select_option(str(first["permit_id"]))
        card.get_by_role("button", name="Atribuir").click()
        offer = drivers.run(clients[0].recv_until("offer"))["offer"]
        expect(card).not_to_have_class(lambda_re("is-escalated"), timeout=10000)
        expect(page.locator("#log")).to_contain_text("escalonamento atendido")

        # Its driver declines: the ride escalates again; a second cab frees and the dispatcher offers it the ride
        # by itself (dispatch.rides.escalations), with no operator.
        drivers.run(clients[0].send(type="offer_decline", offer_id=offer["id"]))
        expect(card).to_have_class(lambda_re("is-escalated"), timeout=10000)
        drivers.run(free_at(clients[1], lat + 0.003, lon))
        assert drivers.run(clients[1].recv_until("offer", timeout=15))["offer"]["ride_id"] == offer["ride_id"]
        expect(card).not_to_have_class(lambda_re("is-escalated"), timeout=10000)

        # A cab whose driver goes away leaves the map.
        drivers.run(clients[-1].close())
        expect(markers).to_have_count(N_CABS - 1, timeout=10000)
        assert not errors, errors
    finally:
        context.close()
        for d in clients:
            try:
                drivers.run(d.close())
            except Exception:  # already closed above
                pass


def lambda_re(word):
    return re.compile(rf"\b{word}\b")
