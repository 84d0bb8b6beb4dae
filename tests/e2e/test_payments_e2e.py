"""Paying the fare end to end against a running Daphne (docs/payments.md).

Street trips of last week driven by an auxiliary (websocket ``street_trip_complete``, as the app's offline queue
sends them) are paid through the driver app's own payments client: one by Pix to the auxiliary's key, one on
the holder's card machine; the holder drives one himself, paid in cash. ``manage.py close_weeks`` closes the
week; the closed statements list the rides and settle the week (Art. 1, §3): the auxiliary pays the holder what
he received beyond his 25 %. The /extratos/ page and the PDF are screenshot; a dispatched ride paid by Pix shows
its QR code and "Pix copia e cola" on the passenger page in Chromium.
"""

from __future__ import annotations

import asyncio
import io
import json
import shutil
import subprocess
import sys
import uuid
from datetime import datetime, time, timedelta
from decimal import Decimal

import pytest
import zxingcpp
from PIL import Image
from websockets.exceptions import ConnectionClosed

from driver_app.clients import HttpPaymentsClient, HttpRegistryClient, RejectedError
from taxilaw import pix
from taxilaw.flags import MURIAE_TZ
from taxilaw.split import split_gross, week_start

from .client import driver, free_at, operator
from .conftest import ROOT, Drivers, mark_pickup
from .test_dispatch_flow import trace_around
from .test_driver_app_e2e import api_get
from .test_street_trip import recomputed

pytestmark = pytest.mark.e2e

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "test-artifacts" / "payments"
assert shutil.which(CHROMIUM), "Debian's chromium is needed: apt-get install -y chromium"
from playwright import sync_api  # noqa: E402

expect = sync_api.expect


def last_week_at(day: int, hour: int) -> datetime:
    """``hour`` o'clock, local, on weekday ``day`` (0 = Monday) of last week."""
    monday = week_start(datetime.now(MURIAE_TZ)) - timedelta(days=7)
    return datetime.combine(monday + timedelta(days=day), time(hour), MURIAE_TZ)


def street_trip(lat: float, lon: float, started: datetime, meter_total: str) -> dict:
    trace = [{"t": (started + timedelta(seconds=3 * (i + 1))).isoformat(), "lat": lat - i * 0.0002,
              "lon": lon + i * 0.0001, "accuracy_m": 6} for i in range(60)]
    return {"type": "street_trip_complete", "trip_id": str(uuid.uuid4()), "started_at": started.isoformat(),
            "stopped_at": trace[-1]["t"], "meter_total": meter_total, "trace": trace}


@pytest.fixture(scope="module")
def auxiliary(platform):
    out = subprocess.run([sys.executable, str(ROOT / "tests" / "e2e" / "payments_world.py"),
                          str(platform.world["cabs"][0]["permit_id"])], cwd=ROOT, env=platform.env, check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def drivers():
    """Websocket clients on a loop of their own: Playwright's sync API holds this thread's."""
    d = Drivers()
    yield d
    d.stop()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu",
                                                              "--disable-background-networking"])
        yield b
        b.close()


