"""LGPD: traces, callers and idle passengers are forgotten after their dated periods; a passenger erases their data."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from backend.enforcement.models import Complaint
from backend.privacy import retention
from backend.trips.models import Passenger, Ride
from dispatch.models import Cab

pytestmark = pytest.mark.django_db
TRACE = [{"t": "2026-01-01T10:00:00-03:00", "lat": -21.131, "lon": -42.367, "accuracy_m": 5}]


def _ride(permit, passenger=None, *, days_ago, status="completed", **extra):
    Cab.objects.get_or_create(permit=permit)
    ended = timezone.now() - timedelta(days=days_ago)
    ride = Ride.objects.create(
        passenger=passenger, status=status, permit=permit, driver=permit.holder, fare=Decimal("10.00"),
        completed_at=ended if status == "completed" else None, pickup_lat=-21.131234, pickup_lon=-42.367891,
        pickup_address="Rua Coronel Izalino, 12", destination_lat=-21.14, destination_lon=-42.36,
        destination_address="Hospital São Paulo", trace=TRACE, **extra,
    )
    Ride.objects.filter(pk=ride.pk).update(requested_at=ended)
    return ride


@pytest.mark.article("Art. 43", "Art. 60")
def test_traces_go_after_their_period_unless_a_held_fare_or_an_open_complaint_needs_them(working_cab):
    permit = working_cab()
    passenger = Passenger.objects.create(name="Ana", phone="32999990000")
    old, recent = _ride(permit, days_ago=181), _ride(permit, days_ago=179)
    held = _ride(permit, days_ago=400, fare_held=True)
    complained = _ride(permit, passenger, days_ago=400)
    Complaint.objects.create(passenger=passenger, ride=complained, description="cobrou a mais")
    assert retention.purge_traces(timezone.now()) == 1
    traces = dict(Ride.objects.values_list("pk", "trace"))
    assert traces[old.pk] == [] and traces[recent.pk] == traces[held.pk] == traces[complained.pk] == TRACE
    assert Ride.objects.get(pk=old.pk).fare == Decimal("10.00")  # what the statement counted stays


@pytest.mark.article("Art. 66")
def test_callers_and_idle_passengers_are_anonymised_after_two_years(working_cab):
    permit = working_cab()
    idle = Passenger.objects.create(name="Bia", phone="32999990001")
    active = Passenger.objects.create(name="Caio", phone="32999990002")
    Passenger.objects.filter(pk__in=[idle.pk, active.pk]).update(created_at=timezone.now() - timedelta(days=800))
    _ride(permit, idle, days_ago=731)
    _ride(permit, active, days_ago=10)
    called = _ride(permit, days_ago=731, caller_name="Dona Maria", caller_phone="3237210000")
    counts = retention.purge(timezone.now())
    assert counts["passengers"] == 1 and counts["callers"] == 1
    idle.refresh_from_db()
    assert (idle.name, idle.phone) == ("", "") and idle.anonymised_at is not None
    assert Passenger.objects.get(pk=active.pk).name == "Caio"
    assert Ride.objects.filter(pk=called.pk, caller_name="", caller_phone="").exists()


@pytest.mark.article("Art. 60")
def test_a_passenger_erases_their_data_and_their_rides_stay_anonymised(working_cab):
    permit = working_cab()
    passenger = Passenger.objects.create(name="Duda", phone="32999990003")
    kept, token = _ride(permit, passenger, days_ago=3), passenger.token
    client = APIClient()
    assert client.delete("/api/passengers/me/").status_code == 401
    answer = client.delete("/api/passengers/me/", HTTP_AUTHORIZATION=f"Passenger {passenger.token}")
    assert answer.status_code == 204
    passenger.refresh_from_db()
    assert (passenger.name, passenger.phone) == ("", "") and passenger.anonymised_at is not None
    kept.refresh_from_db()
    assert kept.fare == Decimal("10.00") and kept.permit_id == permit.pk  # the statement's record stays
    assert (kept.pickup_address, kept.destination_address, kept.trace) == ("", "", [])
    assert (kept.pickup_lat, kept.pickup_lon) == (-21.13, -42.37)
    # the old token no longer authenticates anybody
    assert client.delete("/api/passengers/me/", HTTP_AUTHORIZATION=f"Passenger {token}").status_code == 401


@pytest.mark.article("Art. 60")
def test_erasure_waits_for_the_open_ride(working_cab):
    permit = working_cab()
    passenger = Passenger.objects.create(name="Edu", phone="32999990004")
    _ride(permit, passenger, days_ago=0, status="on_board")
    answer = APIClient().delete("/api/passengers/me/", HTTP_AUTHORIZATION=f"Passenger {passenger.token}")
    assert answer.status_code == 400 and "corrida em andamento" in answer.json()["detail"]
    assert Passenger.objects.get(pk=passenger.pk).name == "Edu"


@pytest.mark.article("Art. 66")
def test_the_scheduler_purges_old_offer_audits_and_keeps_the_offer(working_cab):
    from backend.scheduler.jobs import run_due
    from dispatch.models import Offer

    permit = working_cab()
    ride = _ride(permit, days_ago=200)
    cab = Cab.objects.get(permit=permit)
    old = Offer.objects.create(ride=ride, cab=cab, driver=permit.holder, expires_at=timezone.now(), reason="teste",
                               status="accepted", candidates=[{"permit": "001", "distance_m": 300}], distance_m=300.0)
    Offer.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=181))
    recent = Offer.objects.create(ride=_ride(permit, days_ago=1), cab=cab, driver=permit.holder, expires_at=timezone.now(),
                                  reason="teste", status="declined", candidates=[{"permit": "001"}], distance_m=12.0)
    at_four = timezone.localtime().replace(hour=4, minute=0)  # the job runs from 03:30, Muriaé time
    [run] = run_due(at_four, only={"personal_data_purge"})
    assert "offer_audits 1" in run.summary
    old.refresh_from_db()
    recent.refresh_from_db()
    assert (old.candidates, old.distance_m, old.status) == ([], None, "accepted")
    assert recent.candidates and recent.distance_m == 12.0
    assert Ride.objects.get(pk=ride.pk).trace == []  # the same run purged the 200-day-old trace
