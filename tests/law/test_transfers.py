"""Transfers: Art. 6, I-IV, Art. 6, §1-5, Art. 65."""

from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest

from taxilaw.parameters import default_parameters
from taxilaw.transfers import (
    Beneficiary,
    TransferFacts,
    TransferKind,
    VehicleType,
    death_request_deadline,
    is_fee_exempt,
    may_issue_alvara_after_transfer,
    may_transfer,
    transfer_fee,
    transferable_from,
    transitional_window_closes,
    transitional_window_open,
)

PARAMS = default_parameters()
ON = date(2026, 6, 1)

INTER_VIVOS = TransferFacts(
    kind=TransferKind.INTER_VIVOS,
    permit_granted_on=date(2020, 1, 10),
    transferee_is_autonomous_professional=True,
    transferee_is_permit_holder=False,
    transferee_vehicle_model_year=2025,
)


@pytest.mark.article("Art. 6, I")
def test_art_6_i_inter_vivos_allowed():
    decision = may_transfer(INTER_VIVOS, ON)
    assert decision, decision.reasons
    assert "Art. 6, I" in decision.articles


@pytest.mark.article("Art. 6, I", "Art. 28, § único")
def test_art_6_i_vehicle_two_years_edge_31_december():
    facts = replace(INTER_VIVOS, transferee_vehicle_model_year=2024)
    assert may_transfer(facts, date(2026, 12, 30))  # 2 years
    refused = may_transfer(facts, date(2026, 12, 31))  # completes 3 years
    assert not refused and refused.codes == ("transfer_vehicle_too_old",)


@pytest.mark.article("Art. 6, I")
def test_art_6_i_transferee_must_not_be_permit_holder():
    refused = may_transfer(replace(INTER_VIVOS, transferee_is_permit_holder=True), ON)
    assert not refused and "already_holds_permit" in refused.codes


@pytest.mark.article("Art. 6", "Art. 2")
def test_art_6_transferee_must_be_autonomous_professional():
    refused = may_transfer(replace(INTER_VIVOS, transferee_is_autonomous_professional=False), ON)
    assert refused.codes == ("not_autonomous_professional",)


@pytest.mark.article("Art. 6", "Art. 7", "Art. 9, § único")
def test_art_6_transferee_barred():
    assert may_transfer(replace(INTER_VIVOS, transferee_had_permit_revoked=True), ON).codes == ("revoked_before",)
    assert may_transfer(replace(INTER_VIVOS, transferee_last_ceded_permit_on=date(2025, 1, 1)), ON).codes == ("cedent_bar",)


@pytest.mark.article("Art. 6, I")
def test_art_6_i_new_permit_non_transferable_for_two_years():
    facts = replace(INTER_VIVOS, last_transferred_on=date(2025, 3, 1), transferee_vehicle_model_year=2027)
    refused = may_transfer(facts, date(2027, 3, 1))
    assert not refused and refused.codes == ("transfer_within_two_years",)
    assert refused.reasons[0].article == "Art. 6, I"
    assert may_transfer(facts, date(2027, 3, 2))


@pytest.mark.article("Art. 6, §1")
def test_art_6_par_1_post_law_permit_transferable_after_two_years():
    facts = replace(INTER_VIVOS, permit_granted_on=date(2025, 6, 1), transferee_vehicle_model_year=2026)
    refused = may_transfer(facts, date(2027, 6, 1))
    assert not refused and refused.reasons[0].article == "Art. 6, §1"
    assert may_transfer(facts, date(2027, 6, 2))
    assert transferable_from(date(2025, 6, 1), None) == date(2027, 6, 2)
    assert transferable_from(date(1985, 6, 1), None) is None


DEATH = replace(
    INTER_VIVOS,
    kind=TransferKind.DEATH,
    permit_granted_on=date(2025, 9, 1),  # less than 2 years: no bar for Art. 6, II
    transferee_vehicle_model_year=2019,  # more than 2 years: only Art. 28 applies
    death_date=date(2026, 3, 2),
    requested_on=date(2026, 6, 30),
    beneficiary=Beneficiary.SPOUSE,
    per_partition_or_court_order=True,
)


@pytest.mark.article("Art. 6, II")
def test_art_6_ii_death_request_on_day_120():
    assert death_request_deadline(date(2026, 3, 2)) == date(2026, 6, 30)
    decision = may_transfer(DEATH, ON)
    assert decision, decision.reasons
    assert "Art. 6, II" in decision.articles


@pytest.mark.article("Art. 6, II")
def test_art_6_ii_death_request_on_day_121_refused():
    refused = may_transfer(replace(DEATH, requested_on=date(2026, 7, 1)), ON)
    assert not refused and refused.codes == ("death_request_late",)


@pytest.mark.article("Art. 6, II")
def test_art_6_ii_third_party_needs_partition_and_no_permit():
    facts = replace(DEATH, beneficiary=Beneficiary.THIRD_PARTY, per_partition_or_court_order=False, transferee_is_permit_holder=True)
    assert set(may_transfer(facts, ON).codes) == {"partition_missing", "already_holds_permit"}
    assert not may_transfer(replace(DEATH, beneficiary=None), ON)
    assert not may_transfer(replace(DEATH, death_date=None), ON)