@pytest.mark.article("Art. 1, §3", "Art. 43")
def test_pix_to_the_auxiliary_and_cash_to_the_holder_reach_the_closed_weeks_settlement(platform, auxiliary, browser,
                                                                                     drivers):
    world, port = platform.world, platform.ports[0]
    lat, lon = world["centre"]
    cab = world["cabs"][0]
    base = f"http://127.0.0.1:{port}"
    payments = HttpPaymentsClient(HttpRegistryClient(base))
    pix_trip, card_trip, cash_trip = (street_trip(lat, lon, last_week_at(2, 10), ""),
                                      street_trip(lat, lon, last_week_at(3, 15), ""),
                                      street_trip(lat, lon, last_week_at(4, 9), ""))
    for trip, extra in ((pix_trip, 0), (card_trip, 3), (cash_trip, 0)):  # the card trip's meter shows R$ 3,00 more
        server = Decimal(recomputed(port, cab["token"], trip, "0.00")["server_total"])
        trip["meter_total"] = str(server + extra)
    fare_pix, fare_card = Decimal(pix_trip["meter_total"]), Decimal(card_trip["meter_total"])
    aux_share, holder_share = split_gross(fare_pix + fare_card)
    owed = fare_pix - aux_share  # what the auxiliary received beyond his 25 %
    assert owed > 0

    def brl(value: Decimal) -> str:
        return f"R$ {value:.2f}".replace(".", ",")

    async def trips():
        ops = await operator(port, world["operator"]["session"])
        await ops.recv_until("snapshot")
        aux = await driver(port, auxiliary["token"])
        await aux.recv_until("snapshot")
        await aux.send(**pix_trip)
        by_pix = await aux.recv_until("street_trip_recorded")
        await aux.send(**card_trip)
        by_card = await aux.recv_until("street_trip_recorded")
        await aux.close()
        for _attempt in range(40):  # one driver at a time: until the server has let the auxiliary go, the holder
            holder = await driver(port, cab["token"])  # hears cab_in_use and tries again, as the driver app does
            try:
                await holder.recv_until("snapshot")
                break
            except ConnectionClosed:
                assert [m.get("code") for m in holder.seen] == ["cab_in_use"]
                await asyncio.sleep(0.25)
        else:
            pytest.fail("the holder was refused for 10 s after his auxiliary left")
        await holder.send(**cash_trip)
        in_cash = await holder.recv_until("street_trip_recorded")
        await holder.close()
        answer = await asyncio.to_thread(payments.record, auxiliary["token"], by_pix["ride_id"], "pix")
        update = await ops.recv_until("ride_update", where=lambda m: m["ride"]["id"] == by_pix["ride_id"]
                                      and m["ride"].get("payment"))
        await ops.close()
        return by_pix, by_card, in_cash, answer, update["ride"]["payment"]

    by_pix, by_card, in_cash, answer, shown = drivers.run(trips(), timeout=60)
    assert by_card["meter_disagreement"] and not by_pix["meter_disagreement"]  # Art. 43
    assert answer["collector"] == "auxiliary" and answer["receiver"] == auxiliary["name"]
    assert pix.parse_fields(pix.parse(answer["pix"])["26"])["01"] == "carlos.auxiliar@example.com"
    assert shown["method_display"] == "Pix" and shown["pix"] == answer["pix"]  # the console is told
    payments.record(auxiliary["token"], by_card["ride_id"], "card", card_machine="holder")
    payments.record(cab["token"], in_cash["ride_id"], "cash")
    with pytest.raises(RejectedError) as twice:
        payments.record(cab["token"], in_cash["ride_id"], "pix")
    assert twice.value.code == "payment_already_recorded" and "duas vezes" in twice.value.message

    subprocess.run([sys.executable, "manage.py", "close_weeks"], cwd=ROOT, env=platform.env, check=True,
                   capture_output=True, text=True)
    monday = week_start(last_week_at(0, 12))
    rows = api_get(port, f"/api/statements/?week={monday.isoformat()}", cab["token"])["results"]
    by_driver = {r["driver"]: r for r in rows if r["permit"] == cab["permit_id"]}
    aux_st, own = by_driver[auxiliary["person_id"]], by_driver[cab["person_id"]]
    assert aux_st["is_closed"] and (aux_st["gross"], aux_st["auxiliary_part"], aux_st["holder_part"]) == (
        f"{fare_pix + fare_card:.2f}", f"{aux_share:.2f}", f"{holder_share:.2f}")
    s = aux_st["settlement"]
    assert s["collected"] == [{"party": "auxiliary", "method": "pix", "amount": f"{fare_pix:.2f}"},
                              {"party": "holder", "method": "card", "amount": f"{fare_card:.2f}"}]
    assert (s["payer"], s["payee"], s["amount"]) == ("auxiliary", "holder", f"{owed:.2f}")
    transfer = f"{auxiliary['name']} paga {brl(owed)} a {auxiliary['holder_name']}"
    assert aux_st["transfer_label"] == transfer
    lines = {line["ride"]: line for line in aux_st["ride_lines"]}
    assert lines[by_card["ride_id"]]["meter_disagreement"] and lines[by_card["ride_id"]]["origin"] == "street"
    assert lines[by_pix["ride_id"]]["payment_display"] == "Pix (recebido pelo auxiliar)"
    assert own["settlement"] is None and own["ride_lines"][0]["method"] == "cash"

    # what the holder sees: the page, the PDF and the CSV
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="pt-BR",
                                  timezone_id="America/Sao_Paulo")
    page = context.new_page()
    try:
        page.goto(f"{base}/extratos/entrar/")
        page.fill("input[name=username]", "driver1")
        page.fill("input[name=password]", "x")
        page.locator("button[type=submit], input[type=submit]").first.click()
        page.goto(f"{base}/extratos/?semana={monday.isoformat()}")
        for details in page.locator("details").all():
            details.evaluate("d => d.open = true")
        body = page.locator("body")
        expect(body).to_contain_text(transfer)
        expect(body).to_contain_text("Pix (recebido pelo auxiliar)")
        expect(body).to_contain_text("cartão (recebido pelo permissionário)")
        expect(page.locator("td.disagreement")).to_have_text(
            f"taxímetro {brl(fare_card)}; recálculo {brl(fare_card - 3)}")
        page.screenshot(path=str(ARTIFACTS / "statement_page.png"), full_page=True)
        pdf = page.request.get(f"{base}/statements/{aux_st['id']}.pdf")
        assert pdf.ok and pdf.body().startswith(b"%PDF")
        (ARTIFACTS / "statement.pdf").write_bytes(pdf.body())
        csv_text = page.request.get(f"{base}/api/statements/{aux_st['id']}.csv").body().decode("utf-8-sig")
        assert "acerto" in csv_text and f"{owed:.2f}".replace(".", ",") in csv_text
    finally:
        context.close()
    # poppler-utils (Makefile SYSTEM_PACKAGES): the PDF's page as a PNG to look at, and its text
    subprocess.run(["pdftoppm", "-png", "-r", "70", "-f", "1", "-l", "1", "-singlefile", str(ARTIFACTS / "statement.pdf"),
                    str(ARTIFACTS / "statement_pdf")], check=True, timeout=60)
    text = subprocess.run(["pdftotext", "-layout", str(ARTIFACTS / "statement.pdf"), "-"], check=True,
                          capture_output=True, text=True, timeout=60).stdout
    assert f"paga {brl(owed)}" in text and "Acerto da semana" in text and "cartão (permissionário)" in text
    assert f"{brl(fare_card - 3)} (diverge)" in text


