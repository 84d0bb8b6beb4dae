"""Vehicles: Art. 28 and § único, Art. 34, Art. 35-38, Art. 40."""

from datetime import date
from decimal import Decimal

import pytest

from taxilaw.parameters import default_parameters
from taxilaw.vehicles import (
    InspectionResult,
    ToleranceCase,
    check_inspection_fee,
    inspection_due,
    inspection_fee,
    inspection_fee_due,
    inspection_status,
    may_admit_vehicle,
    may_grant_tolerance,
    may_remove_seal,
    may_replace_vehicle,
    tolerance_ends,
    vehicle_age,
    within_replacement_tolerance,
)

PARAMS = default_parameters()


@pytest.mark.article("Art. 28, § único")
def test_art_28_par_unico_first_year_on_31_december_of_model_year():
    assert vehicle_age(2020, date(2020, 12, 30)) == 0
    assert vehicle_age(2020, date(2020, 12, 31)) == 1
    assert vehicle_age(2020, date(2021, 6, 1)) == 1
    assert vehicle_age(2020, date(2021, 12, 31)) == 2
    assert vehicle_age(2021, date(2020, 10, 1)) == 0  # next year's model sold early


@pytest.mark.article("Art. 28", "Art. 28, § único")
def test_art_28_at_most_ten_years_edge_31_december():
    assert may_admit_vehicle(2016, date(2026, 12, 30))
    refused = may_admit_vehicle(2016, date(2026, 12, 31))
    assert not refused and refused.codes == ("vehicle_too_old",)
    assert "11" in refused.reasons[0].message


@pytest.mark.article("Art. 34, I")
def test_art_34_i_same_or_later_model_year():
    assert may_replace_vehicle(2020, 2020, False, None, date(2026, 6, 1))
    assert may_replace_vehicle(2020, 2024, False, None, date(2026, 6, 1))


@pytest.mark.article("Art. 34, II")
def test_art_34_ii_earlier_model_needs_justification():
    refused = may_replace_vehicle(2025, 2024, False, None, date(2026, 6, 1))
    assert not refused and refused.codes == ("replacement_not_justified",)


@pytest.mark.article("Art. 34, II, a")
def test_art_34_ii_a_contest_holder_not_before_contest_year():
    assert may_replace_vehicle(2024, 2022, True, 2022, date(2026, 6, 1))
    refused = may_replace_vehicle(2024, 2021, True, 2022, date(2026, 6, 1))
    assert refused.codes == ("replacement_before_contest_year",)


@pytest.mark.article("Art. 34, II, b")
def test_art_34_ii_b_non_contest_at_most_three_years_before_swap_year():
    assert may_replace_vehicle(2025, 2023, True, None, date(2026, 6, 1))
    refused = may_replace_vehicle(2025, 2022, True, None, date(2026, 6, 1))
    assert refused.codes == ("replacement_too_old",)


@pytest.mark.article("Art. 34, I", "Art. 28")
def test_art_34_new_vehicle_must_meet_art_28():
    refused = may_replace_vehicle(2014, 2015, False, None, date(2026, 6, 1))
    assert refused.codes == ("vehicle_too_old",)


@pytest.mark.article("Art. 34, § único")
def test_art_34_par_unico_one_month_not_operating_three_months_stand_in():
    assert tolerance_ends(date(2026, 1, 31), ToleranceCase.NOT_OPERATING) == date(2026, 3, 1)
    assert tolerance_ends(date(2026, 1, 15), ToleranceCase.PROVISIONAL_VEHICLE) == date(2026, 4, 15)
    assert within_replacement_tolerance(date(2026, 1, 15), ToleranceCase.PROVISIONAL_VEHICLE, date(2026, 4, 15))
    assert not within_replacement_tolerance(date(2026, 1, 15), ToleranceCase.PROVISIONAL_VEHICLE, date(2026, 4, 16))
    refused = within_replacement_tolerance(date(2026, 1, 15), ToleranceCase.NOT_OPERATING, date(2026, 2, 16))
    assert refused.codes == ("replacement_tolerance_over",)


