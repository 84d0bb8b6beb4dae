"""The dispatch web pages in a real browser (Debian's chromium driven by Playwright) against a running Daphne.

The operators' console (/central/) and the passenger page (/passageiro/) talk to
the same websockets as the apps; the drivers here are real driver websockets
(tests/e2e/client.py) run in a background thread with its own event loop, since
Playwright's sync API cannot run inside an asyncio loop.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from .client import driver, free_at, wait_flushed
from .conftest import CHROMIUM, fill_address, mark_pickup

pytestmark = pytest.mark.e2e
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "console"
TICK = 0.8  # positions reach the database and the operators in ~1 s batches

# `make test` installs Debian's chromium (Makefile SYSTEM_PACKAGES); without it these tests must fail, not skip.
assert shutil.which(CHROMIUM), "Debian's chromium is needed: apt-get install -y chromium"
from playwright import sync_api  # noqa: E402

expect = sync_api.expect


def _console(browser, platform):
    context = browser.new_context(viewport={"width": 1400, "height": 900}, locale="pt-BR", timezone_id="America/Sao_Paulo")
    context.add_cookies([{"name": "sessionid", "value": platform.world["operator"]["session"], "domain": "127.0.0.1", "path": "/"}])
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"http://127.0.0.1:{platform.ports[0]}/central/")
    return context, page, errors


@pytest.mark.article("Art. 66")
def test_console_requires_staff_login(platform, browser):
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"http://127.0.0.1:{platform.ports[0]}/central/")
    assert "/admin/login/" in page.url and "next=/central/" in page.url
    context.close()


@pytest.mark.article("Art. 66")
def test_console_shows_cabs_and_assigns_a_phone_ride_by_hand(platform, browser, drivers):
    world, port = platform.world, platform.ports[0]
    lat, lon = world["centre"]
    cab_a, cab_b, cab_c = world["cabs"][0], world["cabs"][1], world["cabs"][2]

    async def connect(cab, at, status="livre"):
        d = await driver(port, cab["token"])
        await d.recv_until("snapshot")
        await free_at(d, *at)
        if status != "livre":
            await d.send(type="status", status=status)
            await d.recv_until("status")
        return d

    # A free north of the centre; B connected but out of service (the operator may still pick it).
    a = drivers.run(connect(cab_a, (lat + 0.004, lon + 0.002)))
    b = drivers.run(connect(cab_b, (lat - 0.003, lon - 0.004), status="fora_de_servico"))
    wait_flushed(world, (cab_a, lat + 0.004, lon + 0.002), (cab_b, lat - 0.003, lon - 0.004))

    context, page, errors = _console(browser, platform)
    try:
        expect(page.locator("#conn")).to_have_text("conectado", timeout=10000)
        expect(page.locator("path.cab-marker")).to_have_count(2, timeout=10000)
        expect(page.locator("path.cab-marker.cab-livre")).to_have_count(1)
        expect(page.locator("path.cab-marker.cab-fora_de_servico")).to_have_count(1)
        expect(page.locator("#cab-rows")).to_contain_text(cab_a["permit"])
        expect(page.locator("path.rank-marker")).to_have_count(1, timeout=10000)  # the rank of the world, from the GeoJSON

        # A cab that connects while the console is open appears by itself, and changes colour with its state.
        c = drivers.run(connect(cab_c, (lat + 0.001, lon - 0.006)))
        expect(page.locator("path.cab-marker")).to_have_count(3, timeout=10000)
        drivers.run(c.send(type="status", status="fora_de_servico"))
        expect(page.locator("path.cab-marker.cab-fora_de_servico")).to_have_count(2, timeout=10000)

        # A caller phones: the operator types the ride (pickup clicked on the map, then corrected by hand).
        page.fill("#caller-name", "Maria do Telefone")
        page.fill("#caller-phone", "(32) 98888-7777")
        page.locator("#map").click(position={"x": 300, "y": 300})
        assert page.input_value("#pickup-lat") and page.input_value("#pickup-lon")
        page.fill("#pickup-lat", str(lat).replace(".", ","))  # Brazilian decimal comma accepted
        page.fill("#pickup-lon", str(lon))
        fill_address(page, "#pickup-address", "Praça Cel. Pacheco de Medeiros, em frente à igreja")
        page.get_by_role("button", name="Criar corrida").click()
        card = page.locator("li.ride", has_text="Maria do Telefone")
        expect(card).to_have_count(1, timeout=10000)
        ride_id = int(card.get_attribute("data-ride"))
        expect(card.locator("h3")).to_contain_text("(32) 98888-7777", timeout=10000)  # the phone to call back

        # The nearest free cab (A) gets the automatic offer; the history shows it.
        offer_a = drivers.run(a.recv_until("offer"))["offer"]
        assert offer_a["ride_id"] == ride_id
        expect(card.locator("table.offers")).to_contain_text(cab_a["permit"], timeout=10000)

        # The operator assigns it by hand to B, a connected cab; B's driver websocket receives the offer.
        card.locator("select.assign-select").select_option(str(cab_b["permit_id"]))
        card.get_by_role("button", name="Atribuir").click()
        offer_b = drivers.run(b.recv_until("offer", where=lambda m: m["offer"]["ride_id"] == ride_id))["offer"]
        assert "manual" in offer_b["reason"]
        expect(card.locator("table.offers tr", has_text=cab_b["permit"])).to_contain_text("atribuição manual pelo operador", timeout=10000)
        expect(page.locator("#notice")).to_contain_text("oferecida", timeout=5000)

        # A broadcast reaches the cabs.
        page.fill("#broadcast-text", "Atenção: trânsito interrompido na Av. Constantino Pinto.")
        page.get_by_role("button", name="Enviar aviso").click()
        assert drivers.run(a.recv_until("broadcast"))["text"].startswith("Atenção")

        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "console.png"))

        # Cancel it from the console: it leaves the list (and frees the world for the next test).
        card.locator("input.cancel-reason").fill("cliente desistiu por telefone")
        card.get_by_role("button", name="Cancelar corrida").click()
        expect(page.locator(f"li.ride[data-ride='{ride_id}']")).to_have_count(0, timeout=10000)

        # The connection drops: the console reconnects by itself and re-renders from the snapshot.
        page.evaluate("window.TaxiConsole.socket.drop()")
        expect(page.locator("#conn")).not_to_have_text("conectado", timeout=5000)
        expect(page.locator("#conn")).to_have_text("conectado", timeout=10000)
        expect(page.locator("path.cab-marker")).to_have_count(3, timeout=10000)
        expect(page.locator("#cab-count")).to_have_text("3")
        assert not errors, errors
    finally:
        context.close()
        for d in (a, b, c):
            drivers.run(d.close())


@pytest.mark.article("Art. 66", "Art. 32")
def test_passenger_signs_up_requests_and_sees_the_cvi_and_cmt(platform, browser, drivers):
    world, port = platform.world, platform.ports[0]
    lat, lon = world["centre"]
    cab = world["cabs"][3]
    d = drivers.run(_free(port, cab["token"], lat - 0.003, lon + 0.001))
    wait_flushed(world, (cab, lat - 0.003, lon + 0.001))

    context = browser.new_context(viewport={"width": 1200, "height": 860}, locale="pt-BR", timezone_id="America/Sao_Paulo")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"http://127.0.0.1:{port}/passageiro/")
        page.get_by_label("Nome").fill("João Navegador")
        page.get_by_label("Telefone com DDD").fill("(32) 99876-5432")
        page.get_by_role("button", name="Continuar").click()
        expect(page.locator("#request")).to_be_visible(timeout=10000)
        assert page.evaluate("JSON.parse(localStorage.getItem('taxiMuriae.passenger')).token")
        expect(page.locator("#passenger-name")).to_have_text("João Navegador")

        page.locator("#map").click(position={"x": 350, "y": 350})  # a pickup by click...
        mark_pickup(page, lat, lon)  # ...then exactly at the centre
        fill_address(page, "#pickup-address", "Rua Cel. Domingos Alves, 50")
        page.get_by_role("button", name="Pedir táxi").click()
        expect(page.locator("#ride")).to_be_visible(timeout=10000)

        offer = drivers.run(d.recv_until("offer"))["offer"]
        drivers.run(d.send(type="offer_accept", offer_id=offer["id"]))
        drivers.run(d.recv_until("offer_accepted"))
        expect(page.locator("#ride-status")).to_have_text("aceita", timeout=10000)
        expect(page.locator("#cab-info")).to_be_visible()
        expect(page.locator("#cvi-permit")).to_have_text(cab["permit"])
        expect(page.locator("#cvi-plate")).to_have_text(re.compile(r"^RQE\d"))
        expect(page.locator("#cvi-model")).to_have_text("Fiat Cronos")
        expect(page.locator("#cvi-colour")).to_have_text("branco")
        expect(page.locator("#driver-name")).to_have_text("Motorista 4")
        expect(page.locator("#driver-cmt")).to_have_text(re.compile(r"^CMT-E4$"))

        # The cab moves: its marker follows on the passenger's map.
        drivers.run(d.send(type="position", lat=lat - 0.001, lon=lon + 0.0005))
        expect(page.locator("path.my-cab")).to_have_count(1, timeout=10000)
        drivers.run(d.send(type="ride_arriving", ride_id=offer["ride_id"]))
        expect(page.locator("#ride-status")).to_have_text("o táxi chegou", timeout=10000)  # the driver tapped "Cheguei"

        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "passenger.png"))

        # The passenger cancels; the driver is told.
        page.get_by_role("button", name="Cancelar corrida").click()
        expect(page.locator("#ride-status")).to_have_text("cancelada", timeout=10000)
        assert drivers.run(d.recv_until("ride_cancelled"))["ride_id"] == offer["ride_id"]
        expect(page.get_by_role("button", name="Pedir outro táxi")).to_be_visible()
        assert not errors, errors
    finally:
        context.close()
        drivers.run(d.close())


async def _free(port, token, lat, lon):
    d = await driver(port, token)
    await d.recv_until("snapshot")
    await free_at(d, lat, lon)
    return d
