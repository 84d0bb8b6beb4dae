"""A permit holder driving his own cab: the running statement the driver app reads lists his rides, not split,
and each ride's payment as soon as it is recorded (Lei 1.242/1987, Art. 1, §3)."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from backend.registry.services import auxiliaries
from dispatch.models import Cab
from dispatch.rides import street_trips

from .trip_helpers import PICKUP

pytestmark = pytest.mark.django_db


def _street_trip(cab, minutes_ago=10):
    start = timezone.now() - timedelta(minutes=minutes_ago)
    trace = [{"t": start, "lat": PICKUP[0], "lon": PICKUP[1], "accuracy_m": 8},
             {"t": start + timedelta(minutes=6), "lat": PICKUP[0] + 0.012, "lon": PICKUP[1], "accuracy_m": 8}]
    ride, _duplicate = street_trips.record_street_trip(cab.pk, started_at=start, stopped_at=start + timedelta(minutes=6),
                                                 meter_total=Decimal("14.10"), trace=trace)
    return ride


@pytest.mark.article("Art. 1, §3")
def test_the_holders_running_statement_lists_his_own_rides_not_split_with_each_payment(working_cab, make_person, user_for):
    permit = working_cab()
    auxiliaries.authorize_auxiliary(permit=permit, person=make_person(), on=timezone.localdate() - timedelta(days=30))
    cab = Cab.objects.create(permit=permit, driver=permit.holder, online=True, status="livre")
    ride = _street_trip(cab)
    client = user_for(permit.holder)
    [mine] = client.get("/api/statements/current/").json()["statements"]
    assert (mine["role"], mine["agreement"], mine["no_split"]) == ("permissionario", "own", True)
    assert (mine["rides"], mine["gross"], mine["auxiliary_part"], mine["holder_part"]) == (1, "14.10", "0.00", "14.10")
    [line] = mine["ride_lines"]
    assert (line["ride"], line["fare"], line["method"]) == (ride.pk, "14.10", "unrecorded")
    answer = client.post(f"/api/rides/{ride.pk}/payment/", {"method": "card"}, content_type="application/json")
    assert answer.status_code == 201, answer.content
    [line] = client.get("/api/statements/current/").json()["statements"][0]["ride_lines"]
    assert (line["method"], line["payment_display"]) == ("card", "cartão (recebido pelo permissionário)")