@pytest.mark.article("Art. 6, II", "Art. 28")
def test_art_6_ii_vehicle_still_limited_to_ten_years():
    refused = may_transfer(replace(DEATH, transferee_vehicle_model_year=2015), ON)
    assert refused.codes == ("vehicle_too_old",)


@pytest.mark.article("Art. 6, III")
def test_art_6_iii_incapacity():
    facts = replace(DEATH, kind=TransferKind.INCAPACITY, death_date=None, beneficiary=None, incapacity_proven=True)
    assert may_transfer(facts, ON)
    assert may_transfer(replace(facts, incapacity_proven=False), ON).codes == ("incapacity_not_proven",)


@pytest.mark.article("Art. 6, IV")
def test_art_6_iv_retirement_within_two_years():
    facts = replace(DEATH, kind=TransferKind.RETIREMENT, death_date=None, beneficiary=None, retirement_proven=True)
    assert may_transfer(facts, ON)
    assert may_transfer(replace(facts, retirement_proven=False), ON).codes == ("retirement_not_proven",)


TRANSITIONAL = replace(
    INTER_VIVOS,
    kind=TransferKind.TRANSITIONAL,
    permit_granted_on=date(1980, 5, 1),
    transferee_vehicle_model_year=1983,
    transferee_acquires_cedent_vehicle=True,
)


@pytest.mark.article("Art. 65")
def test_art_65_transitional_window_last_day():
    assert transitional_window_closes() == date(1990, 12, 28)
    assert may_transfer(TRANSITIONAL, date(1990, 12, 28))  # vehicle of 7 years: Art. 6, I limit lifted


@pytest.mark.article("Art. 65")
def test_art_65_transitional_window_closed():
    assert may_transfer(TRANSITIONAL, date(1990, 12, 29)).codes == ("transitional_window_closed",)
    assert not transitional_window_open(date(2026, 6, 1))
    assert transitional_window_open(date(1988, 1, 1))
    refused = may_transfer(replace(TRANSITIONAL, transferee_acquires_cedent_vehicle=False, permit_granted_on=date(1988, 1, 1)), date(1989, 1, 1))
    assert set(refused.codes) == {"transitional_vehicle_not_acquired", "transitional_not_pre_law", "transfer_within_two_years"}


@pytest.mark.article("Art. 6, §3, a", "Art. 6, §3, b", "Art. 6, §3, c")
def test_art_6_par_3_fee_by_vehicle_type():
    assert transfer_fee(TransferKind.INTER_VIVOS, None, VehicleType.TAXI, PARAMS, ON) == Decimal("50.00")
    assert transfer_fee(TransferKind.INTER_VIVOS, None, VehicleType.BUS, PARAMS, ON) == Decimal("250.00")
    assert transfer_fee(TransferKind.INTER_VIVOS, None, VehicleType.MINIBUS, PARAMS, ON) == Decimal("100.00")


@pytest.mark.article("Art. 6, §4")
def test_art_6_par_4_death_exempt_unless_third_party():
    assert transfer_fee(TransferKind.DEATH, Beneficiary.SPOUSE, VehicleType.TAXI, PARAMS, ON) == Decimal("0.00")
    assert transfer_fee(TransferKind.DEATH, Beneficiary.HEIR, VehicleType.TAXI, PARAMS, ON) == Decimal("0.00")
    assert transfer_fee(TransferKind.DEATH, Beneficiary.THIRD_PARTY, VehicleType.TAXI, PARAMS, ON) == Decimal("50.00")
    assert transfer_fee(TransferKind.INCAPACITY, None, VehicleType.TAXI, PARAMS, ON) == Decimal("50.00")
    assert is_fee_exempt(TransferKind.DEATH, Beneficiary.HEIR)
    assert not is_fee_exempt(TransferKind.DEATH, Beneficiary.THIRD_PARTY)


@pytest.mark.article("Art. 6, §5")
def test_art_6_par_5_alvara_only_after_fee():
    assert may_issue_alvara_after_transfer(fee_paid=True)
    assert may_issue_alvara_after_transfer(fee_paid=False, exempt=True)
    refused = may_issue_alvara_after_transfer(fee_paid=False)
    assert not refused and refused.codes == ("transfer_fee_unpaid",)


@pytest.mark.article("Art. 6")
def test_art_6_transfers_off_when_the_dated_parameter_says_so():
    from taxilaw.parameters import default_parameters
    from taxilaw.transfers import transfers_in_force

    params = default_parameters()
    assert params.as_of("permit_transfers_allowed", date(2021, 3, 10)) == 1
    assert params.as_of("permit_transfers_allowed", date(2021, 3, 11)) == 0
    assert transfers_in_force(True) and transfers_in_force(False).codes == ("transfers_struck_down",)


@pytest.mark.article("Art. 6")
def test_art_6_only_an_active_permit_is_transferred_and_to_another_person():
    from taxilaw.transfers import may_request_transfer

    assert all(may_request_transfer(True, False))
    permit, transferee = may_request_transfer(False, True)
    assert permit.codes == ("permit_not_active",) and transferee.codes == ("same_person",)
    assert transferee.articles == ("Art. 6",)


@pytest.mark.article("Art. 6, §5")
def test_art_6_par_5_the_fee_is_paid_once_on_a_transfer_awaiting_it():
    from taxilaw.transfers import may_pay_fee

    assert may_pay_fee(True)
    assert may_pay_fee(False).codes == ("transfer_closed",)
