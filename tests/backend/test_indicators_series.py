"""The page's time series over a long period: by local week (periods.series_grain), weeks crossing a month's end in
America/Sao_Paulo, the same figures from the nightly rollup, and the page drawing weeks (hand-counted fixture)."""

import re
from datetime import date, timedelta

import pytest
from django.contrib.auth import get_user_model

from backend.indicators import service
from backend.indicators.periods import DAILY_BARS_MAX_DAYS, Period, series_grain
from backend.indicators.rollup import roll_up_day
from backend.trips.models import Ride

from .indicator_fixtures import local, month_end_rides, ride

pytestmark = pytest.mark.django_db
FOUR_MONTHS = Period(date(2026, 8, 1), date(2026, 11, 30))  # Saturday to Monday, 122 days
ZEROS = {"requests": 0, "served": 0, "escalated": 0, "unanswered": 0, "cancelled_passenger": 0,
         "cancelled_operator": 0, "cancelled_driver": 0, "no_shows": 0, "offer_wait_s": None, "pickup_wait_s": None}
# Week of Monday 26/10: A, B, C, D and "before" (Friday 30/10 23:59); week of 02/11: "after" (Monday 00:05); week of
# 19/10: a Sunday 25/10 23:50 request, already Monday 26/10 02:50 in UTC.
WEEK_26_10 = {**ZEROS, "key": date(2026, 10, 26), "requests": 5, "served": 1, "escalated": 1, "unanswered": 1,
              "cancelled_passenger": 2, "cancelled_driver": 1, "no_shows": 1,
              "offer_wait_s": 30.0, "pickup_wait_s": 360.0}  # (20 + 40 + 30) / 3; (300 + 420) / 2


def sunday_night_ride():
    return ride(local(2026, 10, 25, 23, 50), status="cancelled", cancelled_by="passenger")


def test_a_quarter_is_drawn_by_day_and_a_longer_period_by_week():
    first = date(2026, 1, 1)
    assert series_grain(Period(first, first + timedelta(days=DAILY_BARS_MAX_DAYS - 1))) == "day"
    assert series_grain(Period(first, first + timedelta(days=DAILY_BARS_MAX_DAYS))) == "week"
    assert series_grain(Period(first, first)) == "day"


def test_weeks_cross_the_month_end_in_local_time():
    month_end_rides()
    sunday_night_ride()
    weeks = service.service(FOUR_MONTHS, "week")
    assert [w["key"] for w in weeks] == [date(2026, 7, 27) + timedelta(weeks=i) for i in range(19)]  # to Monday 30/11
    found = {w["key"]: w for w in weeks if w["requests"]}
    assert found == {date(2026, 10, 19): {**ZEROS, "key": date(2026, 10, 19), "requests": 1, "cancelled_passenger": 1},
                     date(2026, 10, 26): WEEK_26_10,
                     date(2026, 11, 2): {**ZEROS, "key": date(2026, 11, 2), "requests": 1, "cancelled_passenger": 1}}


def test_weeks_read_from_the_rollup_are_the_same():
    month_end_rides()
    sunday_night_ride()
    live = service.service(FOUR_MONTHS, "week")
    for day in (date(2026, 10, 25) + timedelta(days=i) for i in range(9)):  # 25/10 to 02/11: every ride's day
        roll_up_day(day, local(2026, 11, 3, 1, 30))
    Ride.objects.all().delete()  # what is left can only come from the rollup
    assert service.service(FOUR_MONTHS, "week") == live


def test_the_page_draws_a_long_period_by_week(client):
    client.force_login(get_user_model().objects.create_user("fiscal", password="x", is_staff=True))
    month_end_rides()
    sunday_night_ride()
    html = client.get("/dimutran/indicadores/", {"first": "2026-08-01", "last": "2026-11-30"}).content.decode()
    assert re.search(r'<svg id="chart-requests-day" class="chart" data-bars="3"', html)  # three weeks with requests
    assert "Pedidos por semana" in html and ">Por semana</h2>" in html and "sem. 26/10" in html
    assert "Pedidos por dia" not in html
    short = client.get("/dimutran/indicadores/", {"first": "2026-10-25", "last": "2026-11-02"}).content.decode()
    assert re.search(r'<svg id="chart-requests-day" class="chart" data-bars="5"', short)  # 25/10, 30/10, 31/10, 01/11, 02/11
    assert "Pedidos por dia" in short and ">Por dia</h2>" in short
