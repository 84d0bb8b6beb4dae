"""Permits and alvarás: Art. 1, III, Art. 2-5, 7, 8, 9 § único, 14."""

from datetime import date
from decimal import Decimal

import pytest

from taxilaw.parameters import default_parameters
from taxilaw.permits import (
    RENEWAL_DOCUMENTS,
    CandidateFacts,
    PermitStatus,
    RenewalDocument,
    RenewalStatus,
    alvara_expiry,
    assess_renewal,
    check_renewal_documents,
    check_term_signature,
    extinguish_permit,
    issue_alvara,
    may_grant_permit,
    may_register_owners,
    term_signature_deadline,
    withdraw_permit,
)

PARAMS = default_parameters()
OK = CandidateFacts(is_autonomous_professional=True)


@pytest.mark.article("Art. 2", "Art. 1, III")
def test_art_2_grant_to_autonomous_professional():
    decision = may_grant_permit(OK, date(2026, 6, 1))
    assert decision and "Art. 2" in decision.articles


@pytest.mark.article("Art. 2", "Art. 1, III")
def test_art_2_refused_if_not_autonomous_professional():
    decision = may_grant_permit(CandidateFacts(is_autonomous_professional=False), date(2026, 6, 1))
    assert not decision and decision.codes == ("not_autonomous_professional",)


@pytest.mark.article("Art. 2, § único")
def test_art_2_par_unico_one_permit_per_professional():
    decision = may_grant_permit(CandidateFacts(True, holds_permit=True), date(2026, 6, 1))
    assert not decision and decision.codes == ("already_holds_permit",)
    assert decision.articles == ("Art. 2, § único",)


@pytest.mark.article("Art. 7")
def test_art_7_cedent_bar_two_years_edge():
    facts = CandidateFacts(True, last_ceded_permit_on=date(2024, 5, 10))
    assert not may_grant_permit(facts, date(2026, 5, 10))  # last day of the bar
    assert may_grant_permit(facts, date(2026, 5, 11))
    assert may_grant_permit(facts, date(2026, 5, 9)).codes == ("cedent_bar",)


@pytest.mark.article("Art. 9, § único")
def test_art_9_par_unico_permanent_bar_after_revocation():
    decision = may_grant_permit(CandidateFacts(True, had_permit_revoked=True), date(2046, 1, 1))
    assert not decision and decision.codes == ("revoked_before",)


@pytest.mark.article("Art. 2", "Art. 2, § único", "Art. 9, § único")
def test_every_reason_is_reported():
    facts = CandidateFacts(False, holds_permit=True, had_permit_revoked=True)
    assert may_grant_permit(facts, date(2026, 1, 1)).codes == ("not_autonomous_professional", "already_holds_permit", "revoked_before")


@pytest.mark.article("Art. 3, §1")
def test_art_3_par_1_term_signed_on_day_30_but_not_31():
    published = date(2026, 3, 2)
    assert term_signature_deadline(published) == date(2026, 4, 1)
    assert check_term_signature(published, date(2026, 4, 1))
    late = check_term_signature(published, date(2026, 4, 2))
    assert not late and late.codes == ("term_signature_late",)
    assert not check_term_signature(published, date(2026, 3, 1))


@pytest.mark.article("Art. 3, §1")
def test_art_3_par_1_deadline_on_weekend_runs_to_monday():
    published = date(2026, 3, 5)  # day 30 is Saturday 4 April
    assert term_signature_deadline(published) == date(2026, 4, 6)
    assert check_term_signature(published, date(2026, 4, 6))
    assert not check_term_signature(published, date(2026, 4, 7))


@pytest.mark.article("Art. 3, §2", "Art. 4")
def test_art_3_par_2_alvara_issued_on_signature_valid_one_year():
    alvara, decision = issue_alvara(date(2026, 3, 2), date(2026, 3, 10))
    assert decision and "Art. 3, §2" in decision.articles
    assert alvara.issued_on == date(2026, 3, 10)
    assert alvara.expires_on == date(2027, 3, 10)
    alvara, decision = issue_alvara(date(2026, 3, 2), date(2026, 4, 2))
    assert alvara is None and not decision


@pytest.mark.article("Art. 4")
def test_art_4_alvara_expiry():
    assert alvara_expiry(date(2026, 3, 10)) == date(2027, 3, 10)
    assert alvara_expiry(date(2024, 2, 29)) == date(2025, 3, 1)


EXPIRES = date(2026, 6, 15)


@pytest.mark.article("Art. 4, §1")
def test_art_4_par_1_renewal_early_before_expiry_month():
    result = assess_renewal(EXPIRES, date(2026, 5, 31), PARAMS)
    assert result.status is RenewalStatus.EARLY
    assert not result.decision and result.new_expiry is None and result.fine_brl == Decimal("0.00")


@pytest.mark.article("Art. 4, §1")
def test_art_4_par_1_renewal_on_time_in_expiry_month():
    for requested in (date(2026, 6, 1), EXPIRES):
        result = assess_renewal(EXPIRES, requested, PARAMS)
        assert result.status is RenewalStatus.ON_TIME
        assert result.decision and result.fine_brl == Decimal("0.00")
        assert result.new_expiry == date(2027, 6, 15)


@pytest.mark.article("Art. 4, §2")
def test_art_4_par_2_late_renewal_is_fined_one_ufm():
    result = assess_renewal(EXPIRES, date(2026, 6, 16), PARAMS)
    assert result.status is RenewalStatus.LATE
    assert result.decision and "Art. 4, §2" in result.decision.articles
    assert result.fine_brl == Decimal("5.00")  # 1 UFM x R$ 5,00 (demo value)
    assert result.new_expiry == date(2027, 6, 15)


