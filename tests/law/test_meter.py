"""The taximeter engine (Art. 1, VI-VII, Art. 43, Art. 45)."""

import json
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from decimal import ROUND_FLOOR, Decimal
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taxilaw.flags import Flag, FlagParams, municipal_holiday_dates
from taxilaw.geodesy import distance_m
from taxilaw.meter import Meter, MeterStateError
from taxilaw.meter_check import compare, recompute
from taxilaw.meter_data import Fix, MeterParams
from taxilaw.tariffs import MURIAE_DEMO_TARIFF as T

SP = ZoneInfo("America/Sao_Paulo")
LAT0, LON0 = -21.1306, -42.3664  # Muriaé
M_PER_DEG_LAT = 110_760.0  # close enough near 21° S; tests read real distances back


def when(d=4, h=10, mi=0, month=3):
    return datetime(2026, month, d, h, mi, tzinfo=SP)


def drive(t0, seconds, speed_kmh, step_s=1, lat=LAT0, acc=5.0):
    """Fixes going north at constant speed, one every ``step_s``."""
    fixes = []
    for i in range(0, seconds + 1, step_s):
        meters = speed_kmh / 3.6 * i
        fixes.append(Fix(t0 + timedelta(seconds=i), lat + meters / M_PER_DEG_LAT, LON0, acc))
    return fixes


def expected_total(reading, tariff=T):
    raw = (Decimal(reading.charged_m_b1) * tariff.price_km_b1 / 1000
           + Decimal(reading.charged_m_b2) * tariff.price_km_b2 / 1000
           + Decimal(reading.waiting_s) * tariff.price_hour_waiting / 3600)
    return tariff.bandeirada + (raw / Decimal("0.10")).to_integral_value(ROUND_FLOOR) * Decimal("0.10")


@pytest.mark.article("Art. 1, VII")
def test_bandeirada_registered_at_start():
    m = Meter(T)
    r = m.start(when())
    assert r.total == Decimal("5.50") and r.flag == Flag.I and r.distance_m == 0


@pytest.mark.article("Art. 45, I", "Art. 43")
def test_one_kilometre_daytime():
    t0 = when()
    m = Meter(T)
    m.start(t0)
    r = m.feed_many(drive(t0, 100, 36))  # ~1000 m at 36 km/h
    assert r.distance_m == pytest.approx(1000, rel=0.01)
    assert r.waiting_s == 0 and r.charged_m_b2 == 0
    assert r.total == expected_total(r)
    assert Decimal("8.10") <= r.total <= Decimal("8.20")


@pytest.mark.article("Art. 45")
def test_waiting_hour_when_stationary_with_jitter():
    t0 = when()
    m = Meter(T)
    m.start(t0)
    fixes = [Fix(t0 + timedelta(seconds=i), LAT0 + (i % 3) * 1e-5, LON0, 8) for i in range(1, 3601)]
    r = m.feed_many(fixes)
    assert r.distance_m == 0  # ~1 m jitter is not distance
    assert r.waiting_s == pytest.approx(3600)
    assert r.total == Decimal("18.50")  # 5,50 + 13,00


@pytest.mark.article("Art. 45")
def test_single_mode_crossover():
    # 4 km/h < 4.81 km/h: time is charged; 6 km/h: distance
    t0 = when()
    slow, fast = Meter(T), Meter(T)
    slow.start(t0)
    fast.start(t0)
    rs = slow.feed_many(drive(t0, 600, 4, step_s=10))
    rf = fast.feed_many(drive(t0, 600, 6, step_s=10))
    assert rs.charged_m_b1 == 0 and rs.waiting_s == pytest.approx(600)
    assert rf.waiting_s == 0 and rf.charged_m_b1 == pytest.approx(1000, rel=0.01)


@pytest.mark.article("Art. 45, II")
def test_tenth_km_switches_to_bandeira_ii():
    t0 = when()
    m = Meter(T)
    m.start(t0)
    r = m.feed_many(drive(t0, 1200, 36))  # ~12 km
    assert r.charged_m_b1 == pytest.approx(9000, abs=1e-6)
    assert r.charged_m_b2 == pytest.approx(r.distance_m - 9000, abs=1e-6)
    assert r.flag == Flag.II and r.flag_reason == "tenth_km" and r.flag_label == "10º km"
    assert r.total == expected_total(r)


@pytest.mark.article("Art. 45, II")
def test_tenth_km_reading_is_a_parameter():
    t0 = when()
    m = Meter(T, params=MeterParams(flags=FlagParams(tenth_km_from_m=10000)))
    m.start(t0)
    r = m.feed_many(drive(t0, 1200, 36))
    assert r.charged_m_b1 == pytest.approx(10000, abs=1e-6)


