"""A driver's cancel before boarding: the reasons, the no-show wait, what becomes of the ride (Art. 1, X; Art. 9, VII)."""

from datetime import datetime, timedelta, timezone

import pytest

from taxilaw.cancellation import END, NEXT_STEP, REOFFER, CancelReason, DriverCancelFacts, may_driver_cancel
from taxilaw.parameters import default_parameters

NOW = datetime(2026, 12, 1, 15, 0, tzinfo=timezone.utc)


def facts(reason, status="arriving", arrived_minutes_ago=None, wait=5, distance=40.0):
    arrived = NOW - timedelta(minutes=arrived_minutes_ago) if arrived_minutes_ago is not None else None
    return DriverCancelFacts(reason=reason, ride_status=status, arrived_at=arrived, now=NOW, no_show_wait_minutes=wait,
                             distance_to_pickup_m=distance, arrival_radius_m=500)


@pytest.mark.article("Art. 1, X")
def test_no_show_only_after_arriving_and_waiting_the_set_time():
    assert may_driver_cancel(facts("passenger_absent", arrived_minutes_ago=5))
    early = may_driver_cancel(facts("passenger_absent", arrived_minutes_ago=3))
    assert early.codes == ("wait_more",)
    assert "faltam 2 min" in early.reasons[0].message
    assert may_driver_cancel(facts("passenger_absent", status="accepted")).codes == ("not_arrived",)


@pytest.mark.article("Art. 1, X", "Art. 9, VII")
def test_no_show_only_with_the_cab_still_at_the_pickup():
    away = may_driver_cancel(facts("passenger_absent", arrived_minutes_ago=6, distance=3000.4))
    assert away.codes == ("away_from_pickup",) and "3000 m" in away.reasons[0].message
    assert may_driver_cancel(facts("passenger_absent", arrived_minutes_ago=6, distance=None)).codes == ("arrival_without_position",)
    assert may_driver_cancel(facts("passenger_absent", arrived_minutes_ago=6, distance=500.0))
    assert may_driver_cancel(facts("vehicle_problem", distance=3000.0))  # giving the ride back asks no position


@pytest.mark.article("Art. 1, X")
def test_other_reasons_need_no_wait_but_only_before_boarding():
    assert may_driver_cancel(facts("passenger_asked", status="accepted"))
    assert may_driver_cancel(facts("vehicle_problem", status="arriving"))
    assert may_driver_cancel(facts("vehicle_problem", status="on_board")).codes == ("not_before_boarding",)
    assert may_driver_cancel(facts("bored")).codes == ("unknown_reason",)


@pytest.mark.article("Art. 9, VII")
def test_the_ride_goes_to_the_next_cab_only_for_a_vehicle_problem():
    assert NEXT_STEP[CancelReason.VEHICLE_PROBLEM] == REOFFER
    assert NEXT_STEP[CancelReason.PASSENGER_ABSENT] == END
    assert NEXT_STEP[CancelReason.PASSENGER_ASKED] == END


@pytest.mark.article("Art. 1, X")
def test_the_wait_is_a_dated_parameter():
    assert default_parameters().as_of("no_show_wait_minutes", NOW.date()) == 5


@pytest.mark.article("Art. 1, X", "Art. 9, VII")
def test_the_passenger_reads_the_drivers_reason_as_a_sentence_never_its_code():
    from taxilaw.cancellation import CancelReason, reason_for_passenger

    for code in CancelReason:
        words = reason_for_passenger(code.value)
        assert words and code.value not in words and "_" not in words
    assert reason_for_passenger(CancelReason.PASSENGER_ASKED.value) == "você pediu para cancelar"
    assert reason_for_passenger("nenhum táxi livre") == "nenhum táxi livre"  # another text stays as it is
