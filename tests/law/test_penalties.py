"""Penalties: Art. 54-60 and the procedure of Art. 63, §1-§5."""

from datetime import date, timedelta
from decimal import Decimal

import pytest

from taxilaw.parameters import DatedValue, Parameters, default_parameters
from taxilaw.penalties import (
    INFRACTION_CATALOGUE_SEED,
    AppealInstance,
    FineGroup,
    PenaltyKind,
    PenaltyLine,
    PriorPenalty,
    appeal_deadline,
    assess_fine,
    base_fine,
    cumulate,
    defence_deadline,
    group_fine,
    is_recidivism,
    judgment_notice_deadline,
    may_appeal,
    may_complain,
    may_decide,
    may_dismiss_complaint,
    may_file_defence,
    may_impose,
    may_notify,
    may_notify_judgment,
    suspension_period,
)

SPECS = {s.code: s for s in INFRACTION_CATALOGUE_SEED}
ON = date(2026, 3, 2)  # a Monday
MONDAY, WEDNESDAY = date(2026, 3, 2), date(2026, 3, 4)


@pytest.mark.article("Art. 54, a", "Art. 54, b", "Art. 54, c", "Art. 54, d")
def test_art_54_four_kinds_of_penalty():
    assert [k.article for k in PenaltyKind] == ["Art. 54, a", "Art. 54, b", "Art. 54, c", "Art. 54, d"]
    assert PenaltyKind("reprimand").label == "Repreensão por escrito"


@pytest.mark.article("Art. 55", "Art. 55, I", "Art. 55, II", "Art. 55, III")
def test_art_55_group_fines_are_dated_parameters():
    params = default_parameters()
    assert group_fine(FineGroup.A, ON, params) == Decimal("210.00")
    assert group_fine("B", ON, params) == Decimal("140.00")
    assert group_fine(FineGroup.C, ON, params) == Decimal("70.00")
    assert FineGroup.C.article == "Art. 55, III"
    # a decree changes the value from a date: the old value stays for older infractions
    changed = Parameters([*params.history("fine_group_c_brl"), DatedValue("fine_group_c_brl", date(2026, 6, 1), Decimal("90"), "Decreto X")])
    assert group_fine("C", date(2026, 5, 31), changed) == Decimal("70.00")
    assert group_fine("C", date(2026, 6, 1), changed) == Decimal("90.00")
    assert params.entry("fine_group_a_brl", ON).source == "Lei 1.242/1987, Art. 55 (redação da Lei 2.593/2002)"


@pytest.mark.article("Art. 4, §2", "Art. 64")
def test_art_4_par_2_fine_in_ufm_and_catalogue_seed():
    params = default_parameters()
    assert base_fine(SPECS["alvara_not_renewed"], ON, params) == Decimal("5.00")  # 1 UFM x R$ 5,00 (demo)
    assert base_fine(SPECS["seal_removed"], ON, params) == Decimal("140.00")
    articles = {s.article for s in INFRACTION_CATALOGUE_SEED}
    assert {"Art. 13, II", "Art. 45, §1", "Art. 45, §2", "Art. 37", "Art. 53", "Art. 26, §1", "Art. 4, §2"} <= articles


@pytest.mark.article("Art. 56")
def test_art_56_reprimand_only_if_involuntary_or_harmless():
    spec = SPECS["attire"]
    refused = may_impose("reprimand", spec, involuntary=False, serious_consequences=True)
    assert not refused and refused.codes == ("reprimand_not_allowed",) and "Art. 56" in refused.articles
    assert may_impose("reprimand", spec, involuntary=True)
    assert may_impose("reprimand", spec, serious_consequences=False)
    assert may_impose("fine", spec)


@pytest.mark.article("Art. 26, §1")
def test_art_26_par_1_rank_swap_revocation_only_for_recidivist():
    spec = SPECS["rank_swap"]
    refused = may_impose("revocation", spec, recidivist=False)
    assert not refused and refused.codes == ("revocation_needs_recidivism",)
    allowed = may_impose("revocation", spec, recidivist=True)
    assert allowed and "Art. 10" in allowed.articles


@pytest.mark.article("Art. 54, b")
def test_art_54_b_suspension_needs_a_valid_period():
    assert suspension_period(ON, ON + timedelta(days=9), ON)
    assert not suspension_period(ON, ON - timedelta(days=1), ON)
    assert not suspension_period(None, ON, ON)
    assert not suspension_period(ON - timedelta(days=1), ON, ON)


@pytest.mark.article("Art. 59, § único")
def test_art_59_recidivism_window_edge_90_and_91_days():
    first = date(2026, 1, 1)
    assert is_recidivism(first, first + timedelta(days=90))
    assert not is_recidivism(first, first + timedelta(days=91))
    prior = PriorPenalty("seal_removed", first, Decimal("140.00"))
    assert assess_fine("seal_removed", first + timedelta(days=90), Decimal("140.00"), [prior]).amount == Decimal("280.00")
    assert assess_fine("seal_removed", first + timedelta(days=91), Decimal("140.00"), [prior]).amount == Decimal("140.00")


