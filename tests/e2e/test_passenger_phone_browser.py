"""The passenger page on a phone, in Chromium against a running Daphne (Art. 66, Art. 32): at 360x740 and 412x915
the ride's state (the error, no cab yet, offered, accepted with its ETA, arrived, cancelled by the driver) is in the
viewport and not covered, whatever the map does; no coordinate boxes; the destination found by address search; the
cab kept in view as it comes; and the last places used offered again. Screenshots of each state under
test-artifacts/phone/ (docs/passenger-app.md)."""

from __future__ import annotations

import re
import time
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from .client import driver, free_at
from .conftest import mark_pickup
from .test_console_browser import ARTIFACTS, expect

pytestmark = pytest.mark.e2e
ARTIFACTS_PHONE = ARTIFACTS.parent / "phone"
PHONES = [(360, 740), (412, 915)]

# In view and on top: the element's box inside the viewport, and the element (or a child) is what a finger at its
# centre touches (nothing, map or sheet, drawn over it).
UNCOVERED = """el => {
  const r = el.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  return { inView: r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth,
           onTop: !!hit && (hit === el || el.contains(hit)), hit: hit ? (hit.id || hit.className || hit.tagName) : null,
           rect: [r.left, r.top, r.right, r.bottom] };
}"""


def phone_page(browser, port, token, size, init: str = ""):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, has_touch=True, is_mobile=True,
                                  device_scale_factor=1, locale="pt-BR", timezone_id="America/Sao_Paulo")
    context.add_init_script(f"localStorage.setItem('taxiMuriae.passenger', JSON.stringify({{token: '{token}', name: 'Ana Passageira'}}))")
    if init:
        context.add_init_script(init)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"http://127.0.0.1:{port}/passageiro/")
    return context, page, errors


def assert_uncovered(page, selector: str, state: str) -> None:
    expect(page.locator(selector)).to_be_visible(timeout=10000)
    found = page.locator(selector).evaluate(UNCOVERED)
    assert found["inView"] and found["onTop"], f"{state}: {selector} not in view or covered: {found}"


# What a passenger must never read: a code (snake_case), a JavaScript leftover, English.
NOT_PT_BR = re.compile(r"\b[a-z]+_[a-z_]+\b|\bundefined\b|\bnull\b|\bNaN\b|\b(?:the|error|invalid|cancelled|requested)\b|R\$ -")


def assert_pt_br(page, state: str) -> None:
    text = page.locator("body").inner_text()
    assert not NOT_PT_BR.search(text), f"{state}: {NOT_PT_BR.search(text).group(0)!r} in the page"


def shot(page, size, state: str) -> None:
    assert_pt_br(page, state)
    ARTIFACTS_PHONE.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS_PHONE / f"{size[0]}x{size[1]}-{state}.png"))


def _cab_in_view(page) -> bool:
    return page.evaluate("""() => { const P = window.TaxiPassenger, r = P.ride, b = P.map.getBounds();
      return !!(r && r.cab_position) && b.contains([r.cab_position.lat, r.cab_position.lon]) && b.contains([r.pickup.lat, r.pickup.lon]); }""")


