"""The passenger's page beyond the live ride, in Chromium against a running Daphne: the fare estimate before asking,
a ride driven to its end by a real driver websocket, the history with its receipt (page and PDF), a rating, and a
complaint filed on the page and found by DIMUTRAN in the admin (Art. 32, Art. 43, Art. 45, Art. 60)."""

from __future__ import annotations

import asyncio
import re
from datetime import datetime, timezone

import pytest

from taxilaw.meter import Meter
from taxilaw.meter_data import Fix
from taxilaw.tariffs import MURIAE_DEMO_TARIFF

from .client import driver, free_at, wait_flushed
from .conftest import fill_address, mark_pickup
from .test_console_browser import ARTIFACTS, expect

pytestmark = pytest.mark.e2e
ARTIFACTS_PASSENGER = ARTIFACTS.parent / "passenger"


def _page(browser, port, token, size=(1200, 900)):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="pt-BR", timezone_id="America/Sao_Paulo")
    context.add_init_script(f"localStorage.setItem('taxiMuriae.passenger', JSON.stringify({{token: '{token}', name: 'Ana Passageira'}}))")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"http://127.0.0.1:{port}/passageiro/")
    return context, page, errors


async def _drive(d, ride_id, lat, lon, steps=20):
    """arriving, on board, ~400 m north at real time, then the meter's total and the trace (as the driver app)."""
    await d.send(type="ride_arriving", ride_id=ride_id)
    await d.recv_until("ride_updated", where=lambda m: m["ride"]["status"] == "arriving")
    await d.send(type="ride_on_board", ride_id=ride_id)
    await d.recv_until("ride_updated", where=lambda m: m["ride"]["status"] == "on_board")
    meter, trace = Meter(MURIAE_DEMO_TARIFF), []
    meter.start(datetime.now(timezone.utc))
    for i in range(steps):
        await asyncio.sleep(0.5)
        fix = Fix(datetime.now(timezone.utc), round(lat + 0.00018 * (i + 1), 6), lon, 5.0)
        meter.feed(fix)
        trace.append(fix.to_dict())
    total = meter.stop(datetime.now(timezone.utc)).total
    await d.send(type="ride_complete", ride_id=ride_id, meter_total=f"{total:.2f}", trace=trace)
    return total


