"""The passenger's safety in Chromium against a running Daphne (docs/passenger-safety.md): the right cab's code on
the page matches the driver's; an anonymous browser follows the shared ride, sees the cab and nothing about the
passenger, and is refused once the link is revoked and once the ride ends; an SOS raises the console's alarm within
2 s and is stored (Art. 32, Art. 66)."""

from __future__ import annotations

import time

import pytest

from .client import driver, free_at, wait_flushed
from .conftest import mark_pickup
from .test_console_browser import ARTIFACTS, _console, expect
from .test_passenger_account_browser import _drive
from .test_passenger_waiting_browser import _django

pytestmark = pytest.mark.e2e
ARTIFACTS_SAFETY = ARTIFACTS.parent / "safety"
PASSENGER_SECRETS = ("Ana Passageira", "32999991234", "99999-1234")


def _passenger_page(browser, port, token, lat, lon):
    context = browser.new_context(viewport={"width": 412, "height": 915}, locale="pt-BR", timezone_id="America/Sao_Paulo",
                                  geolocation={"latitude": lat, "longitude": lon, "accuracy": 10}, permissions=["geolocation"])
    context.add_init_script(f"localStorage.setItem('taxiMuriae.passenger', JSON.stringify({{token: '{token}', name: 'Ana Passageira'}}))")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"http://127.0.0.1:{port}/passageiro/")
    return context, page, errors


def _follower(browser, url):
    """Someone who got the link: a fresh browser, no passenger token, no session."""
    context = browser.new_context(viewport={"width": 412, "height": 915}, locale="pt-BR", timezone_id="America/Sao_Paulo")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    return context, page, errors


def _no_passenger_data(page) -> None:
    text = page.locator("body").inner_text() + page.evaluate("JSON.stringify(window.localStorage)")
    for secret in PASSENGER_SECRETS:
        assert secret not in text, secret


