"""The server re-runs the meter over the uploaded trace and compares (Art. 43)."""

from datetime import datetime, timedelta, timezone
from decimal import Decimal

import pytest

from backend.tariffs import services
from taxilaw.meter_data import Fix

pytestmark = pytest.mark.django_db

BRT = timezone(timedelta(hours=-3))
START = datetime(2026, 3, 2, 10, 0, tzinfo=BRT)  # a Monday, Bandeira I


def trace(n=30, step_s=10, step_deg=0.0009):
    """About 100 m every 10 s (36 km/h) heading north from Muriaé's centre."""
    return [{"t": (START + timedelta(seconds=i * step_s)).isoformat(), "lat": -21.13 + i * step_deg, "lon": -42.37,
             "accuracy_m": 8.0} for i in range(n)]


def upload(client, **extra):
    body = {"trace": trace(), "phone_total": "13.20", "started_at": START.isoformat(),
            "stopped_at": (START + timedelta(seconds=300)).isoformat()}
    body.update(extra)
    return client.post("/api/meter/recompute/", body, format="json")


@pytest.fixture
def driver(user_for, make_person):
    return user_for(make_person())


@pytest.mark.article("Art. 43", "Art. 45, I")
def test_good_trace_returns_both_totals_and_the_decision(driver):
    response = upload(driver)
    assert response.status_code == 200, response.content
    body = response.json()
    server = Decimal(body["server_total"])
    assert Decimal("12.00") < server < Decimal("15.00")
    assert body["server_total_display"].startswith("R$ ")
    assert body["reading"]["flag"] == 1
    assert body["tariff"]["effective_from"] == "2026-01-01"

    agreed = upload(driver, phone_total=str(server)).json()
    assert agreed["decision"]["allowed"] is True
    assert agreed["server_total"] == str(server)

    over = upload(driver, phone_total=str(server + Decimal("5.00"))).json()
    assert over["decision"]["allowed"] is False
    assert over["decision"]["reasons"][0]["code"] == "meter_overcharge"
    assert over["decision"]["reasons"][0]["article"] == "Art. 43"
    assert over["difference"] == "5.00"


@pytest.mark.article("Art. 43")
def test_recompute_service_matches_the_endpoint(driver):
    fixes = [Fix(datetime.fromisoformat(f["t"]), f["lat"], f["lon"], f["accuracy_m"]) for f in trace()]
    result = services.recompute_trip(fixes, Decimal("13.20"), START, START + timedelta(seconds=300))
    assert str(result.server_total) == upload(driver).json()["server_total"]
    # start and stop default to the first and last fix
    assert services.recompute_trip(fixes, Decimal("0")).server_total > 0


@pytest.mark.article("Art. 43")
@pytest.mark.parametrize("body, field", [
    ({"phone_total": "10.00"}, "trace"),
    ({"trace": [], "phone_total": "10.00"}, "trace"),
    ({"trace": "not a list", "phone_total": "10.00"}, "trace"),
    ({"trace": [{"t": "2026-03-02T10:00:00", "lat": -21.1, "lon": -42.3}], "phone_total": "1"}, "trace"),
    ({"trace": [{"t": "yesterday", "lat": -21.1, "lon": -42.3}], "phone_total": "1"}, "trace"),
    ({"trace": [{"t": "2026-03-02T10:00:00-03:00", "lat": "abc", "lon": -42.3}], "phone_total": "1"}, "trace"),
    ({"trace": [{"t": "2026-03-02T10:00:00-03:00", "lon": -42.3}], "phone_total": "1"}, "trace"),
    ({"trace": [{"t": "2026-03-02T10:00:00-03:00", "lat": -21.1, "lon": -42.3}]}, "phone_total"),
    ({"trace": [{"t": "2026-03-02T10:00:00-03:00", "lat": -21.1, "lon": -42.3}], "phone_total": "-3"}, "phone_total"),
    ({"trace": [{"t": "2026-03-02T10:00:00-03:00", "lat": -21.1, "lon": -42.3}], "phone_total": "x"}, "phone_total"),
    ({"trace": [{"t": "2026-03-02T10:00:00-03:00", "lat": -21.1, "lon": -42.3}], "phone_total": "1",
      "started_at": "2026-03-02T10:00:00"}, "started_at"),
    ({"trace": [{"t": "2026-03-02T10:00:00-03:00", "lat": -21.1, "lon": -42.3}], "phone_total": "1",
      "started_at": "2026-03-02T10:00:00-03:00", "stopped_at": "2026-03-02T09:00:00-03:00"}, "stopped_at"),
    ({"trace": [{"t": "2019-03-02T10:00:00-03:00", "lat": -21.1, "lon": -42.3}], "phone_total": "1"}, "started_at"),
    ({"trace": [None], "phone_total": "1"}, "trace"),
])
def test_bad_traces_are_400_with_field_messages(driver, body, field):
    response = driver.post("/api/meter/recompute/", body, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json(), response.json()


@pytest.mark.article("Art. 43")
@pytest.mark.parametrize("raw", ["not json", "[1, 2, 3]", '"a string"', "null", "{", '{"trace": NaN}'])
def test_garbage_bodies_are_400_never_500(driver, raw):
    response = driver.post("/api/meter/recompute/", raw, content_type="application/json")
    assert response.status_code == 400, response.content


def test_form_encoded_body_is_refused(driver):
    response = driver.post("/api/meter/recompute/", {"trace": "x"})  # multipart
    assert response.status_code in (400, 415)


def test_recompute_needs_authentication(anonymous):
    assert upload(anonymous).status_code in (401, 403)


@pytest.mark.article("Art. 43")
def test_service_refuses_naive_times_with_a_field():
    from backend.api_errors import LawViolation

    naive = [Fix(datetime(2026, 3, 2, 10, 0), -21.13, -42.37, 5.0)]  # noqa: DTZ001 (refused: that is the point)
    with pytest.raises(LawViolation) as exc:
        services.recompute_trip(naive, Decimal("5.50"))
    assert exc.value.field == "trace"
    with pytest.raises(LawViolation):
        services.recompute_trip([], Decimal("5.50"))