@pytest.mark.article("Art. 45, I", "Art. 45, II", "Art. 32", "Art. 43", "Art. 60")
def test_estimate_then_a_ride_to_its_receipt_a_rating_and_a_complaint_found_in_the_admin(platform, browser, drivers):
    world, port = platform.world, platform.ports[0]
    lat, lon = world["centre"]
    cab = world["cabs"][0]
    d = drivers.run(_free(port, cab["token"], lat - 0.002, lon))
    wait_flushed(world, (cab, lat - 0.002, lon))
    ARTIFACTS_PASSENGER.mkdir(parents=True, exist_ok=True)
    context, page, errors = _page(browser, port, world["passenger_token"])
    try:
        expect(page.locator("#request")).to_be_visible(timeout=10000)
        mark_pickup(page, lat, lon)
        fill_address(page, "#pickup-address", "Praça Cel. Pacheco de Medeiros")
        page.check("#pick-destination")
        page.locator("#map").click(position={"x": 420, "y": 180})  # the destination by a click on the map
        expect(page.locator("path.destination-marker")).to_have_count(1)
        page.fill("#destination-address", "Rodoviária <b>de</b> Muriaé")
        page.locator("#destination-address").blur()  # done typing: no suggestion list over the button
        estimate = page.locator("#estimate")
        expect(estimate).to_contain_text(re.compile(r"Estimativa: R\$\s?\d+,\d\d a R\$\s?\d+,\d\d"), timeout=10000)
        expect(estimate).to_contain_text("Bandeira")
        expect(estimate).to_contain_text("taxímetro")
        page.screenshot(path=str(ARTIFACTS_PASSENGER / "fare-estimate.png"))

        page.get_by_role("button", name="Pedir táxi").click()
        expect(page.locator("#ride")).to_be_visible(timeout=10000)
        offer = drivers.run(d.recv_until("offer"))["offer"]
        drivers.run(d.send(type="offer_accept", offer_id=offer["id"]))
        drivers.run(d.recv_until("offer_accepted"))
        expect(page.locator("#ride-status")).to_have_text("aceita", timeout=10000)
        total = drivers.run(_drive(d, offer["ride_id"], lat, lon), timeout=40)
        expect(page.locator("#ride-status")).to_have_text("concluída", timeout=10000)

        item = page.locator(f'.history-ride[data-ride="{offer["ride_id"]}"]')
        expect(item).to_be_visible(timeout=10000)
        expect(item).to_contain_text(f"{total:.2f}".replace(".", ","))
        expect(item).to_contain_text("Rodoviária <b>de</b> Muriaé")  # user text stays text
        item.get_by_role("button", name="4 estrelas").click()
        item.get_by_role("button", name="Enviar avaliação").click()
        expect(item).to_contain_text("Corrida avaliada.", timeout=10000)
        item.locator("summary", has_text="Reclamar").click()
        item.get_by_label("O que aconteceu").fill("O motorista não quis ligar o ar e reclamou do destino.")
        item.get_by_role("button", name="Registrar reclamação").click()
        expect(item.locator(".complaint-filed")).to_contain_text(re.compile(r"Reclamação nº \d+ registrada"), timeout=10000)
        complaint_id = re.search(r"nº (\d+)", item.locator(".complaint-filed").inner_text()).group(1)
        # After a reload the page knows: rated, complaint filed; neither is offered again.
        page.reload()
        expect(item.locator(".complaint-filed")).to_have_text(f"Reclamação nº {complaint_id} registrada.", timeout=10000)
        expect(item).to_contain_text("Corrida avaliada.")
        expect(item.get_by_role("button", name="Enviar avaliação")).to_have_count(0)
        expect(item.locator("summary", has_text="Reclamar")).to_have_count(0)
        page.screenshot(path=str(ARTIFACTS_PASSENGER / "history.png"), full_page=True)

        with context.expect_page() as popup:
            item.get_by_role("link", name="Recibo").click()
        receipt = popup.value
        receipt.wait_for_load_state()
        expect(receipt.locator("#lines")).to_contain_text("Bandeirada")
        expect(receipt.locator("#lines")).to_contain_text("Quilômetros em Bandeira")
        expect(receipt.locator("#total")).to_have_text(re.compile(re.escape(f"{total:.2f}".replace(".", ","))))
        expect(receipt.locator("body")).to_contain_text(cab["permit"])
        expect(receipt.locator("body")).to_contain_text("CMT-E1")
        expect(receipt.locator("svg polyline")).to_have_count(1)
        receipt.screenshot(path=str(ARTIFACTS_PASSENGER / "receipt.png"), full_page=True)
        pdf = receipt.request.get(receipt.url.rstrip("/") + ".pdf")
        assert pdf.ok and pdf.body().startswith(b"%PDF")
        assert not errors, errors
    finally:
        context.close()
        drivers.run(d.close())

    # DIMUTRAN finds the complaint in the admin, with the ride's data.
    admin = browser.new_context(viewport={"width": 1300, "height": 800}, locale="pt-BR")
    admin.add_cookies([{"name": "sessionid", "value": world["admin"]["session"], "domain": "127.0.0.1", "path": "/"}])
    try:
        page = admin.new_page()
        page.goto(f"http://127.0.0.1:{port}/admin/enforcement/complaint/")
        expect(page.locator(f'#result_list a[href$="/complaint/{complaint_id}/change/"]')).to_have_count(1)
        page.goto(f"http://127.0.0.1:{port}/admin/enforcement/complaint/{complaint_id}/change/")
        expect(page.locator("body")).to_contain_text("não quis ligar o ar")
        page.screenshot(path=str(ARTIFACTS_PASSENGER / "complaint-in-admin.png"), full_page=True)
    finally:
        admin.close()


async def _free(port, token, lat, lon):
    d = await driver(port, token)
    await d.recv_until("snapshot")
    await free_at(d, lat, lon)
    return d
