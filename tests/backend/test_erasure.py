"""LGPD (issue 27, point 6): a passenger's erasure reaches everything that names or follows them, the purge finishes
every eligible row in one run however many kept rows come first, and neither URLs nor the access log carry
phones or receipt links.

Erasure: after ``DELETE /api/passengers/me/`` no booking, rating text, complaint text, receipt link or log line
carries the passenger's name, phone or exact addresses; the rides stay (anonymised). The open socket's closing is
tests/backend/test_consumers_in_process.py::test_an_erased_passengers_open_socket_is_told_and_closed.
"""

import io
import json
import logging
from datetime import timedelta
from decimal import Decimal
from unittest import mock

import pytest
from daphne.access import AccessLogGenerator
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from backend.bookings import services as bookings
from backend.bookings.models import Booking
from backend.enforcement.models import Complaint
from backend.log_paths import RedactPaths, loggable_path
from backend.privacy import retention
from backend.ratings.models import RideRating
from backend.receipts import receipts
from backend.trips.models import Passenger, Ride
from dispatch.models import Cab, Offer
from dispatch.ops import retention as dispatch_retention
from dispatch.rides.due_bookings import dispatch_due
from dispatch.transport.server import IncrementalSweepServer

from .test_receipts import completed_ride

pytestmark = pytest.mark.django_db
NAME, PHONE, CPF = "Marisa Quintela", "32991234567", "529.982.247-25"
HOME = "Rua Barão do Monte Alto, 417"
CLINIC = "Clínica Santa Lúcia, Av. Maestro Sansão, 220"


def secrets_in(text: str, *extra: str) -> list[str]:
    phone_forms = (PHONE, "99123-4567", "(32) 99123-4567")
    return [s for s in (NAME, *NAME.split(), *phone_forms, CPF, HOME, CLINIC, *extra) if s.lower() in text.lower()]


def access_log(paths: list[str]) -> str:
    """What Daphne's access log writes for these requests, through the server ``python -m dispatch.transport.server`` runs."""
    stream = io.StringIO()
    server = IncrementalSweepServer.__new__(IncrementalSweepServer)  # its log_action alone: no reactor, no socket
    server.action_logger = AccessLogGenerator(stream)
    for path in paths:
        server.log_action("http", "complete", {"path": path, "status": 200, "method": "GET",
                                               "client": "127.0.0.1:5000", "time_taken": 0.01, "size": 10})
    return stream.getvalue()


