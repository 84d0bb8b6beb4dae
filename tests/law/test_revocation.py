"""Revocation: Art. 9, I-IX, Art. 10, §1-2, Art. 11 and § único."""

from datetime import date

import pytest

from taxilaw.permits import PermitStatus
from taxilaw.revocation import (
    RevocationGround,
    absence_from_rank,
    defence_deadline,
    judicial_loss_request_deadline,
    may_decide_revocation,
    may_substitute_after_judicial_loss,
    may_summon,
    revoke_permit,
)

NUMERALS = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"]


@pytest.mark.article(*(f"Art. 9, {n}" for n in NUMERALS))
def test_art_9_nine_grounds_with_labels():
    grounds = list(RevocationGround)
    assert [g.article for g in grounds[:9]] == [f"Art. 9, {n}" for n in NUMERALS]
    assert [g.article for g in grounds[9:]] == ["Art. 11, § único, I", "Art. 27, §2", "Art. 34, § único", "Art. 50"]
    assert all(g.label for g in grounds)
    assert RevocationGround("lock_out").label.startswith("Lock-out")


@pytest.mark.article("Art. 9, V")
def test_art_9_v_five_consecutive_days_absent():
    days = [date(2026, 5, d) for d in range(4, 9)]
    refused = absence_from_rank(days)
    assert not refused and refused.codes == ("absent_from_rank",)
    assert absence_from_rank(days[:4])
    assert absence_from_rank(days, justified_days={date(2026, 5, 6)})


@pytest.mark.article("Art. 9, V")
def test_art_9_v_ten_alternate_days_in_the_month():
    nine = [date(2026, 5, d) for d in range(1, 19, 2)]
    assert len(nine) == 9 and absence_from_rank(nine)
    assert not absence_from_rank(nine + [date(2026, 5, 31)])
    # 10 alternate days split across two months are not a ground
    assert absence_from_rank(nine + [date(2026, 6, 2)])


@pytest.mark.article("Art. 10, §1")
def test_art_10_par_1_defence_deadline_five_working_days():
    assert defence_deadline(date(2026, 4, 16)) == date(2026, 4, 24)
    assert defence_deadline(date(2026, 4, 16), {date(2026, 4, 22)}) == date(2026, 4, 27)


@pytest.mark.article("Art. 10, §1")
def test_art_10_par_1_no_decision_within_defence_term():
    refused = may_decide_revocation(date(2026, 4, 16), None, date(2026, 4, 24))
    assert not refused and refused.codes == ("defence_term_running",)


@pytest.mark.article("Art. 10, §1", "Art. 10, §2")
def test_art_10_decision_after_term_or_after_defence():
    after = may_decide_revocation(date(2026, 4, 16), None, date(2026, 4, 25))
    assert after and "Art. 10, §2" in after.articles
    assert may_decide_revocation(date(2026, 4, 16), date(2026, 4, 20), date(2026, 4, 20))
    assert not may_decide_revocation(date(2026, 4, 16), None, date(2026, 4, 27), holidays={date(2026, 4, 22)})


@pytest.mark.article("Art. 11", "Art. 10, §2", "Art. 9, § único")
def test_art_11_revoked_permit_returns_and_is_refilled_by_contest():
    outcome = revoke_permit(RevocationGround.LOCK_OUT, date(2026, 6, 1))
    assert outcome.status is PermitStatus.REVOKED
    assert outcome.refill_by_contest and not outcome.indemnity and outcome.permanent_bar
    assert {"Art. 9, VII", "Art. 11", "Art. 10, §2"} <= set(outcome.decision.articles)


@pytest.mark.article("Art. 11, § único, I")
def test_art_11_par_unico_i_request_on_day_30_not_31():
    final = date(2026, 3, 2)
    assert judicial_loss_request_deadline(final) == date(2026, 4, 1)
    assert may_substitute_after_judicial_loss(final, date(2026, 4, 1), proof_presented=True)
    refused = may_substitute_after_judicial_loss(final, date(2026, 4, 2), proof_presented=True)
    assert not refused and refused.codes == ("judicial_loss_request_late",)


@pytest.mark.article("Art. 11, § único, II")
def test_art_11_par_unico_ii_proof_required():
    refused = may_substitute_after_judicial_loss(date(2026, 3, 2), date(2026, 3, 10), proof_presented=False)
    assert not refused and refused.codes == ("judicial_loss_proof_missing",)


@pytest.mark.article("Art. 10, §1")
def test_art_10_par_1_summons_is_its_own_dated_act():
    opened, today = date(2026, 4, 10), date(2026, 4, 20)
    assert may_summon(opened, date(2026, 4, 16), None, today)
    assert may_summon(opened, opened, None, today)
    assert may_summon(opened, date(2026, 4, 9), None, today).codes == ("summons_before_opening",)
    assert may_summon(opened, date(2026, 4, 21), None, today).codes == ("summons_in_future",)
    assert may_summon(opened, date(2026, 4, 17), date(2026, 4, 16), today).codes == ("already_summoned",)


@pytest.mark.article("Art. 10", "Art. 10, §1")
def test_art_10_par_1_no_decision_before_the_summons():
    refused = may_decide_revocation(None, None, date(2027, 1, 1))
    assert not refused and refused.codes == ("inquiry_not_summoned",)
    # the defence itself, filed before any summons, opens the way (spontaneous appearance)
    assert may_decide_revocation(None, date(2026, 4, 20), date(2026, 4, 20))


@pytest.mark.article("Art. 9, § único")
def test_art_9_par_unico_the_bar_is_for_fault_and_not_perpetual():
    from taxilaw.revocation import revocation_bars

    revoked = date(2026, 3, 2)
    assert revocation_bars("breach_of_term", revoked, date(2031, 3, 1), 5)
    assert not revocation_bars("breach_of_term", revoked, date(2031, 3, 2), 5)  # CF art. 5, XLVII, b
    assert not revocation_bars("discretion", revoked, date(2026, 3, 3), 5)  # Art. 9, I: no fault, no bar
    assert revocation_bars(None, None, date(2040, 1, 1), 5)  # nothing recorded: the text's bar


@pytest.mark.article("Art. 10")
def test_art_10_an_inquiry_on_a_permit_in_force_decided_once():
    from taxilaw.revocation import inquiry_pending, may_open_inquiry

    assert may_open_inquiry(True) and may_open_inquiry(False).codes == ("permit_not_live",)
    assert inquiry_pending(True) and inquiry_pending(False).codes == ("inquiry_closed",)


@pytest.mark.article("Art. 10, §1")
def test_art_10_par_1_the_defence_comes_between_the_summons_and_its_deadline():
    from taxilaw.revocation import defence_in_term

    summoned, deadline = date(2026, 3, 2), date(2026, 3, 9)
    assert defence_in_term(True, summoned, deadline, summoned) and defence_in_term(True, summoned, deadline, deadline)
    for pending, filed in ((True, date(2026, 3, 10)), (True, date(2026, 3, 1)), (False, date(2026, 3, 3))):
        refusal = defence_in_term(pending, summoned, deadline, filed)
        assert refusal.codes == ("defence_out_of_term",) and "09/03/2026" in refusal.reasons[0].message
