"""DIMUTRAN's report of drivers who cancel accepted rides: counts per reason, the rides accepted, no penalty (Art. 9, VII)."""

import pytest
from django.utils import timezone

from backend.trips.models import DriverCancellation, Ride

pytestmark = pytest.mark.django_db
PICKUP = (-21.131, -42.367)


def _cancel(permit, reason, reoffered=False):
    ride = Ride.objects.create(pickup_lat=PICKUP[0], pickup_lon=PICKUP[1], status="cancelled", created_by="operator")
    return DriverCancellation.objects.create(ride=ride, permit=permit, driver=permit.holder, reason=reason,
                                             ride_status="arriving", reoffered=reoffered)


@pytest.mark.article("Art. 9, VII")
def test_the_report_lists_drivers_over_the_threshold_with_their_reasons(working_cab, dimutran):
    often, once = working_cab(), working_cab()
    for reason in ("vehicle_problem", "vehicle_problem", "passenger_absent"):
        _cancel(often, reason, reoffered=reason == "vehicle_problem")
    _cancel(once, "passenger_asked")
    Ride.objects.create(pickup_lat=PICKUP[0], pickup_lon=PICKUP[1], status="completed", created_by="operator",
                        permit=often, driver=often.holder, accepted_at=timezone.now())
    answer = dimutran.get("/api/reports/driver-cancellations/", {"days": 7, "min": 2})
    assert answer.status_code == 200
    [row] = answer.json()["drivers"]
    assert row["name"] == often.holder.full_name and row["permits"] == [often.number]
    assert row["cancelled"] == 3 and row["accepted"] == 3  # 1 kept + 2 re-offered to another cab
    assert row["by_reason"] == {"passenger_absent": 1, "passenger_asked": 0, "vehicle_problem": 2}
    assert len(dimutran.get("/api/reports/driver-cancellations/", {"min": 1}).json()["drivers"]) == 2


@pytest.mark.article("Art. 9, VII")
def test_only_dimutran_reads_it_and_bad_input_is_a_400(working_cab, user_for, dimutran):
    permit = working_cab()
    assert user_for(permit.holder).get("/api/reports/driver-cancellations/").status_code == 403
    bad = dimutran.get("/api/reports/driver-cancellations/", {"days": "x", "min": 0})
    assert bad.status_code == 400 and set(bad.json()) >= {"days", "min"}
