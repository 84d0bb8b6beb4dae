"""The service indicators (backend.indicators.service) on a hand-counted fixture: per day, week, month, hour and
bairro in America/Sao_Paulo, across a month's end, and over an empty period."""

from datetime import date

import pytest

from backend.indicators import service
from backend.indicators.periods import Period

from .indicator_fixtures import EMPTY, MONTH_END, month_end_rides

pytestmark = pytest.mark.django_db
ZEROS = {"requests": 0, "served": 0, "escalated": 0, "unanswered": 0, "cancelled_passenger": 0,
         "cancelled_operator": 0, "cancelled_driver": 0, "no_shows": 0, "offer_wait_s": None, "pickup_wait_s": None}


def test_per_day_a_late_saturday_ride_stays_in_october():
    month_end_rides()
    saturday, sunday = service.service(MONTH_END, "day")
    assert saturday == {**ZEROS, "key": date(2026, 10, 31), "requests": 2, "served": 1, "cancelled_passenger": 1,
                        "offer_wait_s": 30.0, "pickup_wait_s": 300.0}  # A and B: (20 + 40) / 2; A: 300
    assert sunday == {**ZEROS, "key": date(2026, 11, 1), "requests": 2, "escalated": 1, "unanswered": 1,
                      "cancelled_driver": 1, "no_shows": 1, "offer_wait_s": 30.0, "pickup_wait_s": 420.0}  # C and D


def test_per_month_and_per_week():
    month_end_rides()
    october, november = service.service(MONTH_END, "month")
    assert (october["key"], october["requests"], november["key"], november["requests"]) == (
        date(2026, 10, 1), 2, date(2026, 11, 1), 2)
    [week] = service.service(MONTH_END, "week")  # Monday 26/10 holds both days
    assert week == {**ZEROS, "key": date(2026, 10, 26), "requests": 4, "served": 1, "escalated": 1, "unanswered": 1,
                    "cancelled_passenger": 1, "cancelled_driver": 1, "no_shows": 1,
                    "offer_wait_s": 30.0, "pickup_wait_s": 360.0}  # (20 + 40 + 30) / 3; (300 + 420) / 2
    assert service.service_total(MONTH_END) == {k: v for k, v in week.items() if k != "key"}


def test_per_hour_of_day_in_local_time():
    month_end_rides()
    hours = {row["key"]: row["requests"] for row in service.service(MONTH_END, "hour")}
    assert len(hours) == 24
    assert {h: n for h, n in hours.items() if n} == {0: 1, 8: 1, 10: 1, 23: 1}


def test_per_bairro_of_the_pickup():
    month_end_rides()
    centro, gotardo = service.service_by_bairro(MONTH_END)
    assert {**centro} == {**ZEROS, "bairro": "Centro", "requests": 2, "served": 1, "cancelled_passenger": 1,
                          "offer_wait_s": 30.0, "pickup_wait_s": 300.0}
    assert {**gotardo} == {**ZEROS, "bairro": "São Gotardo", "requests": 2, "escalated": 1, "unanswered": 1,
                           "cancelled_driver": 1, "no_shows": 1, "offer_wait_s": 30.0, "pickup_wait_s": 420.0}


def test_an_empty_period_is_all_zeros_in_every_bucket():
    month_end_rides()
    days = service.service(EMPTY, "day")
    assert [row["key"] for row in days] == [date(2026, 9, 1), date(2026, 9, 2), date(2026, 9, 3)]
    assert all({k: v for k, v in row.items() if k != "key"} == ZEROS for row in days)
    assert service.service_total(EMPTY) == ZEROS
    assert service.service_by_bairro(EMPTY) == []
    assert [row["key"] for row in service.service(EMPTY, "month")] == [date(2026, 9, 1)]


def test_a_period_is_bounded_and_ordered():
    with pytest.raises(ValueError):
        Period(date(2026, 1, 2), date(2026, 1, 1))
    with pytest.raises(ValueError):
        Period(date(2025, 1, 1), date(2026, 1, 2))  # 367 days
    assert Period(date(2026, 10, 31), date(2026, 11, 1)).buckets("week") == [date(2026, 10, 26)]
