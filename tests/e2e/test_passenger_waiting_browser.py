"""Never left waiting, in Chromium against a running Daphne (Art. 66): a ride no cab takes tells the passenger at once
what happens now (with the central's phone); a request made while the connection blinks is sent once it is back; the
operator's assignment shows; the driver's "Cheguei" alerts; and a booking made on the page is dispatched when its time
comes (the clock moved by shifting the booking's time)."""

from __future__ import annotations

import subprocess
import sys
import time
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from .client import driver, free_at, operator, wait_flushed
from .conftest import ROOT, Platform, fill_address, mark_pickup
from .test_console_browser import TICK, expect
from .test_passenger_account_browser import ARTIFACTS_PASSENGER, _page

pytestmark = pytest.mark.e2e
PHONE = "(32) 3729-1000"


@pytest.fixture(scope="module")
def platform(tmp_path_factory):
    p = Platform(tmp_path_factory.mktemp("e2e-waiting"))
    p.env["DISPATCH_CENTRAL_PHONE"] = PHONE
    try:
        p.prepare()
        p.start(1)
        yield p
    finally:
        p.stop()


def _django(platform, code: str) -> str:
    prelude = "import django; django.setup()\n"
    return subprocess.run([sys.executable, "-c", prelude + code], cwd=ROOT, env=platform.env, check=True,
                          capture_output=True, text=True).stdout


def _rides(platform) -> int:
    return int(_django(platform, "from backend.trips.models import Ride; print(Ride.objects.count())"))


@pytest.mark.article("Art. 66", "Art. 32")
def test_escalated_ride_tells_the_passenger_then_a_freed_cabs_offer_and_arrival_show(platform, browser, drivers):
    world, port = platform.world, platform.ports[0]
    lat, lon = world["centre"]
    ARTIFACTS_PASSENGER.mkdir(parents=True, exist_ok=True)
    context, page, errors = _page(browser, port, world["passenger_token"])
    cab = world["cabs"][0]
    d = op = None
    try:
        expect(page.locator("#request")).to_be_visible(timeout=10000)
        mark_pickup(page, lat, lon)
        fill_address(page, "#pickup-address", "Praça Cel. Pacheco de Medeiros")
        rides_before = _rides(platform)
        # The network blinks as she taps: the request waits for the connection instead of being lost.
        page.evaluate("window.TaxiPassenger.drop()")
        page.get_by_role("button", name="Pedir táxi").click()  # no cab is connected: nobody can take it
        expect(page.locator("#notice")).to_contain_text("seu pedido será enviado assim que a conexão voltar")
        help_box = page.locator("#escalated-help")
        expect(help_box).to_be_visible(timeout=10000)
        assert _rides(platform) == rides_before + 1  # sent once, when the connection came back
        expect(help_box).to_contain_text("A central foi avisada")
        expect(page.locator("#central-phone")).to_have_text(PHONE)
        expect(page.get_by_role("button", name="Cancelar corrida")).to_be_visible()
        page.screenshot(path=str(ARTIFACTS_PASSENGER / "escalated-notice.png"))
        ride_id = page.evaluate("window.TaxiPassenger.ride.id")

        # A cab connects free near her: the dispatcher offers it the escalated ride by itself (dispatch.rides.escalations),
        # and the passenger is told.
        d = drivers.run(_free(port, cab["token"], lat - 0.004, lon))
        op = drivers.run(operator(port, world["operator"]["session"]))
        drivers.run(op.recv_until("snapshot"))
        offer = drivers.run(d.recv_until("offer", timeout=15))["offer"]
        assert offer["ride_id"] == ride_id and "mais próximo" in offer["reason"]
        expect(page.locator("#ride-explain")).to_contain_text("A central indicou um táxi", timeout=10000)
        expect(help_box).to_be_hidden()

        # Accepted: the ETA from the cab's position; then "Cheguei": the alert.
        drivers.run(d.send(type="offer_accept", offer_id=offer["id"]))
        drivers.run(d.send(type="position", lat=lat - 0.003, lon=lon))
        expect(page.locator("#ride-eta")).to_contain_text("chega em cerca de", timeout=10000)
        drivers.run(d.send(type="ride_arriving", ride_id=ride_id))
        expect(page.locator("#arrived")).to_be_visible(timeout=10000)
        expect(page.locator("#ride-status")).to_have_text("o táxi chegou")
        page.screenshot(path=str(ARTIFACTS_PASSENGER / "arrived.png"))

        # The operator cancels it: the passenger reads who did and why.
        drivers.run(op.send(type="ride_cancel", ride_id=ride_id, reason="passageiro pediu por telefone"))
        expect(page.locator("#ride-explain")).to_contain_text("A central cancelou a corrida: passageiro pediu por telefone", timeout=10000)
        assert not errors, errors
    finally:
        context.close()
        for c in (d, op):
            if c is not None:
                drivers.run(c.close())


@pytest.mark.article("Art. 66")
def test_a_booking_made_on_the_page_is_dispatched_when_its_time_comes(platform, browser, drivers):
    world, port = platform.world, platform.ports[0]
    lat, lon = world["centre"]
    cab = world["cabs"][1]
    d = drivers.run(_free(port, cab["token"], lat + 0.002, lon))
    wait_flushed(world, (cab, lat + 0.002, lon))
    context, page, errors = _page(browser, port, world["passenger_token"])
    try:
        expect(page.locator("#request")).to_be_visible(timeout=10000)
        mark_pickup(page, lat, lon)
        fill_address(page, "#pickup-address", "Rua do Agendamento, 6")
        page.locator("#booking summary").click()
        local = datetime.now(ZoneInfo("America/Sao_Paulo")) + timedelta(hours=3)  # the page types Muriaé's time
        page.fill("#booking-at", local.strftime("%Y-%m-%dT%H:%M"))
        page.get_by_role("button", name="Agendar").click()
        expect(page.locator("#notice")).to_contain_text("Agendado para", timeout=10000)
        booking = page.locator("li.booking", has_text="Rua do Agendamento")
        expect(booking).to_be_visible(timeout=10000)
        page.screenshot(path=str(ARTIFACTS_PASSENGER / "booking-scheduled.png"))
        time.sleep(2 * TICK)  # a duration, not a wait: two ticks pass and the booking must still be waiting its time
        assert _django(platform, "from backend.bookings.models import Booking; print(Booking.objects.get().status)").strip() == "scheduled"

        # The clock reaches the dispatch time (15 min before the pickup): the tick turns it into a ride offered to the cab.
        _django(platform, "from django.utils import timezone; from backend.bookings.models import Booking\n"
                          "Booking.objects.update(dispatch_at=timezone.now())")
        offer = drivers.run(d.recv_until("offer", timeout=15))["offer"]
        assert offer["pickup"]["address"] == "Rua do Agendamento, 6"
        expect(page.locator("#ride")).to_be_visible(timeout=10000)
        expect(page.locator("#ride-address")).to_contain_text("Rua do Agendamento, 6")
        page.screenshot(path=str(ARTIFACTS_PASSENGER / "booking-dispatched.png"))
        assert not errors, errors
    finally:
        context.close()
        drivers.run(d.close())


async def _free(port, token, lat, lon):
    d = await driver(port, token)
    await d.recv_until("snapshot")
    await free_at(d, lat, lon)
    return d
