"""The fare estimate before asking (Art. 43, Art. 45): the meter's arithmetic on a guessed road distance."""

from datetime import datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from taxilaw.estimate import DetourFactors, detour_from_table, estimate_fare, meter_total_for
from taxilaw.flags import Flag, municipal_holiday_dates
from taxilaw.meter_check import recompute
from taxilaw.meter_data import Fix
from taxilaw.parameters import default_parameters
from taxilaw.tariffs import MURIAE_DEMO_TARIFF as T

SP = ZoneInfo("America/Sao_Paulo")
PRACA, RODOVIARIA = (-21.1311, -42.3676), (-21.1283, -42.3712)
ONE = DetourFactors(Decimal("1"), Decimal("1"))


@pytest.mark.article("Art. 45, I")
def test_weekday_daytime_uses_bandeira_i_and_the_meter_arithmetic():
    e = estimate_fare(T, datetime(2026, 3, 4, 10, tzinfo=SP), PRACA, RODOVIARIA, detour=ONE)
    assert e.flag.flag == Flag.I and e.low == e.high
    # the meter over the same straight line shows the same total (no waiting at 36 km/h)
    fixes = [Fix(datetime(2026, 3, 4, 10, 0, s, tzinfo=SP), PRACA[0] + (RODOVIARIA[0] - PRACA[0]) * s / 50,
                 PRACA[1] + (RODOVIARIA[1] - PRACA[1]) * s / 50, 5.0) for s in range(51)]
    assert recompute(fixes, T).total == e.low


@pytest.mark.article("Art. 45, II")
def test_night_sunday_and_holiday_use_bandeira_ii():
    holidays = municipal_holiday_dates([2026])
    for at, code in ((datetime(2026, 3, 4, 23, tzinfo=SP), "night"), (datetime(2026, 3, 8, 10, tzinfo=SP), "sunday"),
                     (datetime(2026, 6, 29, 10, tzinfo=SP), "holiday")):
        e = estimate_fare(T, at, PRACA, RODOVIARIA, detour=ONE, municipal_holidays=holidays)
        assert (e.flag.flag, e.flag.code) == (Flag.II, code)
        assert e.low == meter_total_for(T, Flag.II, e.straight_m)
    day = estimate_fare(T, datetime(2026, 3, 4, 10, tzinfo=SP), PRACA, RODOVIARIA, detour=ONE)
    assert e.low > day.low


@pytest.mark.article("Art. 45, II")
def test_the_tenth_km_switches_to_bandeira_ii():
    # 12 km in Bandeira I: 9 km at B1, 3 km at B2 (Art. 45, II "a partir do 10º quilômetro")
    # R$ 5,50 + 9 x 2,70 + 3 x 3,25 = R$ 39,55, shown in whole R$ 0,10 fractions: R$ 39,50
    assert meter_total_for(T, Flag.I, 12_000) == Decimal("39.50")
    assert meter_total_for(T, Flag.II, 12_000) == T.bandeirada + 12 * T.price_km_b2


@pytest.mark.article("Art. 43")
def test_totals_advance_in_whole_fractions_never_rounded_up():
    assert meter_total_for(T, Flag.I, 0) == T.bandeirada
    assert meter_total_for(T, Flag.I, 36) == T.bandeirada  # R$ 0,0972: not yet a fraction
    assert meter_total_for(T, Flag.I, 38) == T.bandeirada + Decimal("0.10")


@pytest.mark.article("Art. 45")
def test_the_range_comes_from_the_dated_detour_factors():
    table = default_parameters()
    detour = detour_from_table(table, datetime(2026, 3, 4).date())
    assert (detour.low, detour.high) == (table.as_of("fare_estimate_detour_low", datetime(2026, 3, 4).date()),
                                        table.as_of("fare_estimate_detour_high", datetime(2026, 3, 4).date()))
    e = estimate_fare(T, datetime(2026, 3, 4, 10, tzinfo=SP), PRACA, RODOVIARIA, detour=detour)
    assert e.low < e.high and e.low_m == pytest.approx(e.straight_m * float(detour.low))
    with pytest.raises(ValueError):
        DetourFactors(Decimal("1.5"), Decimal("1.2"))


@pytest.mark.article("Art. 45")
def test_naive_instants_are_refused():
    with pytest.raises(ValueError):
        estimate_fare(T, datetime(2026, 3, 4, 10), PRACA, RODOVIARIA)
