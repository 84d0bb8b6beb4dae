"""A fare held for DIMUTRAN's review on the passenger page, in Chromium against a running Daphne (docs/payments.md).

The issue's case: a ride completed at R$ 4.999,99 for a short trace. The page says "Valor em revisão" and what
happens next, shows no Pix; the driver app's payment is refused in pt-BR; DIMUTRAN's release reaches the page over
the socket, and then the fare is charged and paid as any other (Art. 43; Art. 45, §5).
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request

import pytest

from driver_app.clients import HttpPaymentsClient, HttpRegistryClient, RejectedError
from taxilaw import pix

from .client import driver, free_at
from .conftest import ROOT, mark_pickup
from .test_dispatch_flow import trace_around
from .test_payments_e2e import ARTIFACTS, browser, drivers, expect  # noqa: F401 (fixtures)

pytestmark = pytest.mark.e2e


def _release(port: int, ride_id: int, token: str) -> dict:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/rides/{ride_id}/release-fare/", method="POST",
                                     headers={"Authorization": f"Token {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


@pytest.mark.article("Art. 43", "Art. 45, §5")
def test_the_passenger_sees_valor_em_revisao_and_no_pix_until_dimutran_decides(platform, browser, drivers):  # noqa: F811
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
        page.get_by_label("Nome").fill("Carla Revisão")
        page.get_by_label("Telefone com DDD").fill("(32) 99111-4455")
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
        drivers.run(d.send(type="ride_complete", ride_id=ride_id, meter_total="4999.99", trace=trace_around(lat, lon)))
        expect(page.locator("#ride-status")).to_have_text("concluída", timeout=10000)

        expect(page.locator("#fare-review")).to_be_visible(timeout=10000)
        expect(page.locator("#fare-review-title")).to_have_text("Valor em revisão")
        expect(page.locator("#fare-review-message")).to_contain_text("Não pague agora")
        expect(page.locator("#ride-fare")).to_be_hidden()
        expect(page.locator("#pix-box")).to_be_hidden()
        payments = HttpPaymentsClient(HttpRegistryClient(base))
        with pytest.raises(RejectedError) as refused:
            payments.record(cab["token"], ride_id, "pix")
        assert refused.value.code == "payment_fare_held" and "revisão" in refused.value.message
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "passenger_fare_review.png"), full_page=True)

        assert _release(port, ride_id, world["operator"]["token"])["fare_held"] is False  # DIMUTRAN decided
        expect(page.locator("#fare-review")).to_be_hidden(timeout=10000)  # the release reached the page
        expect(page.locator("#ride-fare")).to_contain_text("4.999,99")
        answer = payments.record(cab["token"], ride_id, "pix")
        expect(page.locator("#pix-copy")).to_have_value(answer["pix"], timeout=10000)
        assert pix.parse(answer["pix"])["54"] == "4999.99"
        assert not errors, errors
    finally:
        context.close()
        drivers.run(d.close())
