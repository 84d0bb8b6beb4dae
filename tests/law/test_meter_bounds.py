"""The server's meter does work proportional to the trace, not to the clock; a trip's size is bounded (Art. 43)."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from taxilaw import meter as meter_module
from taxilaw.meter import Meter
from taxilaw.meter_check import check_trip_size, recompute
from taxilaw.meter_data import Fix
from taxilaw.parameters import default_parameters
from taxilaw.tariffs import MURIAE_DEMO_TARIFF as T

SP = ZoneInfo("America/Sao_Paulo")
T0 = datetime(2026, 3, 4, 21, 0, tzinfo=SP)
LAT0, LON0 = -21.1306, -42.3664


@pytest.fixture
def regime_calls(monkeypatch):
    """Counts the meter's calls to the time-regime rule: one per flag interval it charges."""
    calls = []
    real = meter_module.time_regime

    def counting(*args, **kwargs):
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(meter_module, "time_regime", counting)
    return calls


def _short_trip():
    return [Fix(T0 + timedelta(seconds=10 * i), LAT0 + i * 0.0009, LON0, 6.0) for i in range(30)]


@pytest.mark.article("Art. 43", "Art. 45")
@pytest.mark.parametrize("years", [1, 1000, 5000])
def test_waiting_until_a_far_stop_costs_what_a_near_stop_costs(regime_calls, years):
    near = recompute(_short_trip(), T, stopped_at=T0 + timedelta(hours=1))
    near_calls = len(regime_calls)
    regime_calls.clear()
    far = recompute(_short_trip(), T, stopped_at=T0 + timedelta(days=365 * years))
    assert len(regime_calls) <= near_calls + 1  # the reading's flag at the far stop
    assert far.waiting_s > near.waiting_s + 364 * 86400 * years
    assert far.total > near.total


@pytest.mark.article("Art. 43", "Art. 45")
def test_a_stationary_fix_years_later_is_one_interval(regime_calls):
    m = Meter(T)
    m.start(T0)
    m.feed(Fix(T0 + timedelta(seconds=5), LAT0, LON0, 6.0))
    before = len(regime_calls)
    m.feed(Fix(T0 + timedelta(days=365 * 1000), LAT0 + 0.00001, LON0, 6.0))  # jitter, 1000 years later
    assert len(regime_calls) - before <= 1


@pytest.mark.article("Art. 43", "Art. 45, I", "Art. 45, II")
def test_a_moving_segment_is_cut_only_at_flag_changes(regime_calls):
    # 2 days at ~40 km/h between two fixes (a gap): cut at each 00:00/06:00/22:00 it crosses, no more
    m = Meter(T)
    m.start(T0)
    m.feed(Fix(T0, LAT0, LON0, 6.0))
    m.feed(Fix(T0 + timedelta(days=2), LAT0 + 17.0, LON0, 6.0))
    assert len(regime_calls) <= 3 * 2 + 3


def _limits(on=None):
    on = on or T0.date()
    table = default_parameters()
    return {"max_hours": table.as_of("meter_max_trip_hours", on), "max_fixes": table.as_of("meter_max_trace_fixes", on)}


@pytest.mark.article("Art. 43")
def test_default_bounds_are_a_day_and_the_frame_limit():
    assert _limits() == {"max_hours": 24, "max_fixes": 10000}


@pytest.mark.article("Art. 43")
def test_a_trip_within_the_bounds_is_recomputed():
    fixes = _short_trip()
    decision, _field = check_trip_size(fixes, T0, T0 + timedelta(hours=24), **_limits())
    assert decision.allowed


@pytest.mark.article("Art. 43")
@pytest.mark.parametrize("stop, last_fix", [
    (timedelta(hours=24, seconds=1), None),
    (timedelta(days=365 * 1000), None),
    (None, timedelta(days=2)),  # the stop defaults to the last fix, which is far
    (timedelta(minutes=10), timedelta(days=2)),  # a fix after the stop is charged too
])
def test_a_trip_longer_than_the_bound_is_refused(stop, last_fix):
    fixes = _short_trip() + ([Fix(T0 + last_fix, LAT0, LON0, 6.0)] if last_fix else [])
    decision, field = check_trip_size(fixes, T0, T0 + stop if stop else None, **_limits())
    assert not decision.allowed and field == "stopped_at"
    assert decision.reasons[0].code == "trip_too_long" and "24 horas" in decision.reasons[0].message


@pytest.mark.article("Art. 43")
def test_a_trace_with_too_many_fixes_is_refused():
    fixes = [Fix(T0 + timedelta(seconds=i), LAT0, LON0, 6.0) for i in range(10001)]
    decision, field = check_trip_size(fixes, None, None, **_limits())
    assert not decision.allowed and field == "trace" and decision.reasons[0].code == "trace_too_long"
    assert check_trip_size(fixes[:10000], None, None, **_limits())[0].allowed
