"""The auto de infração and the complaint's triage: Art. 60, Art. 60, § único, Art. 62, Art. 64."""

from datetime import date

import pytest

from taxilaw import due_process

DAY = date(2026, 5, 4)


def _auto(**over):
    facts = dict(infraction_codes=["I-01"], committed_on=DAY, issued_on=DAY, not_in_force=[],
                 infractor_of_permit=True, infractor="Ana", number="TX-1")
    facts.update(over)
    return due_process.may_issue_auto(**facts)


@pytest.mark.article("Art. 60", "Art. 62", "Art. 64")
def test_an_auto_names_an_infraction_in_force_after_it_against_the_permits_driver():
    assert _auto()
    assert _auto(infraction_codes=[]).codes == ("auto_needs_infraction",)
    assert _auto(issued_on=date(2026, 5, 3)).codes == ("auto_before_infraction",)
    assert _auto(not_in_force=["I-01"]).codes == ("infraction_not_in_force",)
    refused = _auto(infractor_of_permit=False)
    assert refused.codes == ("infractor_not_of_permit",) and "TX-1" in refused.reasons[0].message


@pytest.mark.article("Art. 62")
def test_the_copy_is_delivered_once_not_before_the_auto():
    assert due_process.may_deliver_copy(DAY, DAY)
    assert due_process.may_deliver_copy(DAY, date(2026, 5, 3)).codes == ("copy_before_auto",)
    assert due_process.may_deliver_copy(DAY, DAY, already_delivered_on=DAY).codes == ("copy_already_delivered",)


@pytest.mark.article("Art. 60, § único")
def test_a_complaint_is_triaged_once():
    assert due_process.may_triage_complaint(True)
    assert due_process.may_triage_complaint(False).codes == ("complaint_already_triaged",)