@pytest.mark.article("Art. 4, §3")
def test_art_4_par_3_permit_extinct_after_regulation_term():
    # renewal_extinction_days = 60: 15 June + 60 = 14 August 2026 (a Friday)
    assert assess_renewal(EXPIRES, date(2026, 8, 14), PARAMS).status is RenewalStatus.LATE
    result = assess_renewal(EXPIRES, date(2026, 8, 15), PARAMS)
    assert result.status is RenewalStatus.EXTINCT
    assert not result.decision and result.decision.codes == ("permit_extinct",)
    assert result.new_expiry is None


@pytest.mark.article("Art. 5")
def test_art_5_all_renewal_documents_present():
    states = {d.code: True for d in RENEWAL_DOCUMENTS}
    assert [d.article for d in RENEWAL_DOCUMENTS] == ["Art. 5, I", "Art. 5, II", "Art. 5, III", "Art. 5, IV", "Art. 5, V"]
    assert check_renewal_documents(states)


@pytest.mark.article("Art. 5, III", "Art. 5, V")
def test_art_5_each_missing_document_is_a_reason():
    states = {d.code: True for d in RENEWAL_DOCUMENTS}
    states["issqn_paid"] = False
    del states["no_fine_debt"]
    decision = check_renewal_documents(states)
    assert not decision
    assert decision.codes == ("missing_issqn_paid", "missing_no_fine_debt")
    assert "Art. 5, III" in decision.articles and "Art. 5, V" in decision.articles
    with pytest.raises(ValueError):
        check_renewal_documents({"typo": True})


@pytest.mark.article("Art. 5")
def test_art_5_new_requirements_can_be_added():
    extra = (RenewalDocument("criminal_record", "Art. 5", "Certidão de antecedentes"),)
    states = {d.code: True for d in RENEWAL_DOCUMENTS}
    assert not check_renewal_documents(states, extra)
    assert check_renewal_documents({**states, "criminal_record": True}, extra)


@pytest.mark.article("Art. 14")
def test_art_14_co_ownership():
    assert may_register_owners(1, grandfathered=False)
    assert may_register_owners(2, grandfathered=True)
    refused = may_register_owners(2, grandfathered=False)
    assert not refused and refused.codes == ("co_ownership_forbidden",)
    with pytest.raises(ValueError):
        may_register_owners(0, False)


@pytest.mark.article("Art. 8")
def test_art_8_withdrawal_returns_permit_to_municipality():
    outcome = withdraw_permit(date(2026, 6, 1))
    assert outcome.status is PermitStatus.WITHDRAWN
    assert outcome.refill_by_contest and not outcome.permanent_bar and not outcome.indemnity
    assert "Art. 8" in outcome.decision.articles


@pytest.mark.article("Art. 4, §3")
def test_art_4_par_3_extinction_returns_permit():
    outcome = extinguish_permit(date(2026, 8, 15))
    assert outcome.status is PermitStatus.EXTINCT and outcome.refill_by_contest


@pytest.mark.article("Art. 49")
def test_art_49_grant_needs_prior_social_security_enrolment():
    assert may_grant_permit(CandidateFacts(True, social_security_registered=True), date(2026, 6, 1))
    refused = may_grant_permit(CandidateFacts(True, social_security_registered=False), date(2026, 6, 1))
    assert refused.codes == ("not_social_security_registered",) and "Art. 49" in refused.articles


@pytest.mark.article("Art. 5, I", "Art. 9, IV")
def test_art_5_i_and_9_iv_grant_needs_a_cnh_in_force():
    assert may_grant_permit(CandidateFacts(True, cnh_expires_on=date(2026, 6, 1)), date(2026, 6, 1))
    refused = may_grant_permit(CandidateFacts(True, cnh_expires_on=date(2026, 5, 31)), date(2026, 6, 1))
    assert refused.codes == ("cnh_expired",) and "Art. 9, IV" in refused.articles and "31/05/2026" in refused.reasons[0].message


@pytest.mark.article("Art. 4, §1")
def test_art_4_par_1_renewal_window_follows_the_regulations_escala():
    from taxilaw.parameters import DEFAULT_PARAMETERS, DatedValue, Parameters

    # a regulation from 1 May 2026 opens the window two months before the expiry month's end
    two_months = Parameters((*DEFAULT_PARAMETERS,
                             DatedValue("renewal_window_months", date(2026, 5, 1), 2, "decree (test)")))
    assert assess_renewal(EXPIRES, date(2026, 5, 1), two_months).status is RenewalStatus.ON_TIME
    early = assess_renewal(EXPIRES, date(2026, 4, 30), two_months)
    assert early.status is RenewalStatus.EARLY and early.decision.codes == ("renewal_early",)
    # an alvará expiring before that decree keeps the old escala (the month of expiry)
    assert assess_renewal(date(2026, 4, 20), date(2026, 3, 31), two_months).status is RenewalStatus.EARLY


@pytest.mark.article("Art. 8")
def test_art_8_a_permit_whose_status_forbids_the_act_is_refused_naming_it():
    from taxilaw.permits import permit_in_status_for

    refusal = permit_in_status_for("Art. 8", "TX-2026-3", "revogada")
    assert refusal.articles == ("Art. 8",) and refusal.codes == ("permit_status",)
    assert refusal.reasons[0].message == "A permissão TX-2026-3 está na situação “revogada”; a operação não é possível."