@pytest.mark.article("Art. 34, § único")
def test_art_34_par_unico_one_tolerance_at_a_time_never_ahead_of_today():
    today = date(2026, 6, 10)
    assert may_grant_tolerance(today, None, today)
    assert may_grant_tolerance(date(2026, 6, 1), date(2026, 5, 31), today)  # the earlier one has ended
    running = may_grant_tolerance(today, date(2026, 6, 10), today)
    assert running.codes == ("tolerance_running",) and "10/06/2026" in running.reasons[0].render()
    assert may_grant_tolerance(date(2026, 6, 11), None, today).codes == ("date_in_future",)


@pytest.mark.article("Art. 35")
def test_art_35_annual_inspection_due_and_overdue():
    assert inspection_due(date(2025, 5, 10)) == date(2026, 5, 10)
    assert inspection_status(InspectionResult.PASSED, date(2025, 5, 10), date(2026, 5, 10))
    assert inspection_status(InspectionResult.PASSED, date(2025, 5, 10), date(2026, 5, 11)).codes == ("inspection_overdue",)
    assert inspection_status(None, None, date(2026, 5, 11)).codes == ("inspection_missing",)


@pytest.mark.article("Art. 38")
def test_art_38_failed_inspection_blocks_until_new_one():
    refused = inspection_status(InspectionResult.FAILED, date(2026, 5, 10), date(2026, 5, 11))
    assert not refused and refused.codes == ("inspection_failed",)
    assert inspection_status(InspectionResult.PASSED, date(2026, 5, 20), date(2026, 5, 21))


@pytest.mark.article("Art. 37")
def test_art_37_seal_stays_until_next_inspection():
    assert not may_remove_seal(next_inspection_held=False)
    assert may_remove_seal(next_inspection_held=True)


@pytest.mark.article("Art. 40")
def test_art_40_fee_0_30_upfm():
    assert inspection_fee(PARAMS, date(2026, 6, 1)) == Decimal("1.50")


@pytest.mark.article("Art. 40, § único")
def test_art_40_par_unico_fee_due_dates():
    assert inspection_fee_due(date(2026, 6, 1), extraordinary=False) == date(2026, 6, 1)
    assert inspection_fee_due(date(2026, 3, 2), extraordinary=True) == date(2026, 4, 1)
    assert check_inspection_fee(date(2026, 3, 2), True, date(2026, 4, 1), date(2026, 4, 10))
    assert check_inspection_fee(date(2026, 3, 2), True, None, date(2026, 4, 1))
    assert check_inspection_fee(date(2026, 3, 2), True, date(2026, 4, 2), date(2026, 4, 10)).codes == ("inspection_fee_late",)
    assert not check_inspection_fee(date(2026, 6, 1), False, None, date(2026, 6, 2))


@pytest.mark.article("Art. 28")
def test_art_28_the_model_year_is_the_year_of_manufacture_or_the_next():
    from taxilaw.vehicles import model_year_matches

    assert model_year_matches(2025, 2025) and model_year_matches(2025, 2026)
    assert model_year_matches(2025, 2027).codes == ("model_year_mismatch",)
    assert model_year_matches(2026, 2025).codes == ("model_year_mismatch",)


@pytest.mark.article("Art. 1, III")
def test_art_1_iii_one_taxi_in_service_per_permit():
    from taxilaw.vehicles import one_taxi_per_permit

    assert one_taxi_per_permit(False, "007")
    refusal = one_taxi_per_permit(True, "007")
    assert refusal.codes == ("one_taxi_per_permit",) and "permissão 007 já tem" in refusal.reasons[0].message


@pytest.mark.article("Art. 37")
def test_art_37_a_vehicle_that_passes_receives_a_numbered_seal():
    from taxilaw.vehicles import seal_given

    assert seal_given(True, "S-12") and seal_given(False, "")
    assert seal_given(True, "").codes == ("seal_required",)
