"""The acts of an appeal the backend used to check itself: filing (Art. 63, §3), judging (§3), notifying (§4)."""

from datetime import date

import pytest

from taxilaw.appeal_judgment import (
    appeal_still_pending,
    judged_after_filing,
    judgment_result_valid,
    reduction_of_a_penalty_in_force,
    reductions_only_when_partial,
)
from taxilaw.due_process import (
    appeal_has_object,
    instance_not_yet_appealed,
    judgment_not_yet_notified,
    judgment_to_notify,
    second_instance_open,
)


@pytest.mark.article("Art. 63, §3")
def test_art_63_par_3_an_appeal_is_against_a_penalty_in_force_once_per_instance_in_order():
    assert appeal_has_object(True) and instance_not_yet_appealed(False) and second_instance_open(True)
    assert appeal_has_object(False).codes == ("nothing_to_appeal",)
    assert instance_not_yet_appealed(True).codes == ("appeal_exists",)
    refusal = second_instance_open(False)
    assert refusal.codes == ("first_instance_pending",) and refusal.articles == ("Art. 63, §3",)
    assert "depois do julgamento do COMUTRAM" in refusal.reasons[0].message


@pytest.mark.article("Art. 63, §3")
def test_art_63_par_3_a_judgment_is_one_of_three_once_after_the_appeal_and_reduces_only_in_part():
    assert all(judgment_result_valid(r) for r in ("upheld", "granted", "partial"))
    assert judgment_result_valid("pending").codes == ("judgment_result_invalid",)
    assert appeal_still_pending(True) and appeal_still_pending(False).codes == ("appeal_already_judged",)
    assert judged_after_filing(date(2026, 3, 1), date(2026, 3, 1))
    late = judged_after_filing(date(2026, 3, 2), date(2026, 3, 1))
    assert late.codes == ("judgment_before_appeal",) and "02/03/2026" in late.reasons[0].message
    assert judged_after_filing(date(2026, 3, 2), None).codes == ("judgment_before_appeal",)
    assert reductions_only_when_partial(True, 2) and reductions_only_when_partial(False, 0)
    assert reductions_only_when_partial(False, 1).codes == ("reductions_only_when_partial",)
    assert reduction_of_a_penalty_in_force(True, False, 7)
    for in_force, named in ((False, False), (True, True)):
        refusal = reduction_of_a_penalty_in_force(in_force, named, 7)
        assert refusal.codes == ("reduction_penalty_invalid",) and "penalidade 7 " in refusal.reasons[0].message


@pytest.mark.article("Art. 63, §4")
def test_art_63_par_4_only_a_judged_appeal_is_notified_and_once():
    assert judgment_to_notify(True) and judgment_not_yet_notified(None)
    assert judgment_to_notify(False).codes == ("appeal_not_judged",)
    again = judgment_not_yet_notified(date(2026, 4, 10))
    assert again.codes == ("already_notified",) and "10/04/2026" in again.reasons[0].message
