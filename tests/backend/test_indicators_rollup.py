"""The nightly rollup (backend.indicators.rollup): the page reads closed days from it and gets the same figures as
counting the rides live, across a month's end in America/Sao_Paulo, rolled or half rolled."""

from datetime import date

import pytest

from backend.indicators import money, service
from backend.indicators.models import RolledDay, ServiceBairroRollup, ServiceHourRollup
from backend.indicators.periods import Period
from backend.indicators.rollup import REBUILD_DAYS, days_to_roll_up, roll_up_day
from backend.scheduler.jobs import run_due
from backend.trips.models import Ride

from .indicator_fixtures import EMPTY, MONTH_END, local, month_end_rides

pytestmark = pytest.mark.django_db
WEEK = Period(date(2026, 10, 26), date(2026, 11, 1))


def everything() -> dict:
    return {
        **{grain: service.service(MONTH_END, grain) for grain in ("day", "week", "month", "hour")},
        "total": service.service_total(MONTH_END), "bairros": service.service_by_bairro(MONTH_END),
        "money": money.gross_by_week(WEEK), "empty": service.service(EMPTY, "day"),
    }


def test_rolled_up_days_give_the_live_figures_and_no_longer_read_the_rides():
    month_end_rides()
    live = everything()
    roll_up_day(date(2026, 10, 31), local(2026, 11, 1, 1, 30))  # half rolled: Saturday stored, Sunday live
    assert everything() == live
    roll_up_day(date(2026, 11, 1), local(2026, 11, 2, 1, 30))
    assert everything() == live
    # Ride A (23:30 on 31/10, 02:30 UTC on 01/11) is in Saturday's 23h row, with its bairro
    assert ServiceHourRollup.objects.filter(day=date(2026, 10, 31), hour=23, served=1).exists()
    assert ServiceBairroRollup.objects.filter(day=date(2026, 10, 31), bairro="Centro", requests=2, served=1).exists()
    Ride.objects.all().delete()
    assert everything() == live  # read from the rollup now


def test_rebuilding_a_day_counts_what_changed_since():
    rides = month_end_rides()
    roll_up_day(date(2026, 10, 31), local(2026, 11, 1, 1, 30))
    Ride.objects.filter(pk=rides["B"].pk).update(cancelled_by="operator")
    [saturday, _] = service.service(MONTH_END, "day")
    assert (saturday["cancelled_passenger"], saturday["cancelled_operator"]) == (1, 0)  # as rolled up
    roll_up_day(date(2026, 10, 31), local(2026, 11, 2, 1, 30))
    [saturday, _] = service.service(MONTH_END, "day")
    assert (saturday["cancelled_passenger"], saturday["cancelled_operator"]) == (0, 1)


def test_the_nightly_job_rolls_up_the_closed_days_from_0130():
    month_end_rides()
    assert run_due(local(2026, 11, 2, 1, 0), only={"indicators_rollup"}) == []
    [run] = run_due(local(2026, 11, 2, 1, 30), only={"indicators_rollup"})
    assert run.summary == "dias consolidados 365"  # a first run catches up the year
    assert RolledDay.objects.order_by("-day").first().day == date(2026, 11, 1)  # yesterday; never today
    assert not RolledDay.objects.filter(day=date(2026, 11, 2)).exists()
    again = days_to_roll_up(date(2026, 11, 3))
    assert len(again) == REBUILD_DAYS and again[-1] == date(2026, 11, 2)  # then only the recent days, rebuilt