def test_erasure_leaves_no_name_phone_address_or_link_behind(working_cab, caplog):
    caplog.set_level(logging.DEBUG)
    permit = working_cab()
    passenger = Passenger.objects.create(name=NAME, phone=PHONE)
    ride = completed_ride(permit, passenger)
    Ride.objects.filter(pk=ride.pk).update(pickup_address=HOME, destination_address=CLINIC)
    RideRating.objects.create(ride=ride, passenger=passenger, permit=permit, driver=permit.holder, stars=2,
                              comment=f"Sou {NAME}, CPF {CPF}, me liguem no (32) 99123-4567")
    complaint = Complaint.objects.create(
        passenger=passenger, ride=ride, ride_data={"pickup_address": HOME, "destination_address": CLINIC, "fare": "9.90"},
        description=f"Eu, {NAME}, fui cobrada a mais entre {HOME} e a {CLINIC}. Telefone {PHONE}.")
    booking = bookings.book(pickup={"lat": -21.131234, "lon": -42.367891, "address": HOME},
                            destination={"lat": -21.141111, "lon": -42.361111, "address": CLINIC},
                            pickup_at=timezone.now() + timedelta(days=2), passenger=passenger)
    links = receipts.links(ride)
    anonymous = Client()
    assert anonymous.get(links["screen"]).status_code == 200 and anonymous.get(links["pdf"]).status_code == 200

    erased = APIClient().delete("/api/passengers/me/", HTTP_AUTHORIZATION=f"Passenger {passenger.token}")
    assert erased.status_code == 204

    booking.refresh_from_db()
    assert booking.status == "cancelled" and (booking.pickup_address, booking.destination_address) == ("", "")
    assert (booking.pickup_lat, booking.pickup_lon, booking.destination_lat) == (-21.13, -42.37, -21.14)
    assert dispatch_due(booking.dispatch_at + timedelta(minutes=1)) == []  # it never becomes a ride
    assert RideRating.objects.get(ride=ride).comment == "" and RideRating.objects.get(ride=ride).stars == 2
    complaint.refresh_from_db()
    assert secrets_in(complaint.description) == [] and "cobrada a mais" in complaint.description
    assert secrets_in(json.dumps(complaint.ride_data, ensure_ascii=False)) == []
    assert complaint.ride_data["fare"] == "9.90"  # the complaint itself stays
    ride.refresh_from_db()
    assert ride.fare is not None and ride.permit_id == permit.pk and (ride.pickup_lat, ride.pickup_lon) == (-21.13, -42.37)
    rows = [Booking.objects.filter(pk=booking.pk).values().get(), Ride.objects.filter(pk=ride.pk).values().get(),
            Passenger.objects.filter(pk=passenger.pk).values().get()]
    assert secrets_in(json.dumps(rows, default=str, ensure_ascii=False)) == []
    assert anonymous.get(links["screen"]).status_code == 404 and anonymous.get(links["pdf"]).status_code == 404
    assert receipts.receipt(ride)["links"] is None  # DIMUTRAN's admin offers no link either
    token = links["pdf"].split("/")[2].removesuffix(".pdf")
    logged = access_log([links["screen"], links["pdf"], f"/api/addresses/?q={HOME}"])
    assert token not in logged and secrets_in(logged, token) == [] and "/recibos/[...].pdf" in logged
    written = "\n".join(r.getMessage() for r in caplog.records if RedactPaths().filter(r))  # as the handler writes
    assert "Not Found: /recibos/[...]/" in written  # Django's own line for the revoked link, without its token
    assert token not in written and secrets_in(written) == []


def test_a_receipt_link_expires_after_its_days(client, working_cab):
    ride = completed_ride(working_cab(), Passenger.objects.create(name="Ana", phone="32999990000"))
    links = receipts.links(ride)
    days = receipts.link_days()
    assert days == 30
    assert client.get(links["screen"]).status_code == 200
    later = timezone.now() + timedelta(days=days, minutes=1)
    assert receipts.ride_id_from(links["screen"].split("/")[2]) == ride.pk
    with mock.patch("django.core.signing.time.time", return_value=later.timestamp()):
        assert client.get(links["screen"]).status_code == 404


def test_the_access_log_keeps_routes_and_drops_queries_and_tokens():
    assert loggable_path("/api/geo/ranks.geojson") == "/api/geo/ranks.geojson"
    assert loggable_path("/api/addresses/?q=Rua+X") == "/api/addresses/?[...]"
    assert loggable_path("/recibos/MQ:1v2:abc/") == "/recibos/[...]/"
    assert loggable_path("/recibos/MQ:1v2:abc.pdf?download=1") == "/recibos/[...].pdf?[...]"


def test_the_callers_history_takes_the_phone_in_the_body_not_the_url(working_cab):
    staff = Client()
    staff.force_login(get_user_model().objects.create_user("operadora", password="x", is_staff=True))
    Ride.objects.create(caller_name="Dona Lúcia", caller_phone="3237211234", pickup_lat=-21.131, pickup_lon=-42.367,
                        pickup_address="Rua Coronel Izalino, 100", status="cancelled")
    assert staff.get("/central/chamadas.json?phone=3237211234").status_code == 405
    found = staff.post("/central/chamadas.json", {"phone": "(32) 3721-1234"}, content_type="application/json")
    assert found.status_code == 200 and found.json()["names"] == ["Dona Lúcia"]
    bad = staff.post("/central/chamadas.json", "[1]", content_type="application/json")
    assert bad.status_code == 400 and "telefone" in bad.json()["detail"]
    assert Client().post("/central/chamadas.json", {"phone": "3237211234"},
                         content_type="application/json").status_code == 403


