"""Art. 45, I and II: Bandeira I / II by day, hour, distance and holidays."""

from datetime import date, datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from taxilaw.flags import (
    FLAG_REASONS,
    MURIAE_MUNICIPAL_HOLIDAYS_SEED,
    Flag,
    FlagParams,
    flag_for,
    holiday_name,
    municipal_holiday_dates,
    time_regime,
)

SP = ZoneInfo("America/Sao_Paulo")
MUNI = municipal_holiday_dates([2026])


def at(y, mo, d, h=12, mi=0, s=0):
    return datetime(2026 if y is None else y, mo, d, h, mi, s, tzinfo=SP)


@pytest.mark.article("Art. 45, I")
def test_weekday_daytime_is_bandeira_i():
    f = flag_for(at(2026, 3, 4, 10))  # Wednesday
    assert f.flag == Flag.I and f.code == "day" and f.article == "Art. 45, I"


@pytest.mark.article("Art. 45, I")
def test_saturday_is_a_working_day():
    assert flag_for(at(2026, 3, 7, 15)).flag == Flag.I
    assert flag_for(at(2026, 3, 7, 23)).code == "night"


@pytest.mark.article("Art. 45, II")
def test_saturday_reading_is_a_parameter():
    f = flag_for(at(2026, 3, 7, 15), params=FlagParams(saturday_is_working_day=False))
    assert f.flag == Flag.II and f.code == "saturday"


@pytest.mark.article("Art. 45, II")
def test_sunday_any_hour_is_bandeira_ii():
    for h in (0, 6, 12, 21):
        f = flag_for(at(2026, 3, 8, h))
        assert f.flag == Flag.II and f.code == "sunday" and f.label == "domingo"


@pytest.mark.article("Art. 45, II")
def test_national_holiday_any_hour():
    f = flag_for(at(2026, 4, 21, 10))  # Tiradentes, a Tuesday
    assert f.flag == Flag.II and f.code == "holiday" and f.label == "feriado"
    assert f.holiday_name
    assert flag_for(at(2026, 9, 7, 7)).code == "holiday"


@pytest.mark.article("Art. 45, II")
def test_municipal_holiday_any_hour():
    assert (6, 29) in [(m, d) for (m, d, _n, _s) in MURIAE_MUNICIPAL_HOLIDAYS_SEED]
    assert flag_for(at(2026, 6, 29, 10)).flag == Flag.I  # not passed in: a working Monday
    f = flag_for(at(2026, 6, 29, 10), municipal_holidays=MUNI)
    assert f.flag == Flag.II and f.code == "holiday"


@pytest.mark.article("Art. 45, II")
def test_carnival_and_corpus_christi_are_not_national_holidays():
    # optional points ("ponto facultativo") are not feriados nacionais
    assert flag_for(at(2026, 2, 17, 10)).flag == Flag.I
    assert flag_for(at(2026, 6, 4, 10)).flag == Flag.I
    assert holiday_name(date(2026, 2, 17)) is None


@pytest.mark.article("Art. 45, I", "Art. 45, II")
def test_06_00_edge():
    assert flag_for(at(2026, 3, 4, 5, 59, 59)).flag == Flag.II
    f = flag_for(at(2026, 3, 4, 6, 0, 0))
    assert f.flag == Flag.I


@pytest.mark.article("Art. 45, I", "Art. 45, II")
def test_22_00_edge():
    assert flag_for(at(2026, 3, 4, 21, 59, 59)).flag == Flag.I
    f = flag_for(at(2026, 3, 4, 22, 0, 0))
    assert f.flag == Flag.II and f.code == "night" and f.label == "22:00–06:00"


@pytest.mark.article("Art. 45, II")
def test_time_zone_is_muriae_local_time():
    utc = datetime(2026, 3, 5, 0, 30, tzinfo=timezone.utc)  # 21:30 in Muriaé
    assert flag_for(utc).flag == Flag.I
    with pytest.raises(ValueError):
        flag_for(datetime(2026, 3, 4, 12))  # noqa: DTZ001 (refused: that is the point)


@pytest.mark.article("Art. 45, II")
def test_tenth_kilometre():
    day = at(2026, 3, 4, 10)
    assert flag_for(day, 8999.9).flag == Flag.I
    f = flag_for(day, 9000)
    assert f.flag == Flag.II and f.code == "tenth_km" and f.label == "10º km"
    after_10 = FlagParams(tenth_km_from_m=10000)
    assert flag_for(day, 9500, params=after_10).flag == Flag.I
    assert flag_for(day, 10000, params=after_10).flag == Flag.II


@pytest.mark.article("Art. 45, II")
def test_reason_precedence_holiday_over_sunday_over_night_over_km():
    assert flag_for(at(2026, 3, 8, 23), 20000).code == "sunday"
    assert flag_for(at(2026, 3, 4, 23), 20000).code == "night"


@pytest.mark.article("Art. 45, II")
def test_crossing_22_switches_at_instant_or_keeps_start_flag():
    start = at(2026, 3, 4, 21, 50)
    later = at(2026, 3, 4, 22, 5)
    assert flag_for(later, trip_started_at=start).flag == Flag.II
    keep = FlagParams(switch_at_instant=False)
    assert flag_for(later, params=keep, trip_started_at=start).flag == Flag.I
    assert flag_for(later, 9000, params=keep, trip_started_at=start).flag == Flag.II


@pytest.mark.article("Art. 45, II")
def test_time_regime_until_is_next_boundary():
    r = time_regime(at(2026, 3, 4, 10))
    assert r.until == at(2026, 3, 4, 22)
    r = time_regime(at(2026, 3, 4, 23))
    assert r.until == at(2026, 3, 5, 0)
    r = time_regime(at(2026, 3, 5, 1))
    assert r.until == at(2026, 3, 5, 6)


def test_reasons_have_articles():
    for reason in FLAG_REASONS.values():
        assert reason.article.startswith("Art. 45")
