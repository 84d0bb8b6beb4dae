"""Completing a dispatched ride (Art. 43): the fare is the meter's total, recorded once."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from backend.trips.models import Ride
from dispatch import errors
from dispatch.models import Cab
from dispatch.rides import cabs, choosing, grid, ride_steps

from .trip_helpers import PICKUP, on_board, trace  # noqa: F401 (on_board is a fixture)

pytestmark = pytest.mark.django_db


@pytest.mark.article("Art. 43")
def test_a_repeated_completion_is_answered_as_the_first_and_changes_nothing(on_board):
    cab, ride = on_board
    first = ride_steps.ride_complete(ride.pk, cab.pk, Decimal("12.40"), trace())
    again = ride_steps.ride_complete(ride.pk, cab.pk, Decimal("99.00"), trace())
    assert first.status == again.status == "completed"
    ride.refresh_from_db()
    assert ride.fare == Decimal("12.40") and ride.version == first.version
    assert Cab.objects.get(pk=cab.pk).status == "livre"


@pytest.mark.article("Art. 43")
def test_another_cab_cannot_complete_the_ride(on_board, working_cab):
    _cab, ride = on_board
    other = working_cab()
    stranger = Cab.objects.create(permit=other, driver=other.holder, online=True, status="livre")
    with pytest.raises(errors.DispatchError) as refused:
        ride_steps.ride_complete(ride.pk, stranger.pk, Decimal("12.40"), trace())
    assert refused.value.code == "not_your_ride"


@pytest.mark.article("Art. 45", "Art. 66")
def test_a_cab_taken_in_the_street_gets_no_offer_until_it_is_free_again(working_cab):
    permit = working_cab()
    cab = Cab.objects.create(permit=permit, driver=permit.holder, online=True, status="livre", lat=PICKUP[0], lon=PICKUP[1],
                             cell=grid.cell_of(*PICKUP), position_at=timezone.now())
    assert [c.cab.pk for c in choosing.nearest_free(*PICKUP, set())] == [cab.pk]
    cabs.set_status(cab.pk, "ocupado")
    assert choosing.nearest_free(*PICKUP, set()) == []
    cabs.set_status(cab.pk, "livre")
    assert [c.cab.pk for c in choosing.nearest_free(*PICKUP, set())] == [cab.pk]


def _street_trace(start):
    return [{"t": start, "lat": PICKUP[0], "lon": PICKUP[1], "accuracy_m": 8},
            {"t": start + timedelta(minutes=6), "lat": PICKUP[0] + 0.012, "lon": PICKUP[1], "accuracy_m": 8}]


@pytest.mark.article("Art. 43", "Art. 54, b")
def test_a_street_trip_sent_late_is_judged_by_the_day_it_was_made(working_cab):
    """The offline queue may send a trip days later: a suspension that began since does not lose its fare."""
    from backend.registry.models import Suspension
    from dispatch.rides import street_trips

    permit = working_cab()
    cab = Cab.objects.create(permit=permit, driver=permit.holder, online=True, status="livre")
    today = timezone.localdate()
    Suspension.objects.create(permit=permit, starts_on=today - timedelta(days=1), ends_on=today + timedelta(days=5), reason="teste")
    before = timezone.now() - timedelta(days=3)
    ride, duplicate = street_trips.record_street_trip(cab.pk, started_at=before, stopped_at=before + timedelta(minutes=6),
                                                meter_total=Decimal("14.10"), trace=_street_trace(before))
    assert not duplicate and ride.status == "completed" and ride.fare == Decimal("14.10")
    during = timezone.now() - timedelta(hours=1)
    with pytest.raises(errors.DispatchError) as refused:
        street_trips.record_street_trip(cab.pk, started_at=during, stopped_at=during + timedelta(minutes=6),
                                  meter_total=Decimal("14.10"), trace=_street_trace(during))
    assert refused.value.code == "not_allowed"


@pytest.mark.article("Art. 43", "Art. 45, §5")
def test_dispatched_and_street_trips_are_recorded_by_the_one_trips_service(on_board, working_cab, monkeypatch):
    """Both paths go through ``trips.services.record_finished_trip``: the fare is the meter's, the server's
    recomputation (total, distance, trace) sits beside it, whichever way the trip began."""
    from backend.trips import services as trips_services
    from dispatch.rides import street_trips

    calls = []
    record = trips_services.record_finished_trip
    monkeypatch.setattr(ride_steps, "record_finished_trip", lambda ride, **kw: calls.append("dispatched") or record(ride, **kw))
    monkeypatch.setattr(street_trips, "record_finished_trip", lambda ride, **kw: calls.append("street") or record(ride, **kw))
    cab, ride = on_board
    dispatched = ride_steps.ride_complete(ride.pk, cab.pk, Decimal("12.40"), trace())
    other = working_cab()
    street_cab = Cab.objects.create(permit=other, driver=other.holder, online=True, status="livre")
    start = timezone.now() - timedelta(minutes=10)
    hailed, _duplicate = street_trips.record_street_trip(street_cab.pk, started_at=start, stopped_at=start + timedelta(minutes=6),
                                                   meter_total=Decimal("14.10"), trace=_street_trace(start))
    assert calls == ["dispatched", "street"]
    for recorded in (Ride.objects.get(pk=dispatched.pk), Ride.objects.get(pk=hailed.pk)):
        assert recorded.status == "completed" and recorded.completed_at is not None
        assert recorded.server_total is not None and recorded.distance_m > 1000 and len(recorded.trace) == 2


@pytest.mark.article("Art. 43")
def test_a_trace_the_meter_cannot_read_records_nothing(working_cab):
    from backend.api_errors import LawViolation
    from backend.trips.services import record_finished_trip

    permit = working_cab()
    start = timezone.now() - timedelta(minutes=10)
    naive = [{"t": start.replace(tzinfo=None), "lat": PICKUP[0], "lon": PICKUP[1]}]
    with pytest.raises(LawViolation):
        record_finished_trip(Ride(pickup_lat=PICKUP[0], pickup_lon=PICKUP[1], permit=permit, on_board_at=start),
                             meter_total=Decimal("10.00"), trace=naive, stopped_at=start + timedelta(minutes=5))
    assert not Ride.objects.exists()