@pytest.mark.article("Art. 45, I", "Art. 45, II")
def test_crossing_22_00_switches_at_the_instant():
    t0 = when(h=21, mi=55)
    m = Meter(T)
    m.start(t0)
    r = m.feed_many(drive(t0, 600, 30, step_s=7))  # 7 s steps: 22:00 falls inside a segment
    assert r.charged_m_b1 == pytest.approx(300 / 3.6 * 30 * 1.0, rel=0.02)
    assert r.charged_m_b2 == pytest.approx(r.distance_m - r.charged_m_b1)
    assert r.flag_reason == "night"


@pytest.mark.article("Art. 45, II")
def test_crossing_22_00_trip_start_reading():
    t0 = when(h=21, mi=55)
    m = Meter(T, params=MeterParams(flags=FlagParams(switch_at_instant=False)))
    m.start(t0)
    r = m.feed_many(drive(t0, 600, 30, step_s=7))
    assert r.charged_m_b2 == 0 and r.flag == Flag.I


@pytest.mark.article("Art. 45, II")
def test_sunday_and_municipal_holiday_trips_are_bandeira_ii():
    for start, holidays in ((when(d=8), ()), (datetime(2026, 6, 29, 10, tzinfo=SP), municipal_holiday_dates([2026]))):
        m = Meter(T, holidays)
        m.start(start)
        r = m.feed_many(drive(start, 120, 36))
        assert r.charged_m_b1 == 0 and r.charged_m_b2 > 1000 and r.flag == Flag.II


@pytest.mark.article("Art. 45, §1", "Art. 45, §2")
def test_no_luggage_or_return_surcharge():
    t0 = when()
    m = Meter(T)
    m.start(t0)
    m.feed_many(drive(t0, 300, 40))
    r = m.stop(t0 + timedelta(seconds=300))
    # the fare is only bandeirada + distance + time, in whole fractions
    assert r.total == expected_total(r)
    assert not any("bagag" in name or "retorno" in name or "surcharge" in name for name in dir(m))


@pytest.mark.article("Art. 43")
def test_fraction_is_never_rounded_up_and_stop_freezes():
    t0 = when()
    m = Meter(T)
    m.start(t0)
    m.feed_many(drive(t0, 95, 36))
    r = m.stop(t0 + timedelta(seconds=155))  # 60 s after the last fix charged as waiting
    assert r.waiting_s == pytest.approx(60)
    assert (r.total - T.bandeirada) % Decimal("0.10") == 0
    assert r.total == expected_total(r)
    assert not r.running
    after = m.feed(Fix(t0 + timedelta(seconds=200), LAT0, LON0, 5))
    assert after.total == r.total and after.rejections["after_stop"] == 1
    assert m.stop(t0 + timedelta(seconds=999)).total == r.total


@pytest.mark.article("Art. 43")
def test_noise_rejected_without_losing_the_trip():
    t0 = when()
    clean = drive(t0, 300, 36)
    noisy = []
    for i, fix in enumerate(clean):
        noisy.append(fix)
        if i % 50 == 10:
            noisy.append(fix)  # duplicate
        if i % 50 == 20:
            noisy.append(replace(fix, t=fix.t - timedelta(seconds=5)))  # backwards
        if i % 50 == 30:
            noisy.append(replace(fix, t=fix.t + timedelta(milliseconds=500), lat=fix.lat + 0.05))  # teleport 5 km
        if i % 50 == 40:
            noisy.append(replace(fix, t=fix.t + timedelta(milliseconds=500), accuracy_m=500))
    a, b = Meter(T), Meter(T)
    a.start(t0)
    b.start(t0)
    ra, rb = a.feed_many(clean), b.feed_many(noisy)
    assert rb.total == ra.total
    assert rb.distance_m == pytest.approx(ra.distance_m)
    assert rb.rejections == {"duplicate": 6, "backwards": 6, "teleport": 6, "inaccurate": 6}
    assert rb.rejected_fixes == 24


@pytest.mark.article("Art. 43")
def test_gap_is_charged_as_straight_line():
    t0 = when()
    fixes = drive(t0, 600, 36)
    gapped = fixes[:100] + fixes[400:]  # 5 minutes without GPS (tunnel)
    m = Meter(T)
    m.start(t0)
    r = m.feed_many(gapped)
    assert r.distance_m == pytest.approx(6000, rel=0.01)
    assert r.rejected_fixes == 0


@pytest.mark.article("Art. 43")
def test_reanchor_when_first_fix_was_an_outlier():
    t0 = when()
    bad = Fix(t0 + timedelta(seconds=1), LAT0 + 1.0, LON0, 5)  # 110 km away
    fixes = [bad] + drive(t0 + timedelta(seconds=1), 120, 36)[1:]
    m = Meter(T)
    m.start(t0)
    r = m.feed_many(fixes)
    assert r.rejections["teleport"] == 5 and r.rejections["reanchor"] == 1
    assert r.distance_m == pytest.approx(115 * 10, rel=0.02)
    assert r.rejected_fixes == 5