def _old_rides(permit, count: int, **fields) -> list[int]:
    ended = timezone.now() - timedelta(days=400)
    Ride.objects.bulk_create([Ride(status="completed", permit=permit, driver=permit.holder, fare=Decimal("10.00"),
                                   completed_at=ended, pickup_lat=-21.13, pickup_lon=-42.37,
                                   trace=[{"t": ended.isoformat(), "lat": -21.13, "lon": -42.37, "accuracy_m": 5}],
                                   **fields) for _ in range(count)])
    return list(Ride.objects.order_by("-pk").values_list("pk", flat=True)[:count])


@pytest.mark.article("Art. 43", "Art. 60")
def test_the_purge_erases_every_eligible_trace_behind_a_thousand_held_ones(working_cab):
    permit = working_cab()
    held = _old_rides(permit, 1000, fare_held=True)  # first in id order: the old purge's whole batch
    passenger = Passenger.objects.create(name="Ana", phone="32999990000")
    complained = _old_rides(permit, 50, passenger=passenger)
    Complaint.objects.bulk_create([Complaint(passenger=passenger, ride_id=pk, description="x") for pk in complained])
    eligible = _old_rides(permit, 500)
    assert retention.purge_traces(timezone.now()) == 500
    traces = dict(Ride.objects.values_list("pk", "trace"))
    assert all(traces[pk] == [] for pk in eligible)
    assert all(traces[pk] for pk in held + complained)


def test_every_purge_walks_past_what_it_keeps_in_small_batches(working_cab, monkeypatch):
    permit = working_cab()
    Cab.objects.get_or_create(permit=permit)
    eligible = _old_rides(permit, 7)
    old = timezone.now() - timedelta(days=800)
    Ride.objects.filter(pk__in=eligible).update(caller_name="Dona Lúcia", caller_phone="3237211234")
    cab = Cab.objects.get(permit=permit)
    Offer.objects.bulk_create([Offer(ride_id=pk, cab=cab, driver=permit.holder, expires_at=old, reason="teste",
                                     status="declined", candidates=[{"permit": "001"}], distance_m=1.0)
                               for pk in eligible])
    Offer.objects.update(created_at=old)
    Ride.objects.filter(pk__in=eligible).update(completed_at=old)
    assert dispatch_retention.purge_offer_audits(timezone.now(), batch=3) == 7
    assert retention.purge_callers(timezone.now(), batch=3) == 7
    assert retention.purge_traces(timezone.now(), batch=3) == 7
    assert not Offer.objects.exclude(candidates=[]).exists()
    assert not Ride.objects.exclude(caller_phone="").exists()


def test_idle_passengers_behind_ones_with_an_open_ride_are_anonymised():
    riding = [Passenger.objects.create(name=f"Com corrida {n}", phone=f"3299999000{n}") for n in range(3)]
    idle = [Passenger.objects.create(name=f"Parado {n}", phone=f"3299998000{n}") for n in range(2)]
    Passenger.objects.update(created_at=timezone.now() - timedelta(days=800))
    for passenger in riding:  # booked two years ago, still open
        Ride.objects.create(passenger=passenger, status="requested", pickup_lat=-21.13, pickup_lon=-42.37)
    Ride.objects.update(requested_at=timezone.now() - timedelta(days=800))
    assert retention.anonymise_inactive_passengers(timezone.now(), batch=2) == 2
    assert set(Passenger.objects.filter(anonymised_at__isnull=False).values_list("pk", flat=True)) == {p.pk for p in idle}
