"""The passenger's rides and receipts (Art. 32, Art. 43, Art. 45): history, the meter's breakdown, PDF, signed link."""

from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from rest_framework.test import APIClient

from backend.receipts import receipts
from backend.trips.models import Passenger, Ride, RideStatus
from dispatch.events import snapshots
from dispatch.models import Cab
from taxilaw.meter_check import recompute
from taxilaw.meter_data import Fix
from taxilaw.tariffs import MURIAE_DEMO_TARIFF

pytestmark = pytest.mark.django_db
SP = ZoneInfo("America/Sao_Paulo")


def city_trace(start: datetime) -> list[Fix]:
    """~3 km north-east at ~36 km/h with a two-minute stop (waiting time) in the middle."""
    fixes, lat, lon, t = [], -21.1311, -42.3676, start
    for i in range(80):
        stopped = 30 <= i < 54
        t += timedelta(seconds=5)
        if not stopped:
            lat, lon = lat + 0.00032, lon + 0.00025
        fixes.append(Fix(t, round(lat, 6), round(lon, 6), 6.0))
    return fixes


def completed_ride(permit, passenger, *, start=None, extra=Decimal("0")):
    start = start or datetime(2026, 3, 4, 10, tzinfo=SP)
    fixes = city_trace(start)
    reading = recompute(fixes, MURIAE_DEMO_TARIFF, started_at=start, stopped_at=fixes[-1].t)
    cab, _ = Cab.objects.get_or_create(permit=permit, defaults={"driver": permit.holder})
    return Ride.objects.create(
        passenger=passenger, pickup_lat=fixes[0].lat, pickup_lon=fixes[0].lon, pickup_address="Praça Cel. Pacheco de Medeiros",
        destination_lat=fixes[-1].lat, destination_lon=fixes[-1].lon, destination_address="Rodoviária",
        status=RideStatus.COMPLETED, cab=cab, permit=permit, driver=permit.holder,
        credentials=snapshots.credentials(permit, permit.holder),
        accepted_at=start - timedelta(minutes=6), on_board_at=start, completed_at=fixes[-1].t,
        fare=reading.total + extra, server_total=reading.total, distance_m=reading.distance_m,
        trace=[f.to_dict() for f in fixes],
    )


def client_for(passenger):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Passenger {passenger.token}")
    return client


@pytest.fixture
def maria():
    return Passenger.objects.create(name="Maria", phone="32999990000")


@pytest.mark.article("Art. 1, VII", "Art. 45, I", "Art. 43")
def test_the_breakdown_sums_exactly_to_the_fare_paid(working_cab, maria):
    ride = completed_ride(working_cab(), maria, extra=Decimal("0.20"))
    data = receipts.receipt(ride)
    codes = [line["code"] for line in data["lines"]]
    assert codes[0] == "bandeirada" and "km_b1" in codes and "waiting" in codes and "km_b2" not in codes
    assert sum(Decimal(line["amount"]) for line in data["lines"]) == ride.fare
    difference = next(line for line in data["lines"] if line["code"] == "meter_difference")
    assert Decimal(difference["amount"]) == Decimal("0.20")
    waiting = next(line for line in data["lines"] if line["code"] == "waiting")
    assert waiting["quantity"] in ("02:00", "02:05", "02:10")  # the stop, and the seconds before the first fix
    assert data["route"]["fixes"] == 80 and 2 < data["route"]["km"] < 4 and data["route"]["sketch"]


@pytest.mark.article("Art. 45, II")
def test_a_sunday_ride_is_charged_in_bandeira_ii(working_cab, maria):
    ride = completed_ride(working_cab(), maria, start=datetime(2026, 3, 8, 10, tzinfo=SP))
    codes = [line["code"] for line in receipts.receipt(ride)["lines"]]
    assert "km_b2" in codes and "km_b1" not in codes


@pytest.mark.article("Art. 32")
def test_history_lists_only_the_passengers_rides_with_cvi_cmt_and_receipt_links(working_cab, maria):
    permit = working_cab()
    mine = completed_ride(permit, maria)
    other = Passenger.objects.create(name="João", phone="32988887777")
    completed_ride(working_cab(), other)
    body = client_for(maria).get("/api/passenger/rides/").json()
    assert [r["id"] for r in body["results"]] == [mine.pk]
    row = body["results"][0]
    assert row["permit"] == permit.number and row["fare_display"].startswith("R$ ")
    receipt = client_for(maria).get(f"/api/passenger/rides/{mine.pk}/receipt/").json()
    assert receipt["cvi"]["plate"] and receipt["driver"]["cmt"] and receipt["driver"]["name"] == permit.holder.full_name
    assert client_for(other).get(f"/api/passenger/rides/{mine.pk}/receipt/").status_code == 404
    pdf = client_for(maria).get(f"/api/passenger/rides/{mine.pk}/receipt.pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")


def test_history_needs_a_passenger_token(anonymous, dimutran):
    assert anonymous.get("/api/passenger/rides/").status_code == 401
    assert dimutran.get("/api/passenger/rides/").status_code == 403


@pytest.mark.article("Art. 32", "Art. 43")
def test_the_signed_link_shows_the_receipt_and_a_forged_one_is_a_404(client, working_cab, maria):
    ride = completed_ride(working_cab(), maria)
    links = receipts.links(ride)
    page = client.get(links["screen"])
    assert page.status_code == 200
    text = page.content.decode()
    assert "Bandeirada" in text and "Quilômetros em Bandeira I" in text and ride.credentials["cvi"]["plate"] in text
    assert client.get(links["pdf"]).content.startswith(b"%PDF")
    forged = receipts.link_token(ride.pk)[:-2] + "xx"
    assert client.get(f"/recibos/{forged}/").status_code == 404
    cancelled = Ride.objects.create(passenger=maria, pickup_lat=-21.13, pickup_lon=-42.37, status=RideStatus.CANCELLED)
    assert client.get(f"/recibos/{receipts.link_token(cancelled.pk)}/").status_code == 404


def test_user_text_on_the_receipt_page_is_escaped(client, working_cab, maria):
    ride = completed_ride(working_cab(), maria)
    Ride.objects.filter(pk=ride.pk).update(pickup_address="<script>alert(1)</script>")
    text = client.get(receipts.links(ride)["screen"]).content.decode()
    assert "<script>alert(1)" not in text and "&lt;script&gt;" in text


@pytest.mark.article("Art. 43")
def test_the_receipt_says_how_it_was_paid_and_a_deduction_reads_as_a_brazilian_writes_it(client, working_cab, maria):
    from backend.payments.services import record_payment
    from taxilaw.brazil import brl

    permit = working_cab()
    ride = completed_ride(permit, maria)
    record_payment(ride.pk, permit.holder, "cash")
    ride.refresh_from_db()
    text = client.get(receipts.links(ride)["screen"]).content.decode()
    assert "Pagamento" in text and "dinheiro, recebido por" in text
    assert brl(Decimal("-0.08")) == "-R$ 0,08" and brl(Decimal("-0.001")) == "R$ 0,00" and brl(Decimal("1234.5")) == "R$ 1.234,50"
    assert "R$ -" not in text