@pytest.mark.article("Art. 43")
def test_state_survives_a_restart():
    t0 = when(h=21, mi=50)
    fixes = drive(t0, 1500, 40, step_s=3)
    one = Meter(T, municipal_holiday_dates([2026]))
    one.start(t0)
    one.feed_many(fixes)
    two = Meter(T, municipal_holiday_dates([2026]))
    two.start(t0)
    two.feed_many(fixes[:200])
    two = Meter.from_dict(json.loads(json.dumps(two.to_dict())))
    two.feed_many(fixes[200:])
    assert two.reading() == one.reading()
    assert two.municipal_holidays == one.municipal_holidays


@pytest.mark.article("Art. 43")
def test_recompute_and_compare():
    t0 = when()
    fixes = drive(t0, 400, 50)
    m = Meter(T)
    m.start(t0)
    m.feed_many(fixes)
    phone = m.stop(fixes[-1].t)
    server = recompute(fixes, T, started_at=t0)
    assert server == phone
    assert compare(phone.total, server.total)
    d = compare(phone.total + Decimal("1.00"), server.total)
    assert not d and d.codes == ("meter_overcharge",) and "Art. 43" in d.articles
    assert compare(phone.total - Decimal("0.60"), server.total).codes == ("meter_undercharge",)
    assert compare(phone.total - Decimal("0.50"), server.total)


def test_lifecycle_errors():
    m = Meter(T)
    with pytest.raises(MeterStateError):
        m.feed(Fix(when(), LAT0, LON0, 5))
    m.start(when())
    with pytest.raises(MeterStateError):
        m.start(when())
    with pytest.raises(ValueError):
        m.feed(Fix(datetime(2026, 3, 4, 10, 0, 5), LAT0, LON0, 5))  # noqa: DTZ001 (refused: that is the point)
    assert m.feed(Fix(when() - timedelta(seconds=1), LAT0, LON0, 5)).rejections == {"before_start": 1}
    assert m.feed(Fix(when() + timedelta(seconds=1), float("nan"), LON0, 5)).rejections["invalid_position"] == 1


def test_distance_is_geopy_geodesic():
    from geopy.distance import geodesic
    assert distance_m(LAT0, LON0, LAT0 + 0.01, LON0 + 0.01) == pytest.approx(
        geodesic((LAT0, LON0), (LAT0 + 0.01, LON0 + 0.01)).meters, abs=1e-6)


# --- properties --------------------------------------------------------------------------

step = st.tuples(
    st.integers(min_value=-3, max_value=400),  # dt in seconds (<= 0: backwards/duplicate)
    st.floats(min_value=-0.004, max_value=0.004),  # dlat
    st.floats(min_value=-0.004, max_value=0.004),  # dlon
    st.one_of(st.none(), st.floats(min_value=0, max_value=120)),  # accuracy
    st.booleans(),  # teleport
)


@st.composite
def traces(draw):
    start = draw(st.datetimes(min_value=datetime(2025, 12, 20), max_value=datetime(2026, 12, 31),
                              timezones=st.just(timezone.utc)))
    steps = draw(st.lists(step, min_size=1, max_size=60))
    fixes, t, lat, lon = [], start, LAT0, LON0
    for dt, dlat, dlon, acc, teleport in steps:
        t = t + timedelta(seconds=dt)
        lat, lon = lat + dlat, lon + dlon
        fixes.append(Fix(t, lat + (1.0 if teleport else 0.0), lon, acc))
    return start, fixes


HOL = municipal_holiday_dates([2025, 2026])


@pytest.mark.article("Art. 43")
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(traces())
def test_total_never_decreases(trace):
    start, fixes = trace
    m = Meter(T, HOL)
    last = m.start(start).total
    for fix in fixes:
        r = m.feed(fix)
        assert r.total >= last
        last = r.total
    final = m.stop(fixes[-1].t + timedelta(seconds=30))
    assert final.total >= last
    assert final.total == expected_total(final)


@pytest.mark.article("Art. 43")
@settings(max_examples=100, deadline=None)
@given(traces(), st.lists(st.integers(min_value=1, max_value=15), min_size=1, max_size=20))
def test_deterministic_and_independent_of_chunking(trace, sizes):
    start, fixes = trace
    whole = Meter(T, HOL)
    whole.start(start)
    for fix in fixes:
        whole.feed(fix)
    reference = whole.stop(fixes[-1].t)

    chunked = Meter(T, HOL)
    chunked.start(start)
    i, k = 0, 0
    while i < len(fixes):
        n = sizes[k % len(sizes)]
        chunked.feed_many(fixes[i:i + n])
        chunked = Meter.from_dict(json.loads(json.dumps(chunked.to_dict())))  # restart between chunks
        i, k = i + n, k + 1
    assert chunked.stop(fixes[-1].t) == reference
    assert recompute(fixes, T, HOL, started_at=start, stopped_at=fixes[-1].t) == reference
