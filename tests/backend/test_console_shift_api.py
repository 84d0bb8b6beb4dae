"""The console's shift endpoint (/central/turno.json, dispatch.web.shift): staff only, bounded, searched by phone, plate
or ride number (Art. 66)."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from backend.trips.models import Ride
from dispatch.web.shift import MAX_HOURS, PAGE_SIZE, ShiftQuery

pytestmark = pytest.mark.django_db
URL = "/central/turno.json"


def _ride(minutes_ago: int, **fields) -> Ride:
    ride = Ride.objects.create(pickup_lat=-21.13, pickup_lon=-42.36, created_by="operator", **fields)
    Ride.objects.filter(pk=ride.pk).update(requested_at=timezone.now() - timedelta(minutes=minutes_ago))
    return ride


@pytest.fixture
def staff():
    client = Client()
    client.force_login(get_user_model().objects.create_user("operadora", password="x", is_staff=True))
    return client


@pytest.mark.article("Art. 66")
def test_shift_is_for_staff_only(db):
    client = Client()
    assert client.post(URL, "{}", content_type="application/json").status_code == 403
    client.force_login(get_user_model().objects.create_user("motorista", password="x"))
    assert client.post(URL, "{}", content_type="application/json").status_code == 403


@pytest.mark.article("Art. 66")
def test_shift_is_bounded_in_hours_and_pages(staff):
    for i in range(PAGE_SIZE + 5):
        _ride(i + 1, caller_name=f"C{i}", caller_phone="(32) 3721-0000")
    _ride(60 * (MAX_HOURS + 1), caller_name="antiga")
    assert ShiftQuery.parse({"hours": 10_000, "page": -3, "state": "drop table"}) == ShiftQuery(hours=MAX_HOURS, page=1)
    body = staff.post(URL, {"hours": 999, "page": 99}, content_type="application/json").json()
    assert body["hours"] == MAX_HOURS and body["count"] == PAGE_SIZE + 5 and body["pages"] == 2 and body["page"] == 2
    assert len(body["rides"]) == 5 and body["totals"]["requested"] == PAGE_SIZE + 5
    assert staff.post(URL, "[]", content_type="application/json").status_code == 400


@pytest.mark.article("Art. 66")
def test_shift_search_by_phone_and_ride_number(staff):
    mine = _ride(5, caller_name="Dona Cida", caller_phone="(32) 99876-5432")
    _ride(6, caller_name="Outro", caller_phone="(32) 91111-5432")  # same last four digits, another caller
    found = staff.post(URL, {"search": "998765432"}, content_type="application/json").json()
    assert [r["id"] for r in found["rides"]] == [mine.pk] and found["rides"][0]["passenger"] == "Dona Cida"
    by_number = staff.post(URL, {"search": f"nº {mine.pk}"}, content_type="application/json").json()
    assert [r["id"] for r in by_number["rides"]] == [mine.pk]
    assert staff.post(URL, {"search": "ABC1D23"}, content_type="application/json").json()["count"] == 0