@pytest.mark.article("Art. 59", "Art. 59, § único")
def test_art_59_progressive_fine_doubles_again_and_again_then_starts_over():
    base = Decimal("70.00")
    priors: list[PriorPenalty] = []
    day = date(2026, 1, 10)
    amounts = []
    for gap in (0, 30, 30, 30):
        day += timedelta(days=gap)
        fine = assess_fine("attire", day, base, priors)
        amounts.append(fine.amount)
        priors.append(PriorPenalty("attire", day, fine.amount))
    assert amounts == [Decimal("70.00"), Decimal("140.00"), Decimal("280.00"), Decimal("560.00")]
    later = assess_fine("attire", day + timedelta(days=120), base, priors)
    assert later.amount == base and not later.recidivist and "Art. 59" not in later.articles
    # a different infraction is not recidivism; nor a previous reprimand doubled from nothing
    assert assess_fine("seal_removed", day + timedelta(days=1), Decimal("140"), priors).amount == Decimal("140.00")
    after_reprimand = assess_fine("x", date(2026, 1, 2), base, [PriorPenalty("x", date(2026, 1, 1), None)])
    assert after_reprimand.amount == base and after_reprimand.recidivist


@pytest.mark.article("Art. 58", "Art. 57")
def test_art_58_simultaneous_infractions_cumulate_and_art_57_duty_persists():
    plan = cumulate([
        PenaltyLine("luggage_surcharge", PenaltyKind.FINE, Decimal("140.00")),
        PenaltyLine("return_surcharge", PenaltyKind.FINE, Decimal("140.00")),
        PenaltyLine("attire", PenaltyKind.REPRIMAND),
    ])
    assert plan.total_fine == Decimal("280.00") and len(plan.lines) == 3
    assert plan.duty_persists and {"Art. 57", "Art. 58"} <= set(plan.decision.articles)
    single = cumulate([PenaltyLine("attire", PenaltyKind.REPRIMAND)])
    assert "Art. 58" not in single.decision.articles and single.duty_persists


@pytest.mark.article("Art. 60", "Art. 60, § único")
def test_art_60_complaint_only_about_own_completed_ride():
    assert may_complain(own_ride=True, ride_completed=True)
    assert may_complain(own_ride=False, ride_completed=True).codes == ("complaint_not_own_ride",)
    refused = may_complain(own_ride=True, ride_completed=False)
    assert refused.codes == ("complaint_ride_not_completed",) and refused.articles == ("Art. 60",)
    assert not may_dismiss_complaint("  ") and may_dismiss_complaint("Sem indício de infração.")


@pytest.mark.article("Art. 63, §1", "Art. 62")
def test_art_63_par_1_defence_within_5_days_of_receipt():
    assert defence_deadline(WEDNESDAY) == date(2026, 3, 9)
    # 5 days from Monday fall on Saturday: the term runs to the next working day
    assert defence_deadline(MONDAY) == date(2026, 3, 9)
    assert may_file_defence(WEDNESDAY, date(2026, 3, 9))
    late = may_file_defence(WEDNESDAY, date(2026, 3, 10))
    assert not late and late.codes == ("defence_out_of_term",) and late.articles == ("Art. 63, §1",)
    assert may_file_defence(None, WEDNESDAY).codes == ("auto_copy_not_delivered",)


@pytest.mark.article("Art. 63", "Art. 63, §1")
def test_art_63_decision_waits_for_the_defence_term():
    assert not may_decide(WEDNESDAY, None, date(2026, 3, 9))
    assert may_decide(WEDNESDAY, None, date(2026, 3, 10))
    assert may_decide(WEDNESDAY, date(2026, 3, 5), date(2026, 3, 5))
    assert may_decide(None, None, date(2026, 3, 10)).codes == ("auto_copy_not_delivered",)


@pytest.mark.article("Art. 63, §2")
def test_art_63_par_2_notice_after_decision():
    assert may_notify(ON, ON) and not may_notify(ON, ON - timedelta(days=1))


@pytest.mark.article("Art. 63, §3")
def test_art_63_par_3_appeal_within_10_days_each_instance():
    assert appeal_deadline(MONDAY) == date(2026, 3, 12)
    for instance in AppealInstance:
        assert may_appeal(instance, notified_on=MONDAY, filed_on=date(2026, 3, 12), against_fine=False, deposit_proved=False)
        late = may_appeal(instance, notified_on=MONDAY, filed_on=date(2026, 3, 13), against_fine=False, deposit_proved=False)
        assert not late and late.codes == ("appeal_late",)
    # Wednesday + 10 = Saturday 14/03: runs to Monday 16/03
    assert appeal_deadline(WEDNESDAY) == date(2026, 3, 16)
    assert may_appeal("comutram", notified_on=WEDNESDAY, filed_on=date(2026, 3, 16), against_fine=False, deposit_proved=False)
    assert may_appeal("mayor", notified_on=None, filed_on=date(2026, 3, 16), against_fine=False, deposit_proved=False)


@pytest.mark.article("Art. 63, §5")
def test_art_63_par_5_fine_appeal_needs_prior_deposit():
    refused = may_appeal("comutram", notified_on=MONDAY, filed_on=MONDAY, against_fine=True, deposit_proved=False)
    assert refused.codes == ("appeal_needs_deposit",) and "Art. 63, §5" in refused.articles
    assert may_appeal("comutram", notified_on=MONDAY, filed_on=MONDAY, against_fine=True, deposit_proved=True)
    both = may_appeal("mayor", notified_on=MONDAY, filed_on=date(2026, 3, 20), against_fine=True, deposit_proved=False)
    assert both.codes == ("appeal_late", "appeal_needs_deposit")


@pytest.mark.article("Art. 63, §4")
def test_art_63_par_4_judgment_notified_within_10_days():
    assert judgment_notice_deadline(MONDAY) == date(2026, 3, 12)
    assert may_notify_judgment(MONDAY, date(2026, 3, 12))
    late = may_notify_judgment(MONDAY, date(2026, 3, 13))
    assert not late and late.codes == ("judgment_notice_out_of_term",) and late.articles == ("Art. 63, §4",)
    assert not may_notify_judgment(MONDAY, MONDAY - timedelta(days=1))
