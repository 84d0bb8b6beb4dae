"""The meter's short-segment distance against the WGS-84 geodesic (Art. 43): error bounded, fares unchanged."""

import math
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taxilaw import meter as meter_module
from taxilaw.flags import municipal_holiday_dates
from taxilaw.geodesy import (
    DEGREE_SCALE_ERROR,
    DEGREE_SCALE_MAX_DEG,
    SEGMENT_ERROR_M,
    SEGMENT_MAX_DEG,
    degree_m,
    distance_m,
    segment_distance_m,
)
from taxilaw.meter_check import recompute
from taxilaw.meter_data import Fix
from taxilaw.tariffs import MURIAE_DEMO_TARIFF as T

SP = ZoneInfo("America/Sao_Paulo")
muriae_lat = st.floats(-21.35, -20.90)
muriae_lon = st.floats(-42.60, -42.10)
offset = st.floats(-SEGMENT_MAX_DEG, SEGMENT_MAX_DEG)
# to the 1e-7 degree of a GPS fix (~1 cm): below, the geodesic itself is no exact reference
scale_offset = st.integers(-round(DEGREE_SCALE_MAX_DEG * 1e7), round(DEGREE_SCALE_MAX_DEG * 1e7)).map(lambda n: n * 1e-7)


@pytest.mark.article("Art. 43")
@settings(max_examples=500, deadline=None)
@given(muriae_lat, muriae_lon, offset, offset)
def test_short_segments_around_muriae_are_within_the_bound(lat, lon, dlat, dlon):
    assert abs(segment_distance_m(lat, lon, lat + dlat, lon + dlon) - distance_m(lat, lon, lat + dlat, lon + dlon)) <= SEGMENT_ERROR_M


@pytest.mark.article("Art. 43")
@settings(max_examples=300, deadline=None)
@given(st.floats(-79.9, 79.9), st.floats(-179.9, 179.9), offset, offset)
def test_the_bound_holds_at_any_latitude_the_formula_is_used(lat, lon, dlat, dlon):
    lat2 = max(-80.0, min(80.0, lat + dlat))
    assert abs(segment_distance_m(lat, lon, lat2, lon + dlon) - distance_m(lat, lon, lat2, lon + dlon)) <= SEGMENT_ERROR_M


@pytest.mark.article("Art. 66")
@settings(max_examples=500, deadline=None)
@given(st.floats(-60, 60), st.floats(-179.9, 179.9), scale_offset, scale_offset)
def test_the_flat_distance_at_one_points_scale_is_within_its_bound_around_that_point(lat, lon, dlat, dlon):
    """The dispatcher's search stops by it (dispatch.rides.choosing): a cab that far by it is no nearer by the geodesic."""
    per_lat, per_lon = degree_m(lat)
    geodesic = distance_m(lat, lon, lat + dlat, lon + dlon)
    assert abs(math.hypot(per_lat * dlat, per_lon * dlon) - geodesic) <= DEGREE_SCALE_ERROR * geodesic


@pytest.mark.article("Art. 43")
@pytest.mark.parametrize("a, b", [
    ((-21.13, -42.37), (-21.13, -42.30)),  # 7 km: beyond the bound
    ((-21.13, -42.37), (-19.92, -43.94)),  # Belo Horizonte
    ((-10.0, 179.999), (-10.0, -179.999)),  # across the antimeridian
    ((85.0, 0.0), (85.001, 0.001)),  # near a pole
])
def test_long_or_odd_segments_use_the_geodesic(a, b):
    assert segment_distance_m(*a, *b) == distance_m(*a, *b)


def _trip(speeds, start):
    lat, lon, heading, fixes = -21.1306, -42.3664, 0.3, []
    for i, speed in enumerate(speeds):
        heading += 0.3 * math.sin(i)
        lat += speed * math.cos(heading) / 110_700
        lon += speed * math.sin(heading) / 103_400
        fixes.append(Fix(start + timedelta(seconds=2 * i), lat, lon, 6.0))
    return fixes


def _fares(fixes):
    holidays = municipal_holiday_dates([2026])
    fast = recompute(fixes, T, holidays)
    fast_geodesic = meter_module.segment_distance_m
    meter_module.segment_distance_m = distance_m
    try:
        geodesic = recompute(fixes, T, holidays)
    finally:
        meter_module.segment_distance_m = fast_geodesic
    return fast, geodesic


@pytest.mark.article("Art. 43", "Art. 45, I", "Art. 45, II")
@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0.0, 40.0), min_size=2, max_size=400),
       st.sampled_from([datetime(2026, 3, 4, 21, 50, tzinfo=SP), datetime(2026, 3, 8, 10, 0, tzinfo=SP)]))
def test_the_fare_of_a_trip_is_the_geodesic_fare_to_the_centavo(speeds, start):
    fast, geodesic = _fares(_trip(speeds, start))
    assert fast.total == geodesic.total
    assert fast.distance_m == pytest.approx(geodesic.distance_m, abs=SEGMENT_ERROR_M * len(speeds))


@pytest.mark.article("Art. 43")
def test_the_benchmark_trip_has_the_geodesic_fare():
    from benchmarks.meter_bench import make_trace

    fast, geodesic = _fares(make_trace(3600))
    assert fast.total == geodesic.total and fast.waiting_s == geodesic.waiting_s
