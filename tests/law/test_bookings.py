"""Advance bookings of the radio-taxi service (Art. 66): lead time, too soon, too far ahead."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from taxilaw.bookings import BookingParams, booking_params_from_table, check_booking, dispatch_at
from taxilaw.parameters import default_parameters

SP = ZoneInfo("America/Sao_Paulo")
NOW = datetime(2026, 3, 4, 22, 0, tzinfo=SP)


@pytest.mark.article("Art. 66")
def test_dispatch_starts_the_lead_time_before_the_pickup():
    p = booking_params_from_table(default_parameters(), NOW.date())
    assert p == BookingParams(15, 30, 30)
    assert dispatch_at(datetime(2026, 3, 5, 6, 0, tzinfo=SP), p) == datetime(2026, 3, 5, 5, 45, tzinfo=SP)


@pytest.mark.article("Art. 66")
def test_too_soon_is_a_ride_asked_now_and_too_far_is_refused():
    assert check_booking(NOW, NOW + timedelta(hours=8))
    soon = check_booking(NOW, NOW + timedelta(minutes=29))
    assert not soon and soon.codes == ("booking_too_soon",) and "30 minutos" in soon.reasons[0].message
    far = check_booking(NOW, NOW + timedelta(days=31))
    assert not far and far.codes == ("booking_too_far",)
    with pytest.raises(ValueError):
        check_booking(NOW, datetime(2026, 3, 5, 6, 0))


@pytest.mark.article("Art. 66")
def test_a_time_already_past_is_told_so_not_too_soon():
    past = check_booking(NOW, NOW - timedelta(days=1))
    assert not past and past.codes == ("booking_in_past",) and "já passaram" in past.reasons[0].message
    assert "menos de" not in past.reasons[0].message
