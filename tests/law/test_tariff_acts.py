"""The acts on a decreed tariff (Art. 44, Art. 45, §3), a study's items (Art. 42) and a re-run trace (Art. 43, 45)."""

from datetime import date, datetime, timezone

import pytest

from taxilaw import tariff_acts
from taxilaw.tariff_study import cost_items_once, study_failed

TODAY = date(2026, 12, 7)


@pytest.mark.article("Art. 44")
def test_art_44_a_tariff_in_force_is_immutable_and_a_correction_takes_effect_after_today():
    assert tariff_acts.tariff_not_in_force(date(2026, 12, 8), TODAY)
    in_force = tariff_acts.tariff_not_in_force(TODAY, TODAY)
    assert in_force.codes == ("tariff_in_force_immutable",) and "desde 07/12/2026" in in_force.reasons[0].message
    assert tariff_acts.may_amend_to(date(2026, 12, 8), TODAY)
    late = tariff_acts.may_amend_to(TODAY, TODAY)
    assert late.articles == ("Art. 44",) and "depois de hoje (07/12/2026)" in late.reasons[0].message


@pytest.mark.article("Art. 45, §3")
def test_art_45_par_3_a_tariff_with_correction_tables_is_not_revoked():
    assert tariff_acts.may_revoke(False)
    assert tariff_acts.may_revoke(True).codes == ("tariff_has_correction_tables",)


@pytest.mark.article("Art. 43")
def test_art_43_a_re_run_trace_is_aware_started_limited_and_readable():
    assert tariff_acts.trace_instant_aware(True) and tariff_acts.trace_has_start(False, datetime.now(timezone.utc))
    assert tariff_acts.trace_instant_aware(False).codes == ("trace_naive_time",)
    assert tariff_acts.trace_has_start(False, None).codes == ("trace_empty",)
    assert tariff_acts.meter_limits_in_force(False, TODAY).codes == ("trip_before_parameters",)
    assert tariff_acts.trace_readable(None)
    assert tariff_acts.trace_readable("boom").reasons[0].message == "Trajeto inválido: boom."


@pytest.mark.article("Art. 45")
def test_art_45_a_trip_needs_a_tariff_in_force_on_its_day():
    assert tariff_acts.tariff_found(True, TODAY)
    assert tariff_acts.tariff_found(False, TODAY).reasons[0].message == "Nenhuma tarifa decretada está em vigor em 07/12/2026."


@pytest.mark.article("Art. 42")
def test_art_42_each_cost_item_once_and_a_broken_study_is_refused_with_its_error():
    assert cost_items_once("abc") and cost_items_once("aba").codes == ("study_item_repeated",)
    assert study_failed("divisão por zero").codes == ("study_invalid",)