@pytest.mark.article("Art. 66", "Art. 32")
@pytest.mark.parametrize("size", PHONES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_rides_state_is_always_in_view_on_a_phone(platform, browser, drivers, size):
    world, port = platform.world, platform.ports[0]
    lat, lon = world["centre"]
    cab = world["cabs"][PHONES.index(size)]
    context, page, errors = phone_page(browser, port, world["passenger_token"], size)
    d = None
    try:
        expect(page.locator("#request")).to_be_visible(timeout=10000)
        # No coordinates for the passenger to read or type.
        visible_ids = page.locator("#request input:visible").evaluate_all("els => els.map(e => e.id)")
        assert not [i for i in visible_ids if i.endswith(("-lat", "-lon"))], visible_ids
        assert "atitude" not in page.locator("#request").inner_text()

        # An error (no pickup yet) is told where she looks, not under the map.
        page.get_by_role("button", name="Pedir táxi").click()
        assert_uncovered(page, "#notice", "error")
        shot(page, size, "1-error")

        # The pickup by a tap on the map; the destination by address search, as the pickup's.
        mark_pickup(page, lat, lon)
        page.fill("#pickup-address", "Praça Cel. Pacheco de Medeiros")
        page.locator("#destination-address").press_sequentially("domiciano 94", delay=20)
        suggestion = page.locator("#destination-suggestions .suggestion").first
        expect(suggestion).to_contain_text("Rua Coronel Domiciano, 94", timeout=10000)
        suggestion.dispatch_event("mousedown")
        expect(page.locator("path.destination-marker")).to_have_count(1)
        assert page.input_value("#destination-lat") and page.input_value("#destination-address").startswith("Rua Coronel Domiciano, 94")
        expect(page.locator("#estimate")).to_contain_text("Estimativa", timeout=10000)

        # No cab connected: nobody takes it, and she reads so at once.
        page.get_by_role("button", name="Pedir táxi").click()
        assert_uncovered(page, "#ride-status", "requested")
        assert_uncovered(page, "#escalated-help", "no cab")
        assert_uncovered(page, "#ride-state", "no cab")
        shot(page, size, "2-no-cab")
        ride_id = page.evaluate("window.TaxiPassenger.ride.id")

        # A cab frees up nearby: offered to it, accepted, coming (ETA, cab and pickup in view), arrived.
        d = drivers.run(_free(port, cab["token"], lat - 0.006, lon))
        offer = drivers.run(d.recv_until("offer", timeout=15))["offer"]
        assert offer["ride_id"] == ride_id
        expect(page.locator("#ride-status")).to_have_text("oferecida a um táxi", timeout=10000)
        assert_uncovered(page, "#ride-state", "offered")
        drivers.run(d.send(type="offer_accept", offer_id=offer["id"]))
        expect(page.locator("#ride-status")).to_have_text("aceita", timeout=10000)
        assert_uncovered(page, "#ride-eta", "accepted")
        page.evaluate("() => { window.TaxiPassenger.map.setView([-21.20, -42.45], 15, {animate: false}); }")  # somewhere else
        drivers.run(d.send(type="position", lat=lat - 0.004, lon=lon))
        expect(page.locator("#ride-eta")).to_contain_text("chega em cerca de", timeout=10000)
        deadline = time.monotonic() + 10
        while not _cab_in_view(page) and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        assert _cab_in_view(page), "the cab and the pickup are not both in view"
        assert_uncovered(page, "#ride-eta", "accepted")
        shot(page, size, "3-accepted")
        drivers.run(d.send(type="ride_arriving", ride_id=ride_id))
        assert_uncovered(page, "#arrived", "arrived")
        shot(page, size, "4-arrived")

        # The driver gives it up: who and why, in words.
        drivers.run(d.send(type="ride_cancel", ride_id=ride_id, reason="passenger_asked"))
        expect(page.locator("#ride-status")).to_have_text("cancelada", timeout=10000)
        assert_uncovered(page, "#ride-explain", "cancelled")
        assert "passenger_asked" not in page.locator("#ride-explain").inner_text()
        shot(page, size, "5-cancelled")

        # The places just used are offered again.
        page.get_by_role("button", name="Pedir outro táxi").click()
        expect(page.locator("#recent-list li")).to_have_count(2)
        page.get_by_role("button", name="Embarcar em Praça Cel. Pacheco de Medeiros").click()
        assert page.input_value("#pickup-address") == "Praça Cel. Pacheco de Medeiros"
        shot(page, size, "6-recent-places")
        assert not errors, errors
    finally:
        context.close()
        if d is not None:
            drivers.run(d.close())


@pytest.mark.article("Art. 66")
def test_each_error_is_told_once_in_words(platform, browser):
    """A place outside Muriaé says so (not "Mensagem inválida."); a booking time already past says so, once."""
    world, port = platform.world, platform.ports[0]
    context, page, errors = phone_page(browser, port, world["other_passenger_token"], (412, 915))
    try:
        expect(page.locator("#conn")).to_have_text("conectado", timeout=10000)
        mark_pickup(page, -21.60, -41.90)  # far east of the municipality
        page.fill("#pickup-address", "Fazenda longe")
        page.get_by_role("button", name="Pedir táxi").click()
        notice = page.locator("#notice")
        expect(notice).to_contain_text("Muriaé", timeout=10000)
        assert "Mensagem inválida" not in notice.inner_text()
        assert_uncovered(page, "#notice", "outside")
        expect(page.locator("#recent")).to_be_hidden()  # a refused place is not offered again

        lat, lon = world["centre"]
        mark_pickup(page, lat, lon)
        page.fill("#pickup-address", "Praça Cel. Pacheco de Medeiros")
        page.locator("#booking summary").click()
        yesterday = datetime.now(ZoneInfo("America/Sao_Paulo")) - timedelta(days=1)
        page.fill("#booking-at", yesterday.strftime("%Y-%m-%dT%H:%M"))
        page.get_by_role("button", name="Agendar", exact=True).click()
        expect(notice).to_contain_text("já passaram", timeout=10000)
        told = notice.inner_text()
        assert told.count("já passaram") == 1 and "menos de" not in told, told
        assert_uncovered(page, "#notice", "booking in the past")
        shot(page, (412, 915), "7-booking-past")
        assert not errors, errors
    finally:
        context.close()


async def _free(port, token, lat, lon):
    d = await driver(port, token)
    await d.recv_until("snapshot")
    await free_at(d, lat, lon)
    return d