def test_the_passenger_page_shows_the_pix_qr_of_a_ride_paid_by_pix(platform, auxiliary, browser, drivers):
    world, port = platform.world, platform.ports[0]
    lat, lon = world["centre"]
    cab = world["cabs"][1]
    base = f"http://127.0.0.1:{port}"
    subprocess.run([sys.executable, "-c", (
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings'); django.setup();"
        "from backend.payments.services import register_pix_key; from backend.registry.models import Person;"
        f"register_pix_key(Person.objects.get(pk={cab['person_id']}), 'phone', '(32) 98765-4321')")],
        cwd=ROOT, env=platform.env, check=True, capture_output=True, text=True)

    d = drivers.run(driver(port, cab["token"]))
    context = browser.new_context(viewport={"width": 900, "height": 1300}, locale="pt-BR",
                                  timezone_id="America/Sao_Paulo")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        drivers.run(d.recv_until("snapshot"))
        drivers.run(free_at(d, lat + 0.002, lon))
        page.goto(f"{base}/passageiro/")
        page.get_by_label("Nome").fill("Beatriz Pix")
        page.get_by_label("Telefone com DDD").fill("(32) 99111-2233")
        page.get_by_role("button", name="Continuar").click()
        expect(page.locator("#request")).to_be_visible(timeout=10000)
        mark_pickup(page, lat, lon)
        page.get_by_role("button", name="Pedir táxi").click()
        expect(page.locator("#ride")).to_be_visible(timeout=10000)
        offer = drivers.run(d.recv_until("offer", timeout=15))["offer"]
        drivers.run(d.send(type="offer_accept", offer_id=offer["id"]))
        ride_id = offer["ride_id"]
        for frame in ({"type": "ride_arriving"}, {"type": "ride_on_board"}):
            drivers.run(d.send(ride_id=ride_id, **frame))
        trace = trace_around(lat, lon)
        # a total the server cannot hold for review (at most the recomputation of the trace's last step): a held
        # one is not charged (tests/e2e/test_held_fare_browser.py)
        fare = recomputed(port, cab["token"], {"trace": trace[-2:], "started_at": trace[-2]["t"],
                                               "stopped_at": trace[-1]["t"]}, "0.00")["server_total"]
        drivers.run(d.send(type="ride_complete", ride_id=ride_id, meter_total=fare, trace=trace))
        expect(page.locator("#ride-status")).to_have_text("concluída", timeout=10000)
        answer = HttpPaymentsClient(HttpRegistryClient(base)).record(cab["token"], ride_id, "pix")
        expect(page.locator("#payment-method")).to_have_text(f"Pagamento: Pix para {answer['receiver']}",
                                                            timeout=10000)
        expect(page.locator("#pix-copy")).to_have_value(answer["pix"])
        assert pix.parse(answer["pix"])["54"] == fare
        page.locator("#pix-qr").scroll_into_view_if_needed()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shot = page.screenshot(path=str(ARTIFACTS / "passenger_pix.png"), full_page=True)
        found = zxingcpp.read_barcodes(Image.open(io.BytesIO(shot)).convert("L"))
        assert [r.text for r in found] == [answer["pix"]]  # the QR the passenger scans is the fare's BR Code
        assert not errors, errors
    finally:
        context.close()
        drivers.run(d.close())
