"""A trip beyond the meter's dated bounds is a 400 or an error frame, never unbounded work (Art. 43)."""

import json
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal

import pytest
from django.utils import timezone as dj_timezone

from backend.api_errors import LawViolation
from backend.parameters.models import DatedParameter
from dispatch import protocol, wire

pytestmark = pytest.mark.django_db

BRT = timezone(timedelta(hours=-3))
START = datetime(2026, 3, 2, 10, 0, tzinfo=BRT)


def _trace(n=30):
    return [{"t": (START + timedelta(seconds=10 * i)).isoformat(), "lat": -21.13 + i * 0.0009, "lon": -42.37,
             "accuracy_m": 8.0} for i in range(n)]


@pytest.fixture
def driver(user_for, make_person):
    return user_for(make_person())


def _upload(client, **extra):
    body = {"trace": _trace(), "phone_total": "13.20", "started_at": START.isoformat()}
    body.update(extra)
    return client.post("/api/meter/recompute/", body, format="json")


@pytest.mark.article("Art. 43")
def test_a_stop_a_thousand_years_ahead_is_a_400_on_the_stop(driver):
    response = _upload(driver, stopped_at=START.replace(year=3026).isoformat())
    assert response.status_code == 400
    body = response.json()
    assert body["reasons"][0]["code"] == "trip_too_long"
    assert "24 horas" in body["stopped_at"][0]


@pytest.mark.article("Art. 43")
def test_a_fix_far_after_the_start_is_a_400(driver):
    late = {"t": (START + timedelta(days=3)).isoformat(), "lat": -21.10, "lon": -42.37, "accuracy_m": 8.0}
    response = _upload(driver, trace=[*_trace(), late])
    assert response.status_code == 400 and response.json()["reasons"][0]["code"] == "trip_too_long"


@pytest.mark.article("Art. 43")
def test_more_fixes_than_the_bound_is_a_400_on_the_trace(driver):
    fixes = [{"t": (START + timedelta(seconds=i)).isoformat(), "lat": -21.13, "lon": -42.37} for i in range(10001)]
    response = _upload(driver, trace=fixes)
    assert response.status_code == 400
    assert response.json()["reasons"][0]["code"] == "trace_too_long" and "10000" in response.json()["trace"][0]


@pytest.mark.article("Art. 43")
def test_the_bound_is_a_dated_parameter(driver):
    stop = (START + timedelta(hours=2)).isoformat()
    assert _upload(driver, stopped_at=stop).status_code == 200
    DatedParameter.objects.create(name="meter_max_trip_hours", effective_from=date(2026, 1, 1), value=1, source="teste")
    response = _upload(driver, stopped_at=stop)
    assert response.status_code == 400 and "1 horas" in response.json()["stopped_at"][0]


@pytest.mark.article("Art. 43")
def test_a_street_trip_beyond_the_bound_is_refused_by_the_law(working_cab):
    from dispatch.models import Cab
    from dispatch.rides import street_trips

    permit = working_cab()
    cab = Cab.objects.create(permit=permit, driver=permit.holder, online=True, status="livre")
    start = dj_timezone.now() - timedelta(hours=30)
    trace = [{"t": start, "lat": -21.131, "lon": -42.367, "accuracy_m": 8},
             {"t": start + timedelta(minutes=6), "lat": -21.119, "lon": -42.367, "accuracy_m": 8}]
    with pytest.raises(LawViolation) as refused:  # the consumer answers it with an error frame (code "law")
        street_trips.record_street_trip(cab.pk, started_at=start, stopped_at=dj_timezone.now(),
                                  meter_total=Decimal("14.10"), trace=trace)
    assert refused.value.decision.reasons[0].code == "trip_too_long"


def _frame(kind, **body):
    return json.dumps({"type": kind, **body})


@pytest.mark.article("Art. 43")
@pytest.mark.parametrize("kind, extra", [
    ("ride_complete", {"ride_id": 1}),
    ("street_trip_complete", {"trip_id": "6a0f8a52-3c41-4a8e-9d7e-2f1b7f0e9a11", "started_at": "2026-03-02T10:00:00-03:00"}),
])
def test_a_fix_in_the_future_is_an_error_frame(kind, extra):
    now = dj_timezone.now()
    trace = [{"t": (now - timedelta(minutes=5)).isoformat(), "lat": -21.13, "lon": -42.37},
             {"t": now.replace(year=now.year + 1000).isoformat(), "lat": -21.13, "lon": -42.37}]
    with pytest.raises(protocol.ProtocolError) as caught:
        protocol.parse("driver", _frame(kind, meter_total="10.00", trace=trace, **extra))
    frame = wire.error(caught.value)
    assert frame["type"] == "error" and frame["code"] == "invalid"
    assert "futuro" in frame["fields"]["trace"][0]
