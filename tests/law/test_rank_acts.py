"""Acts on ranks and contests the services ask the core about: Art. 9, V; Art. 16; Art. 19; Art. 21-23; Art. 25-27."""

from datetime import date, datetime, timedelta, timezone

import pytest

from taxilaw import contests, rank_acts
from taxilaw.ranks import RankCategory

T0 = datetime(2026, 6, 15, 8, tzinfo=timezone.utc)


@pytest.mark.article("Art. 23", "Art. 25")
def test_a_rank_is_located_inside_the_municipality():
    assert rank_acts.may_locate_rank(True, -21.13, -42.37)
    refused = rank_acts.may_locate_rank(False, -20.0, -40.0)
    assert refused.codes == ("rank_outside_municipality",) and "Art. 25" in refused.articles


@pytest.mark.article("Art. 23, § único")
def test_a_provisional_rank_is_free_with_a_duration_ending_after_it_starts():
    assert rank_acts.check_rank_shape(RankCategory.FREE, True, date(2026, 6, 1), date(2026, 6, 30))
    assert rank_acts.check_rank_shape(RankCategory.PRIVATE, False, None, None)
    assert rank_acts.check_rank_shape(RankCategory.FREE, True, date(2026, 6, 30), date(2026, 6, 1)).codes == ("temporary_rank_bad_duration",)
    assert rank_acts.check_rank_shape(RankCategory.PRIVATE, True, date(2026, 6, 1), date(2026, 6, 30)).codes == ("temporary_rank_not_free",)
    assert rank_acts.check_rank_shape(RankCategory.FREE, True, None, None).codes == ("temporary_rank_without_duration",)


@pytest.mark.article("Art. 22, I", "Art. 22, II")
def test_only_a_private_rank_has_titulars():
    assert rank_acts.may_designate(RankCategory.PRIVATE, "Praça")
    assert rank_acts.may_designate(RankCategory.FREE, "Rodoviária").codes == ("free_rank_no_titulars",)
    assert rank_acts.may_keep_titulars(RankCategory.FREE, False)
    assert rank_acts.may_keep_titulars(RankCategory.PRIVATE, True)
    assert rank_acts.may_keep_titulars(RankCategory.FREE, True).codes == ("free_rank_with_titulars",)


@pytest.mark.article("Art. 22", "Art. 23")
def test_an_active_permit_stands_at_one_open_rank_at_a_time():
    assert rank_acts.permit_may_act(True, "TX-1", "ativa", "Art. 22")
    refused = rank_acts.permit_may_act(False, "TX-1", "suspensa", "Art. 22")
    assert refused.codes == ("permit_not_active",) and "suspensa" in refused.reasons[0].message
    assert rank_acts.rank_in_operation(True, "Praça")
    assert rank_acts.rank_in_operation(False, "Praça").codes == ("rank_cancelled",)
    assert rank_acts.may_check_in(False, "TX-1")
    assert rank_acts.may_check_in(True, "TX-1").codes == ("already_checked_in",)
    assert rank_acts.may_check_out(False, T0, T0 + timedelta(minutes=5))
    assert rank_acts.may_check_out(True, T0, T0 + timedelta(minutes=5)).codes == ("already_checked_out",)
    assert rank_acts.may_check_out(False, T0, T0 - timedelta(minutes=5)).codes == ("checkout_before_checkin",)


@pytest.mark.article("Art. 27, §2")
def test_an_observation_ends_after_it_starts():
    assert rank_acts.may_record_observation(T0, T0 + timedelta(hours=3))
    assert rank_acts.may_record_observation(T0, T0 - timedelta(hours=1)).codes == ("observation_ends_before_start",)


@pytest.mark.article("Art. 26", "Art. 26, §2")
def test_a_swap_is_between_two_ranks_requested_once_and_decided_once():
    assert rank_acts.may_request_swap(False, True, False)
    assert rank_acts.may_request_swap(True, True, False).codes == ("swap_same_permit",)
    assert rank_acts.may_request_swap(False, False, False).codes == ("swap_needs_two_ranks",)
    assert rank_acts.may_request_swap(False, True, True).codes == ("swap_pending",)
    assert rank_acts.may_decide_swap(True, True)
    assert rank_acts.may_decide_swap(False).codes == ("swap_decided",)
    assert rank_acts.may_decide_swap(True, False).codes == ("swap_ranks_changed",)


