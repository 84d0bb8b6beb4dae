"""Rank occupancy by hour of day (backend.indicators.rank_occupancy) on hand-counted check-ins (Art. 9, V;
Art. 27, §2): across a month's end in America/Sao_Paulo, an open check-in, and an empty period."""

from datetime import date

import pytest

from backend.indicators.periods import Period
from backend.indicators.rank_occupancy import rank_occupancy
from backend.ranks.models import Rank, RankCheckIn

from .indicator_fixtures import EMPTY, MONTH_END, local

pytestmark = pytest.mark.django_db
LATER = local(2026, 12, 1, 12, 0)


def make_rank(name, category="livre"):
    return Rank.objects.create(name=name, lon=-42.37, lat=-21.13, category=category, zone="peripheral")


def stand(permit, rank, came, left=None):
    return RankCheckIn.objects.create(permit=permit, rank=rank, checked_in_at=came, checked_out_at=left)


def month_end_checkins(working_cab):
    """Over 31/10-01/11 (2 days: 7,200 s of each hour of day): Ponto A holds a cab 23:30-00:30 across the month's
    end and a second one 23:45-23:55; Ponto B a cab from 23:50 on 30/10 to 00:20 on 31/10 (20 min inside) and one
    08:00-08:15 on 01/11; a check-in the day before is outside."""
    one, two = working_cab(), working_cab()
    a, b = make_rank("Ponto A"), make_rank("Ponto B")
    stand(one, a, local(2026, 10, 31, 23, 30), local(2026, 11, 1, 0, 30))
    stand(two, a, local(2026, 10, 31, 23, 45), local(2026, 10, 31, 23, 55))
    stand(one, b, local(2026, 10, 30, 23, 50), local(2026, 10, 31, 0, 20))
    stand(two, b, local(2026, 11, 1, 8, 0), local(2026, 11, 1, 8, 15))
    stand(two, b, local(2026, 10, 30, 10, 0), local(2026, 10, 30, 11, 0))
    return a, b


def hours(row, field="occupancy"):
    return {h["hour"]: h[field] for h in row["hours"] if h[field]}


@pytest.mark.article("Art. 9, V")
def test_occupancy_by_local_hour_across_a_months_end_art_9_v(working_cab):
    """Art. 9, V: 23:30 on 31/10 in Muriaé is 02:30 UTC on 01/11; it counts at 23h local, not at 2h."""
    month_end_checkins(working_cab)
    a, b = rank_occupancy(MONTH_END, now=LATER)
    assert (a["name"], b["name"]) == ("Ponto A", "Ponto B")  # busiest first
    assert hours(a) == {23: 0.25, 0: 0.25}  # 1,800 s of 7,200 at each (the union: the second cab adds no time)
    assert hours(a, "cabs") == {23: 0.333, 0: 0.25}  # 2,400 cab-seconds at 23h: two cabs for 10 min
    assert (a["occupancy"], a["cabs"]) == (0.021, 0.024)  # 3,600 and 4,200 s of 172,800
    assert hours(b) == {0: 0.167, 8: 0.125}  # 1,200 s (clipped at the period's start) and 900 s of 7,200
    assert b["occupancy"] == 0.012  # 2,100 / 172,800


@pytest.mark.article("Art. 27, §2")
def test_an_open_checkin_counts_up_to_now_and_the_future_is_unknown_art_27(working_cab):
    """Art. 27, §2: a cab still at the rank counts until now; the hours the period has not reached are None."""
    rank = make_rank("Ponto C", category="privativo")
    stand(working_cab(), rank, local(2026, 11, 1, 0, 0))
    [row] = rank_occupancy(Period(date(2026, 11, 1), date(2026, 11, 1)), now=local(2026, 11, 1, 0, 30))
    assert row["hours"][0] == {"hour": 0, "occupancy": 1.0, "cabs": 1.0}
    assert all(h["occupancy"] is None for h in row["hours"][1:])
    assert (row["occupancy"], row["cabs"]) == (1.0, 1.0)


@pytest.mark.article("Art. 9, V")
def test_an_empty_period_shows_every_rank_empty_art_9_v(working_cab):
    """Art. 9, V: no check-in in September: each active rank at 0 at every hour; no rank, no row."""
    assert rank_occupancy(EMPTY, now=LATER) == []
    month_end_checkins(working_cab)
    rows = rank_occupancy(EMPTY, now=LATER)
    assert [r["name"] for r in rows] == ["Ponto A", "Ponto B"]
    assert all(h["occupancy"] == 0 and h["cabs"] == 0 for r in rows for h in r["hours"])


def test_the_ranks_endpoint_is_for_dimutran(dimutran, working_cab, user_for):
    month_end_checkins(working_cab)
    body = dimutran.get("/api/indicators/ranks/", {"first": "2026-10-31", "last": "2026-11-01"}).json()
    assert body["labels"]["occupancy"].startswith("Ocupação") and body["rows"][0]["name"] == "Ponto A"
    assert len(body["rows"][0]["hours"]) == 24
    assert user_for(working_cab().holder).get("/api/indicators/ranks/").status_code == 403
