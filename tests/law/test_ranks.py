"""Ranks: Art. 9, V; Art. 22; Art. 23; Art. 26; Art. 27."""

from datetime import date, datetime, timedelta

import pytest

from taxilaw.rank_attendance import absence_revocation_due, check_rank_attendance
from taxilaw.ranks import (
    Observation,
    RankCategory,
    RankFacts,
    RankZone,
    check_rank_staffing,
    may_compete_for_vacancy,
    may_stand_at,
    may_swap,
    rank_is_open,
    staffing_proceedings_due,
    unauthorized_swap_sanction,
    visitor_limit,
    visitors_allowed,
)

ON = date(2026, 6, 15)
PRIVATE = RankFacts(RankCategory.PRIVATE, RankZone.CENTRAL, titular_count=8)
FREE = RankFacts(RankCategory.FREE, RankZone.PERIPHERAL)


# --- Art. 22 -------------------------------------------------------------------------------


@pytest.mark.article("Art. 22, II")
def test_free_rank_takes_any_taxi():
    d = may_stand_at(FREE, is_titular=False, on=ON, own_cabs_present=9, visitors_present=9)
    assert d.allowed and "Art. 22, II" in d.articles


@pytest.mark.article("Art. 22, I")
def test_private_rank_takes_its_own_cabs_and_refuses_visitors_beyond_the_rule():
    assert may_stand_at(PRIVATE, is_titular=True, on=ON, own_cabs_present=8).allowed
    refused = may_stand_at(PRIVATE, is_titular=False, on=ON, own_cabs_present=4)
    assert not refused.allowed and refused.codes == ("visitor_rank_provided",)


# --- Art. 23 -------------------------------------------------------------------------------


@pytest.mark.article("Art. 23")
def test_permanent_rank_is_open():
    assert rank_is_open(PRIVATE, ON).allowed


@pytest.mark.article("Art. 23, § único")
def test_temporary_free_rank_is_open_only_during_its_duration():
    fair = RankFacts(RankCategory.FREE, RankZone.PERIPHERAL, temporary=True,
                     opens_on=date(2026, 6, 10), closes_on=date(2026, 6, 20))
    assert rank_is_open(fair, date(2026, 6, 10)).allowed
    assert rank_is_open(fair, date(2026, 6, 20)).allowed
    closed = rank_is_open(fair, date(2026, 6, 21))
    assert not closed.allowed and closed.codes == ("temporary_rank_closed",)
    assert closed.reasons[0].article == "Art. 23, § único"
    assert not may_stand_at(fair, is_titular=False, on=date(2026, 6, 9)).allowed


@pytest.mark.article("Art. 23, § único")
def test_temporary_rank_needs_a_duration_and_must_be_free():
    no_duration = RankFacts(RankCategory.FREE, RankZone.CENTRAL, temporary=True, opens_on=ON)
    assert rank_is_open(no_duration, ON).codes == ("temporary_rank_without_duration",)
    private_tmp = RankFacts(RankCategory.PRIVATE, RankZone.CENTRAL, temporary=True, opens_on=ON, closes_on=ON)
    assert rank_is_open(private_tmp, ON).codes == ("temporary_rank_not_free",)


# --- Art. 26 -------------------------------------------------------------------------------


@pytest.mark.article("Art. 26, §3")
def test_swap_needs_more_than_two_years_for_both():
    since = date(2024, 6, 15)
    on_anniversary = may_swap(since, date(2020, 1, 1), authorized=True, on=date(2026, 6, 15))
    assert not on_anniversary.allowed and on_anniversary.codes == ("swap_tenure_too_short",)
    assert on_anniversary.reasons[0].params["first_day"] == date(2026, 6, 16)
    day_after = may_swap(since, date(2020, 1, 1), authorized=True, on=date(2026, 6, 16))
    assert day_after.allowed and "Art. 26, §3" in day_after.articles


@pytest.mark.article("Art. 26, §3")
def test_swap_refused_when_the_other_holder_is_new():
    d = may_swap(date(2015, 1, 1), date(2025, 12, 1), authorized=True, on=ON)
    assert not d.allowed and d.reasons[0].params["who"] == "B"


@pytest.mark.article("Art. 26, §3")
def test_swap_tenure_from_29_february_counts_to_1_march():
    assert not may_swap(date(2024, 2, 29), date(2020, 1, 1), True, date(2026, 3, 1)).allowed
    assert may_swap(date(2024, 2, 29), date(2020, 1, 1), True, date(2026, 3, 2)).allowed


@pytest.mark.article("Art. 26", "Art. 26, §1")
def test_unauthorized_swap_is_void_and_fined():
    d = may_swap(date(2015, 1, 1), date(2015, 1, 1), authorized=False, on=ON)
    assert not d.allowed and d.codes == ("swap_unauthorized",)
    assert "Art. 26, §1" in d.articles
    first = unauthorized_swap_sanction(previous_offences=0)
    assert first.void and first.fine and not first.revocation_possible
    assert unauthorized_swap_sanction(previous_offences=1).revocation_possible


@pytest.mark.article("Art. 26, §2")
def test_authorized_swap_between_any_zones_is_allowed():
    d = may_swap(date(2015, 1, 1), date(2016, 1, 1), authorized=True, on=ON)
    assert d.allowed and "Art. 26, §2" in d.articles


# --- Art. 27 -------------------------------------------------------------------------------


