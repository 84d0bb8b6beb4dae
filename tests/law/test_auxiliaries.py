"""Auxiliaries: Art. 1, §5, Art. 1, §6, Art. 48, Art. 49, Art. 51."""

from datetime import date

import pytest

from taxilaw.auxiliaries import (
    check_registration_prerequisites,
    cmt_valid,
    may_add_auxiliary,
    quarterly_proof_required,
    social_security_due,
    social_security_status,
)
from taxilaw.parameters import default_parameters

PARAMS = default_parameters()


@pytest.mark.article("Art. 48")
def test_art_48_up_to_two_auxiliaries():
    assert may_add_auxiliary(0, co_owned=False)
    assert may_add_auxiliary(1, co_owned=False)
    refused = may_add_auxiliary(2, co_owned=False)
    assert not refused and refused.codes == ("too_many_auxiliaries",)


@pytest.mark.article("Art. 48", "Art. 14")
def test_art_48_one_auxiliary_for_co_owned_cab():
    assert may_add_auxiliary(0, co_owned=True)
    assert not may_add_auxiliary(1, co_owned=True)


@pytest.mark.article("Art. 49")
def test_art_49_registration_prerequisites():
    assert check_registration_prerequisites(True, True)
    refused = check_registration_prerequisites(False, False)
    assert refused.codes == ("not_enrolled_dimutran", "not_enrolled_social_security")


@pytest.mark.article("Art. 1, §5")
def test_art_1_par_5_first_proof_due_after_quarter_of_authorization():
    assert social_security_due(date(2026, 2, 10), None, PARAMS) == date(2026, 4, 30)
    assert social_security_status(date(2026, 2, 10), None, PARAMS, date(2026, 4, 30))
    refused = social_security_status(date(2026, 2, 10), None, PARAMS, date(2026, 5, 1))
    assert not refused and refused.codes == ("social_security_overdue",)


@pytest.mark.article("Art. 1, §5")
def test_art_1_par_5_next_quarter_after_last_proof():
    assert social_security_due(date(2025, 2, 10), date(2026, 3, 31), PARAMS) == date(2026, 7, 30)
    assert social_security_due(date(2025, 2, 10), date(2025, 12, 31), PARAMS) == date(2026, 4, 30)
    assert social_security_status(date(2025, 2, 10), date(2026, 3, 31), PARAMS, date(2026, 7, 30))
    assert not social_security_status(date(2025, 2, 10), date(2026, 3, 31), PARAMS, date(2026, 7, 31))
    with pytest.raises(ValueError):
        social_security_due(date(2025, 2, 10), date(2026, 3, 30), PARAMS)


@pytest.mark.article("Art. 1, §5", "Art. 1, §6")
def test_art_1_par_5_quarterly_proof_is_of_the_autonomous_auxiliary_only():
    # §5 asks the proof of a contribution "como autônomo": the §3 partner and the §6 contractor are autonomous;
    # the §6 employee under the CTPS contributes through the employer (docs/readings-registry.md).
    assert quarterly_proof_required("law") and quarterly_proof_required("contract")
    assert not quarterly_proof_required("ctps")
    assert quarterly_proof_required()  # no regime recorded: the partnership of §3


@pytest.mark.article("Art. 1, §5", "Art. 1, §6")
def test_art_1_par_6_ctps_employee_is_never_overdue():
    never_proved = social_security_status(date(2024, 2, 10), None, PARAMS, date(2026, 5, 1), regime="ctps")
    assert never_proved and never_proved.reasons == ()
    assert never_proved.articles == ("Art. 1, §5", "Art. 1, §6")
    old_proof = social_security_status(date(2024, 2, 10), date(2024, 3, 31), PARAMS, date(2026, 5, 1), "ctps")
    assert old_proof
    for regime in ("law", "contract"):
        refused = social_security_status(date(2026, 2, 10), None, PARAMS, date(2026, 5, 1), regime)
        assert not refused and refused.codes == ("social_security_overdue",)


@pytest.mark.article("Art. 51")
def test_art_51_cmt_validity():
    assert cmt_valid(date(2026, 6, 1), date(2026, 6, 1))
    assert cmt_valid(date(2026, 6, 1), date(2026, 6, 2)).codes == ("cmt_expired",)
    assert cmt_valid(None, date(2026, 6, 2)).codes == ("cmt_missing",)


@pytest.mark.article("Art. 48")
@pytest.mark.article("Art. 1, IV")
def test_art_48_only_an_active_permit_has_auxiliaries_and_art_1_iv_one_taxi_per_professional():
    from taxilaw.auxiliaries import may_authorize

    assert all(may_authorize(True, False, "Ana"))
    permit, person = may_authorize(False, True, "Ana")
    assert permit.codes == ("permit_not_active",) and permit.articles == ("Art. 48",)
    assert person.codes == ("already_driving",) and person.reasons[0].message.startswith("Ana já conduz")


@pytest.mark.article("Art. 1, §6")
def test_art_1_par_6_another_split_needs_the_contract():
    from taxilaw.auxiliaries import contract_named

    assert contract_named("Contrato 3/2026") and contract_named("").codes == ("contract_required",)


@pytest.mark.article("Art. 1, §5")
def test_art_1_par_5_a_proof_names_the_last_day_of_a_quarter():
    from taxilaw.auxiliaries import proof_for_a_quarter

    assert proof_for_a_quarter(date(2026, 6, 30)) and proof_for_a_quarter(date(2026, 6, 29)).codes == ("not_quarter_end",)


@pytest.mark.article("Art. 51")
def test_art_51_the_cmt_expires_after_it_is_issued():
    from taxilaw.auxiliaries import cmt_dates

    assert cmt_dates(date(2026, 1, 1), date(2027, 1, 1))
    assert cmt_dates(date(2026, 1, 1), date(2026, 1, 1)).codes == ("cmt_dates",)
