"""A fare held for DIMUTRAN's review is not charged, paid nor settled until DIMUTRAN decides (Art. 43; Art. 45, §5).

The issue's case: a ride completed at R$ 4.999,99 while the server recomputed R$ 8,90. docs/payments.md.
"""

import subprocess
from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from backend.payments.models import RidePayment
from backend.payments.services import register_pix_key
from backend.statements import services
from backend.statements.models import StatementRide
from backend.trips.models import Passenger, Ride
from dispatch import wire
from dispatch.events import snapshots
from dispatch.models import Cab
from dispatch.rides import ride_steps as dispatch
from taxilaw import pix

from .statements_helpers import cab_with_aux  # noqa: F401 (fixture)
from .trip_helpers import PICKUP, trace

pytestmark = [pytest.mark.django_db, pytest.mark.article("Art. 43", "Art. 45, §5")]
TOKEN = "p" * 40


@pytest.fixture
def held(cab_with_aux, user_for):  # noqa: F811 (the imported fixture)
    """An auxiliary's ride completed at R$ 4.999,99 for a trace the server prices far lower: held."""
    permit, holder, aux = cab_with_aux
    register_pix_key(aux, "phone", "(32) 99999-1234")
    cab = Cab.objects.create(permit=permit, driver=aux, online=True, status="ocupado", lat=PICKUP[0], lon=PICKUP[1])
    passenger = Passenger.objects.create(name="Ana", phone="32999990000", token=TOKEN)
    ride = Ride.objects.create(pickup_lat=PICKUP[0], pickup_lon=PICKUP[1], status="on_board", created_by="operator",
                               cab=cab, permit=permit, driver=aux, passenger=passenger,
                               on_board_at=timezone.now() - timedelta(minutes=4))
    ride = dispatch.ride_complete(ride.pk, cab.pk, Decimal("4999.99"), trace())
    assert ride.fare_held and ride.server_total < Decimal("100")
    passenger_client = APIClient()
    passenger_client.credentials(HTTP_AUTHORIZATION="Passenger " + TOKEN)
    return ride, permit, aux, user_for(aux), passenger_client


def _dimutran():
    client = APIClient()
    client.force_authenticate(get_user_model().objects.create_user("dimutran-decide", password="x", is_staff=True))
    return client


def test_a_held_fare_has_no_br_code_and_its_payment_is_refused_in_portuguese(held):
    ride, _permit, _aux, driver, passenger = held
    pix_answer = passenger.get(f"/api/rides/{ride.pk}/pix/")
    assert pix_answer.status_code == 400
    assert pix_answer.json()["reasons"][0]["code"] == "payment_fare_held" and "revisão" in pix_answer.json()["detail"]
    assert "payload" not in pix_answer.json()
    for method in ("pix", "cash", "card"):
        refused = driver.post(f"/api/rides/{ride.pk}/payment/", {"method": method}, format="json")
        assert refused.status_code == 400, refused.content
        [reason] = refused.json()["reasons"]
        assert reason["code"] == "payment_fare_held" and reason["article"] == "Art. 43"
        assert "DIMUTRAN" in refused.json()["detail"] and "não pode ser cobrado" in refused.json()["detail"]
    assert not RidePayment.objects.filter(ride=ride).exists()
    # what the passenger page and the console read: "valor em revisão", what happens next, no payment, no Pix
    ride.refresh_from_db()
    body = snapshots.ride(ride)
    wire.validate("passenger", wire.RIDE_UPDATE(ride=body))
    assert body["payment"] is None and body["fare_review"]["title"] == "Valor em revisão"
    assert "Não pague agora" in body["fare_review"]["message"] and "DIMUTRAN" in body["fare_review"]["message"]
    assert passenger.get(f"/api/rides/{ride.pk}/payment/").status_code == 404
    # the ride history and the receipt say so too, instead of "Total pago"
    [row] = passenger.get("/api/passenger/rides/").json()["results"]
    assert row["fare_review"]["title"] == "Valor em revisão"
    receipt = passenger.get(f"/api/passenger/rides/{ride.pk}/receipt/").json()
    assert receipt["fare_review"]["code"] == "payment_fare_held"
    page = APIClient().get(receipt["links"]["screen"]).content.decode()
    assert "Valor em revisão" in page and "Não pague agora" in page and "Total pago" not in page
    pdf = APIClient().get(receipt["links"]["pdf"])
    text = subprocess.run(["pdftotext", "-", "-"], input=b"".join(pdf.streaming_content) if pdf.streaming else pdf.content,
                          capture_output=True, check=True).stdout.decode()
    assert "Valor em revisão" in text and "Total pago" not in text


def test_after_dimutran_decides_it_is_payable_and_lands_in_a_statement(held):
    ride, permit, aux, driver, passenger = held
    week = services.monday_of(ride.completed_at)
    services.close_week(week, now=ride.completed_at + timedelta(days=8))  # the week closes while DIMUTRAN reviews
    assert not StatementRide.objects.filter(ride=ride).exists()  # left out, not settled as unpaid

    released = _dimutran().post(f"/api/rides/{ride.pk}/release-fare/")
    assert released.status_code == 200 and released.json()["fare_held"] is False
    ride.refresh_from_db()
    assert "fare_review" not in snapshots.ride(ride)
    assert passenger.get(f"/api/passenger/rides/{ride.pk}/receipt/").json()["fare_review"] is None
    charge = passenger.get(f"/api/rides/{ride.pk}/pix/")
    assert charge.status_code == 200 and pix.parse(charge.json()["payload"])["54"] == "4999.99"
    assert driver.post(f"/api/rides/{ride.pk}/payment/", {"method": "cash"}, format="json").status_code == 201

    nxt = week + timedelta(days=7)
    services.close_week(nxt, now=ride.completed_at + timedelta(days=15))
    line = StatementRide.objects.get(ride=ride)  # the next closing's adjustment line, with its payment
    assert line.late and (line.method, line.collector) == ("cash", "auxiliary")
    statement = line.statement
    [adjustment] = statement.adjustment_lines
    assert adjustment.original_week_start == week and adjustment.gross == Decimal("4999.99")
    assert (adjustment.auxiliary_part, adjustment.holder_part) == (Decimal("1250.00"), Decimal("3749.99"))
    settlement = statement.settlement  # the auxiliary received it all in cash: he pays the holder his 75%
    assert (settlement.payer, settlement.payee, settlement.amount) == ("auxiliary", "holder", Decimal("3749.99"))


def test_the_release_is_announced_to_the_passenger(held, monkeypatch):
    ride, *_ = held
    from dispatch.events import announcements

    sent = []
    monkeypatch.setattr(announcements, "announce", lambda group, frame: sent.append((group, frame)))
    assert _dimutran().post(f"/api/rides/{ride.pk}/release-fare/").status_code == 200
    frames = {group: frame for group, frame in sent}
    update = frames[announcements.ride_group(ride.pk)]
    assert update["type"] == "ride_update" and "fare_review" not in update["ride"]