@pytest.mark.article("Art. 32", "Art. 66")
def test_shared_ride_code_and_sos_in_the_browser(platform, browser, drivers):
    world, port = platform.world, platform.ports[0]
    lat, lon = world["centre"]
    ARTIFACTS_SAFETY.mkdir(parents=True, exist_ok=True)
    cab = world["cabs"][3]
    d = drivers.run(_connect(port, cab["token"], lat - 0.002, lon))
    wait_flushed(world, (cab, lat - 0.002, lon))
    context, page, errors = _passenger_page(browser, port, world["passenger_token"], lat, lon)
    console, op_page, op_errors = _console(browser, platform)
    followers = []
    try:
        expect(page.locator("#request")).to_be_visible(timeout=10000)
        mark_pickup(page, lat, lon)
        page.get_by_role("button", name="Pedir táxi").click()
        offer = drivers.run(d.recv_until("offer", timeout=15))["offer"]
        drivers.run(d.send(type="offer_accept", offer_id=offer["id"]))
        ride = drivers.run(d.recv_until("offer_accepted"))["ride"]
        drivers.run(d.send(type="position", lat=lat - 0.0015, lon=lon))

        # The right cab: the page shows the plate and the code the driver's app got.
        check = page.locator("#boarding-check")
        expect(check).to_be_visible(timeout=10000)
        expect(page.locator("#boarding-code")).to_have_text(ride["boarding_code"])
        expect(page.locator("#boarding-plate")).to_have_text(ride["cvi"]["plate"])

        # Shared: an anonymous browser follows the cab, and sees nothing about Ana.
        page.get_by_role("button", name="Compartilhar corrida").click()
        expect(page.locator("#share-box")).to_be_visible(timeout=10000)
        url = page.locator("#share-url").input_value()
        assert "/acompanhar/" in url
        page.screenshot(path=str(ARTIFACTS_SAFETY / "passenger-shared-code.png"))
        f_context, follower, f_errors = _follower(browser, url)
        followers.append(f_context)
        expect(follower.locator("#follow-plate")).to_have_text(ride["cvi"]["plate"])
        expect(follower.locator("#follow-driver")).to_have_text(ride["driver"]["name"])
        expect(follower.locator("#follow-status")).to_have_text("aceita")
        follower.evaluate("window.TaxiFollow.poll()")
        expect(follower.locator(".cab-marker")).to_have_count(1, timeout=10000)
        _no_passenger_data(follower)
        assert ride["boarding_code"] not in follower.locator("body").inner_text()
        follower.screenshot(path=str(ARTIFACTS_SAFETY / "follower.png"))

        # SOS: one tap; the console's alarm within 2 s, the alert stored, the 190 call offered.
        expect(op_page.locator(f"li[data-ride='{ride['id']}']")).to_be_visible(timeout=10000)  # the console follows
        sos = page.get_by_role("button", name="SOS")
        expect(sos).to_be_visible()
        started = time.monotonic()
        sos.click()
        alarm = op_page.locator("#ops-alarm")
        expect(alarm).to_contain_text(f"SOS: o passageiro da corrida nº {ride['id']}", timeout=2000)
        took = time.monotonic() - started
        assert took < 2.0, took
        expect(alarm).to_contain_text(ride["cvi"]["plate"])
        expect(page.locator("#sos-call")).to_have_attribute("href", "tel:190")
        expect(page.locator("#sos-sent")).to_contain_text("A central foi avisada", timeout=5000)
        op_page.screenshot(path=str(ARTIFACTS_SAFETY / "console-sos-alarm.png"))
        page.screenshot(path=str(ARTIFACTS_SAFETY / "passenger-sos.png"))
        stored = _django(platform, "from dispatch.models import SosAlert; a = SosAlert.objects.get(); "
                                   "print(a.ride_id, a.plate, sorted(p['source'] for p in a.positions))")
        assert stored.split()[:2] == [str(ride["id"]), ride["cvi"]["plate"]] and "'passenger'" in stored
        op_page.get_by_role("button", name="Ciente").click()
        expect(alarm).to_be_hidden()
        assert _acknowledged_by(platform) == world_operator(platform)  # "Ciente" is kept with the alert

        # Revoked: the follower's page stops and says why; the link opens a refusal.
        page.get_by_role("button", name="Parar de compartilhar").click()
        expect(page.locator("#share-box")).to_be_hidden(timeout=10000)
        follower.evaluate("window.TaxiFollow.poll()")
        expect(follower.locator("#notice")).to_contain_text("deixou de compartilhá-la", timeout=10000)
        assert follower.goto(url).status == 410

        # A new link, then the ride ends: refused too.
        page.get_by_role("button", name="Compartilhar corrida").click()
        expect(page.locator("#share-box")).to_be_visible(timeout=10000)
        second = page.locator("#share-url").input_value()
        assert second != url
        follower.goto(second)
        expect(follower.locator("#follow-plate")).to_have_text(ride["cvi"]["plate"])
        drivers.run(_drive(d, ride["id"], lat, lon, steps=3), timeout=30)
        drivers.run(d.recv_until("ride_updated", where=lambda m: m["ride"]["status"] == "completed", timeout=15))
        follower.evaluate("window.TaxiFollow.poll()")
        expect(follower.locator("#notice")).to_contain_text("Esta corrida terminou", timeout=10000)
        follower.screenshot(path=str(ARTIFACTS_SAFETY / "follower-ended.png"))
        assert follower.goto(second).status == 410
        _no_passenger_data(follower)
        assert not errors and not op_errors and not f_errors, (errors, op_errors, f_errors)
    finally:
        for c in (context, console, *followers):
            c.close()
        drivers.run(d.close())


async def _connect(port, token, lat, lon):
    d = await driver(port, token)
    await d.recv_until("snapshot")
    await free_at(d, lat, lon)
    return d


def world_operator(platform) -> str:
    return _django(platform, "from django.contrib.sessions.models import Session; from django.contrib.auth import get_user_model\n"
                             f"s = Session.objects.get(pk='{platform.world['operator']['session']}').get_decoded()\n"
                             "print(get_user_model().objects.get(pk=s['_auth_user_id']).username)").strip()


def _acknowledged_by(platform, within: float = 10.0) -> str:
    """Who acknowledged the SOS, polled until the console's POST is recorded."""
    deadline = time.monotonic() + within
    while True:
        who = _django(platform, "from dispatch.models import SosAlert; print(SosAlert.objects.get().acknowledged_by)").strip()
        if who or time.monotonic() > deadline:
            return who