@pytest.mark.article("Art. 9, V")
def test_force_majeure_is_stated_for_a_period_and_decided_once():
    assert rank_acts.may_file_justification(date(2026, 6, 1), date(2026, 6, 5), "internação")
    both = rank_acts.may_file_justification(date(2026, 6, 5), date(2026, 6, 1), "  ")
    assert both.codes == ("justification_ends_before_start", "justification_without_reason")
    assert rank_acts.may_decide_justification(True)
    assert rank_acts.may_decide_justification(False).codes == ("justification_decided",)


@pytest.mark.article("Art. 27")
def test_a_promotion_needs_an_active_permit():
    assert rank_acts.may_promote(True, "Ana")
    assert rank_acts.may_promote(False, "Ana").codes == ("promotion_winner_without_active_permit",)


@pytest.mark.article("Art. 16", "Art. 27")
def test_the_edital_names_each_rank_once_and_a_promotion_only_central_ranks():
    assert contests.check_edital([1, 2], False, ["Bairro"])
    assert contests.check_edital([], False, []).codes == ("edital_without_ranks",)
    assert contests.check_edital([1, 1], False, []).codes == ("edital_rank_twice",)
    assert contests.check_edital([1, 2], True, ["Bairro"]).codes == ("promotion_peripheral_rank",)


@pytest.mark.article("Art. 19")
def test_a_proposal_is_registered_once_while_open_for_ranks_of_the_edital():
    assert contests.may_register_proposal(True, False, False, "Ana")
    assert contests.may_register_proposal(False, False, False, "Ana").codes == ("contest_classified",)
    assert contests.may_register_proposal(True, True, True, "Ana").codes == ("preferred_rank_not_in_edital", "candidate_twice")


@pytest.mark.article("Art. 19", "Art. 21")
def test_the_result_is_published_once_after_classification_and_every_draw():
    day = date(2026, 8, 1)
    assert contests.may_publish_result("classified", day, day, [])
    assert contests.may_publish_result("published", day, day, []).codes == ("contest_not_classified",)
    assert contests.may_publish_result("granted", day, day, []).codes == ("result_already_published",)
    assert contests.may_publish_result("classified", day, day - timedelta(days=1), []).codes == ("result_before_contest",)
    assert contests.may_publish_result("classified", day, day, ["Ana", "Bia"]).codes == ("draw_pending",)


@pytest.mark.article("Art. 18, § único", "Art. 21")
def test_the_draw_orders_one_whole_tie_after_the_contest():
    day = date(2026, 8, 1)
    assert contests.may_record_draw(True, True, day, day)
    assert contests.may_record_draw(False, True, day, day).codes == ("draw_not_classified",)
    assert contests.may_record_draw(True, False, day, day - timedelta(days=1)).codes == ("draw_not_a_tie", "draw_before_contest")


@pytest.mark.article("Art. 9, V")
def test_a_check_in_carries_a_position_near_the_rank():
    assert rank_acts.may_check_in_at(150.0, 200)
    assert rank_acts.may_check_in_at(None, 200).codes == ("checkin_without_position",)
    far = rank_acts.may_check_in_at(1234.4, 200)
    assert far.codes == ("checkin_away_from_rank",) and "1234 m" in far.reasons[0].message


@pytest.mark.article("Art. 26, §3")
def test_art_26_par_3_a_swap_is_asked_for_only_after_two_years_of_both_holders():
    from taxilaw.rank_acts import may_request_swap_by_tenure

    on = date(2026, 12, 7)
    assert may_request_swap_by_tenure(date(2024, 1, 1), date(2023, 1, 1), on)
    refusal = may_request_swap_by_tenure(date(2024, 1, 1), date(2026, 1, 1), on)
    assert not refusal and "Art. 26" in refusal.articles and "swap_unauthorized" not in refusal.codes