@pytest.mark.article("Art. 27")
def test_central_vacancy_is_a_promotion_for_permit_holders_only():
    assert may_compete_for_vacancy(RankZone.CENTRAL, holds_permit=True).allowed
    refused = may_compete_for_vacancy(RankZone.CENTRAL, holds_permit=False)
    assert not refused.allowed and refused.codes == ("promotion_contest_permit_holders_only",)
    assert may_compete_for_vacancy(RankZone.PERIPHERAL, holds_permit=False).articles == ("Art. 15",)


@pytest.mark.article("Art. 27, §3")
@pytest.mark.parametrize(
    "titulars,own,visitors,allowed,code",
    [
        (5, 0, 0, True, None),  # small rank, empty: 1 visitor
        (5, 1, 0, False, "visitor_small_rank_not_empty"),  # small rank with a cab: none
        (5, 0, 1, False, "visitor_small_rank_not_empty"),  # the single place is taken
        (0, 0, 0, True, None),  # no titulars: read as "up to 5"
        (6, 3, 1, True, None),  # 6-10: 2nd visitor, 3 own cabs present
        (10, 2, 2, False, "visitor_limit_reached"),  # 6-10: a 3rd visitor is too many
        (6, 4, 0, False, "visitor_rank_provided"),  # more than 3 own cabs: none
        (11, 3, 2, True, None),  # more than 10: 3rd visitor
        (11, 0, 3, False, "visitor_limit_reached"),  # more than 10: a 4th is too many
        (30, 4, 0, False, "visitor_rank_provided"),
    ],
)
def test_visitors(titulars, own, visitors, allowed, code):
    d = visitors_allowed(titulars, own, visitors)
    assert d.allowed is allowed
    assert "Art. 27, §3" in d.articles
    if code:
        assert d.codes == (code,)


@pytest.mark.article("Art. 27, §3")
def test_visitor_limit_bands():
    assert [visitor_limit(n) for n in (1, 5, 6, 10, 11, 40)] == [1, 1, 2, 2, 3, 3]
    with pytest.raises(ValueError):
        visitors_allowed(5, -1, 0)


def obs(day, hour, hours=3, empty=True, minutes=0):
    start = datetime(2026, 6, day, hour)
    return Observation(start, start + timedelta(hours=hours, minutes=minutes), empty)


@pytest.mark.article("Art. 27, §2")
def test_three_consecutive_empty_observations_of_3_hours_start_proceedings():
    records = [obs(1, 8), obs(2, 22), obs(4, 13)]
    d = check_rank_staffing(records)
    assert not d.allowed and d.codes == ("rank_unprovided",)
    assert staffing_proceedings_due(records)


@pytest.mark.article("Art. 27, §2")
def test_a_cab_found_in_between_breaks_the_run():
    records = [obs(1, 8), obs(2, 8), obs(3, 8, empty=False), obs(4, 8), obs(5, 8)]
    assert check_rank_staffing(records).allowed
    assert staffing_proceedings_due(records + [obs(6, 8)])


@pytest.mark.article("Art. 27, §2")
def test_short_or_overlapping_observations_do_not_count():
    short = [obs(1, 8), obs(2, 8, hours=2, minutes=59), obs(3, 8)]
    assert check_rank_staffing(short).allowed
    overlapping = [obs(1, 8), obs(1, 9), obs(1, 10)]
    assert check_rank_staffing(overlapping).allowed


# --- Art. 9, V -----------------------------------------------------------------------------


def days(*numbers, month=6):
    return [date(2026, month, n) for n in numbers]


ALL_JUNE = set(range(1, 31))


@pytest.mark.article("Art. 9, V")
def test_attendance_every_day_but_four_in_a_row_is_fine():
    checkins = days(*(ALL_JUNE - {10, 11, 12, 13}))
    assert check_rank_attendance(2026, 6, checkins).allowed


@pytest.mark.article("Art. 9, V")
def test_five_consecutive_days_away_is_ground_to_revoke():
    checkins = [datetime(2026, 6, n, 7, 30) for n in sorted(ALL_JUNE - {10, 11, 12, 13, 14})]
    d = check_rank_attendance(2026, 6, checkins)
    assert not d.allowed and d.codes == ("absent_from_rank",)
    assert absence_revocation_due(2026, 6, checkins)


@pytest.mark.article("Art. 9, V")
def test_ten_alternate_days_in_the_month_is_ground_to_revoke():
    away = {1, 3, 5, 7, 9, 11, 13, 15, 17, 19}  # 10 days, never two in a row
    assert not check_rank_attendance(2026, 6, days(*(ALL_JUNE - away))).allowed
    assert check_rank_attendance(2026, 6, days(*(ALL_JUNE - (away - {19})))).allowed  # 9 days: fine


@pytest.mark.article("Art. 9, V")
def test_force_majeure_days_are_excluded():
    checkins = days(*(ALL_JUNE - {10, 11, 12, 13, 14}))
    assert check_rank_attendance(2026, 6, checkins, justified_days=days(12)).allowed


@pytest.mark.article("Art. 9, V")
def test_month_in_progress_and_mid_month_assignment():
    # check-ins up to the 12th, counted until the 12th: nothing missing
    assert check_rank_attendance(2026, 6, days(*range(1, 13)), until=date(2026, 6, 12)).allowed
    # assigned on the 20th, attended from then on: the earlier days are not absences
    assert check_rank_attendance(2026, 6, days(*range(20, 31)), since=date(2026, 6, 20)).allowed
    assert not check_rank_attendance(2026, 6, days(*range(20, 31))).allowed
