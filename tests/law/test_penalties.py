"""Penalties: Art. 54-60 and the procedure of Art. 63, §1-§5."""

from datetime import date, timedelta
from decimal import Decimal

import pytest

from taxilaw.appeal_judgment import (
    PENALTY_SEVERITY,
    inquiry_archive_reason,
    inquiry_trigger_holds,
    may_judge_partially,
    may_reduce,
    reduced_fine_range,
    refund_on_reduction,
    severity,
)
from taxilaw.due_process import (
    AppealInstance,
    appeal_deadline,
    defence_deadline,
    judgment_notice_deadline,
    may_appeal,
    may_complain,
    may_decide,
    may_dismiss_complaint,
    may_file_defence,
    may_notify,
    may_notify_judgment,
)
from taxilaw.parameters import DatedValue, Parameters, default_parameters
from taxilaw.penalties import (
    INFRACTION_CATALOGUE_SEED,
    FineGroup,
    PenaltyKind,
    PenaltyLine,
    PriorPenalty,
    assess_fine,
    base_fine,
    cumulate,
    group_fine,
    is_recidivism,
    may_impose,
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
def test_art_60_complaint_only_about_own_ride_a_cab_took():
    assert may_complain(own_ride=True, ride_completed=True)
    assert may_complain(own_ride=False, ride_completed=True).codes == ("complaint_not_own_ride",)
    refused = may_complain(own_ride=True, ride_completed=False)
    assert refused.codes == ("complaint_ride_not_completed",) and refused.articles == ("Art. 60",)
    # a refusal of service: a cab took the ride and gave it up; the record names the cab and the driver
    assert may_complain(own_ride=True, ride_completed=False, cab_abandoned=True)
    assert may_complain(own_ride=False, ride_completed=False, cab_abandoned=True).codes == ("complaint_not_own_ride",)
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
    # STF Súmula Vinculante 21: with the parameter at 0 no deposit is asked.
    assert may_appeal("comutram", notified_on=MONDAY, filed_on=MONDAY, against_fine=True, deposit_proved=False, deposit_required=False)


@pytest.mark.article("Art. 63, §4")
def test_art_63_par_4_judgment_notified_within_10_days():
    assert judgment_notice_deadline(MONDAY) == date(2026, 3, 12)
    assert may_notify_judgment(MONDAY, date(2026, 3, 12))
    late = may_notify_judgment(MONDAY, date(2026, 3, 13))  # late but valid: the 10 days bind the administration
    assert late and late.articles == ("Art. 63, §4",)
    assert not may_notify_judgment(MONDAY, MONDAY - timedelta(days=1))


# ------------------------------------------------- partial judgment of an appeal


def _line(code, kind, fine=None, starts_on=None, ends_on=None):
    return PenaltyLine(code, PenaltyKind(kind), fine, starts_on, ends_on)


@pytest.mark.article("Art. 63, §3", "Art. 54, a", "Art. 54, b", "Art. 54, c", "Art. 54, d")
def test_partial_judgment_only_lightens_the_penalty():
    assert [k.value for k in PENALTY_SEVERITY] == ["reprimand", "fine", "suspension", "revocation"]
    assert severity("reprimand") < severity("fine") < severity("suspension") < severity("revocation")
    spec = SPECS["seal_removed"]
    heavier = may_reduce(spec, _line("seal_removed", "fine", Decimal("140")), _line("seal_removed", "suspension", None, ON, ON), judged_on=ON)
    assert not heavier and heavier.codes == ("reduction_not_lighter",) and heavier.articles == ("Art. 63, §3",)
    for kind in ("reprimand", "revocation"):  # nothing lighter within these kinds: annul instead
        same = may_reduce(spec, _line("seal_removed", kind), _line("seal_removed", kind), judged_on=ON, involuntary=True)
        assert same.codes == ("reduction_not_lighter",)


@pytest.mark.article("Art. 55", "Art. 55, III", "Art. 59", "Art. 4, §2")
def test_reduced_fine_range_group_ceiling_floor_and_recidivism():
    params = default_parameters()
    assert reduced_fine_range(SPECS["tariff_not_charged"], ON, params) == (Decimal("70.00"), Decimal("210.00"))
    assert reduced_fine_range(SPECS["attire"], ON, params) == (Decimal("70.00"), Decimal("70.00"))
    prior = PriorPenalty("seal_removed", ON - timedelta(days=30), Decimal("100.00"))
    # recidivism: the ceiling is twice the previous fine as it stands now (Art. 59)
    assert reduced_fine_range(SPECS["seal_removed"], ON, params, [prior]) == (Decimal("70.00"), Decimal("200.00"))
    # a fine the law fixes in UFM has nothing below it (Art. 4, §2)
    assert reduced_fine_range(SPECS["alvara_not_renewed"], ON, params) == (Decimal("5.00"), Decimal("5.00"))


@pytest.mark.article("Art. 63, §3", "Art. 55")
def test_reduced_fine_must_be_lower_and_within_the_range():
    spec, current = SPECS["tariff_not_charged"], _line("tariff_not_charged", "fine", Decimal("210.00"))
    window = (Decimal("70.00"), Decimal("210.00"))
    ok = may_reduce(spec, current, _line("tariff_not_charged", "fine", Decimal("140.00")), judged_on=ON, fine_range=window)
    assert ok and {"Art. 63, §3", "Art. 55"} <= set(ok.articles)
    same = may_reduce(spec, current, _line("tariff_not_charged", "fine", Decimal("210.00")), judged_on=ON, fine_range=window)
    assert same.codes == ("reduction_not_lighter",)
    low = may_reduce(spec, current, _line("tariff_not_charged", "fine", Decimal("69.99")), judged_on=ON, fine_range=window)
    assert low.codes == ("reduced_fine_out_of_range",) and "Art. 55" in low.articles
    assert "R$ 70,00 e R$ 210,00" in low.reasons[0].message
    missing = may_reduce(spec, current, _line("tariff_not_charged", "fine"), judged_on=ON, fine_range=window)
    assert missing.codes == ("reduced_fine_missing",)
    # a suspension turned into a fine: the fine must stay within the range too
    suspension = _line("seal_removed", "suspension", None, ON, ON + timedelta(days=9))
    high = may_reduce(SPECS["seal_removed"], suspension, _line("seal_removed", "fine", Decimal("141")), judged_on=ON, fine_range=(Decimal("70"), Decimal("140")))
    assert high.codes == ("reduced_fine_out_of_range",)
    assert may_reduce(SPECS["seal_removed"], suspension, _line("seal_removed", "fine", Decimal("140")), judged_on=ON, fine_range=(Decimal("70"), Decimal("140")))


@pytest.mark.article("Art. 56", "Art. 63, §3")
def test_reduction_to_reprimand_needs_art_56():
    spec, current = SPECS["seal_removed"], _line("seal_removed", "fine", Decimal("140"))
    refused = may_reduce(spec, current, _line("seal_removed", "reprimand"), judged_on=ON)
    assert refused.codes == ("reprimand_not_allowed",) and "Art. 56" in refused.articles
    assert may_reduce(spec, current, _line("seal_removed", "reprimand"), judged_on=ON, involuntary=True)
    assert may_reduce(spec, current, _line("seal_removed", "reprimand"), judged_on=ON, serious_consequences=False)


@pytest.mark.article("Art. 54, b", "Art. 63, §3")
def test_shorter_suspension_keeps_its_start_and_ends_earlier():
    spec = SPECS["seal_removed"]
    current = _line("seal_removed", "suspension", None, ON, ON + timedelta(days=9))
    assert may_reduce(spec, current, _line("seal_removed", "suspension", None, None, ON + timedelta(days=2)), judged_on=ON + timedelta(days=5))
    assert may_reduce(spec, current, _line("seal_removed", "suspension", None, ON, ON), judged_on=ON)
    moved = may_reduce(spec, current, _line("seal_removed", "suspension", None, ON + timedelta(days=1), ON + timedelta(days=2)), judged_on=ON)
    assert moved.codes == ("reduced_suspension_period_invalid",)
    not_shorter = may_reduce(spec, current, _line("seal_removed", "suspension", None, ON, ON + timedelta(days=9)), judged_on=ON)
    assert not_shorter.codes == ("reduction_not_lighter",)
    before_start = may_reduce(spec, current, _line("seal_removed", "suspension", None, ON, ON - timedelta(days=1)), judged_on=ON)
    assert before_start.codes == ("reduced_suspension_period_invalid",)
    # a revocation turned into a suspension: from the judgment on (Art. 54, b)
    revocation = _line("rank_swap", "revocation")
    judged = ON + timedelta(days=20)
    assert may_reduce(SPECS["rank_swap"], revocation, _line("rank_swap", "suspension", None, judged, judged + timedelta(days=5)), judged_on=judged)
    early = may_reduce(SPECS["rank_swap"], revocation, _line("rank_swap", "suspension", None, ON, judged), judged_on=judged)
    assert early.codes == ("suspension_period_invalid",)


@pytest.mark.article("Art. 63, §3", "Art. 63, §5")
def test_partial_judgment_gives_reasons_and_refunds_the_difference():
    assert may_judge_partially("Multa reduzida: primeira infração.", 1)
    assert may_judge_partially(" ", 0).codes == ("partial_judgment_needs_reduction", "partial_judgment_needs_reasons")
    assert refund_on_reduction(Decimal("210.00"), Decimal("140.00")) == Decimal("70.00")
    assert refund_on_reduction(Decimal("210.00"), None) == Decimal("210.00")  # the fine became a reprimand
    assert refund_on_reduction(Decimal("100.00"), Decimal("140.00")) == Decimal("0.00")


@pytest.mark.article("Art. 10", "Art. 54, d", "Art. 63, §3")
def test_inquiry_loses_its_trigger_when_the_revocation_falls():
    assert inquiry_trigger_holds("revocation")
    assert not inquiry_trigger_holds(None)  # annulled
    assert not inquiry_trigger_holds(PenaltyKind.SUSPENSION)  # reduced
    annulled = inquiry_archive_reason(auto="0003/2026", appeal=7, instance="comutram", judged_on=ON, kind_after=None)
    assert annulled.code == "inquiry_trigger_annulled" and "recurso nº 7" in annulled.message and "02/03/2026" in annulled.message
    reduced = inquiry_archive_reason(auto="0003/2026", appeal=7, instance="mayor", judged_on=ON, kind_after="fine")
    assert reduced.code == "inquiry_trigger_reduced" and "“Multa”" in reduced.message and "Prefeito" in reduced.message


@pytest.mark.article("Art. 54, c")
def test_art_54_c_a_fine_in_force_is_paid_once_exactly_to_the_cent():
    from taxilaw.penalties import may_pay_fine

    assert may_pay_fine(True, Decimal("85.10"), Decimal("85.1"))
    assert may_pay_fine(False, Decimal("85.10"), Decimal("85.10")).codes == ("not_a_fine_in_force",)
    assert may_pay_fine(True, Decimal("0"), Decimal("85.10")).codes == ("fine_already_paid",)
    wrong = may_pay_fine(True, Decimal("85.10"), Decimal("80"))
    assert wrong.codes == ("wrong_amount",) and wrong.reasons[0].message == "O valor devido é R$ 85,10."


@pytest.mark.article("Art. 63, §1")
@pytest.mark.article("Art. 63")
def test_art_63_one_defence_while_the_auto_is_open_and_the_auto_is_judged_once():
    from taxilaw.due_process import auto_open_to_decide, defence_open

    assert defence_open(True, False)
    assert defence_open(False, False).codes == defence_open(True, True).codes == ("defence_not_open",)
    assert auto_open_to_decide(True) and auto_open_to_decide(False).codes == ("auto_already_decided",)


@pytest.mark.article("Art. 58")
def test_art_58_each_infraction_of_the_auto_gets_one_penalty():
    from taxilaw.due_process import one_penalty_per_infraction

    assert one_penalty_per_infraction([1, 2], [2, 1])
    for chosen in ([1], [1, 2, 2], [1, 3]):
        assert one_penalty_per_infraction([1, 2], chosen).codes == ("one_penalty_per_infraction",)


@pytest.mark.article("Art. 63, §2")
def test_art_63_par_2_a_decision_is_notified_once():
    from taxilaw.due_process import decision_not_yet_notified

    assert decision_not_yet_notified(None)
    again = decision_not_yet_notified(date(2026, 5, 4))
    assert again.codes == ("already_notified",) and "04/05/2026" in again.reasons[0].message
