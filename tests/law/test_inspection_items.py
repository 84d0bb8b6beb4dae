"""The vistoria's planilha and documents (Art. 29, 31, 33, 36, 39) and the start of service (Art. 13, III)."""

from datetime import date

import pytest

from taxilaw.inspection_items import all_documents, complete_checklist, judge_inspection, service_start_status
from taxilaw.parameters import default_parameters

PARAMS = default_parameters()


@pytest.mark.article("Art. 29", "Art. 36")
def test_art_29_no_roof_light_no_approval():
    checklist = {**complete_checklist(), "roof_light": False}
    decision = judge_inspection(checklist, all_documents())
    assert not decision and decision.codes == ("inspection_item_roof_light",) and decision.articles == ("Art. 29",)
    assert judge_inspection(complete_checklist(), all_documents())


@pytest.mark.article("Art. 31", "Art. 33")
def test_art_31_33_visual_communication_is_an_item_of_every_vistoria():
    checklist = {**complete_checklist(), "visual_communication": False}
    assert judge_inspection(checklist, all_documents()).articles == ("Art. 31",)
    assert "Art. 33" in judge_inspection(complete_checklist(), all_documents()).articles


@pytest.mark.article("Art. 36")
def test_art_36_the_planilha_must_be_filled_and_known():
    empty = judge_inspection(None, all_documents())
    assert not empty and len(empty.reasons) == len(complete_checklist())
    unknown = judge_inspection({**complete_checklist(), "radio": True}, all_documents())
    assert unknown.codes == ("inspection_item_unknown",)


@pytest.mark.article("Art. 39")
def test_art_39_every_document_presented_at_the_vistoria():
    missing = judge_inspection(complete_checklist(), {**all_documents(), "crlv": False})
    assert not missing and missing.codes == ("inspection_document_crlv",) and missing.articles == ("Art. 39",)


@pytest.mark.article("Art. 13, III")
def test_art_13_iii_service_started_within_the_term():
    signed = date(2026, 3, 2)  # 60 days later: 1 May (holiday) -> Saturday 2 -> Monday 4 May
    assert service_start_status(signed, None, date(2026, 5, 4), PARAMS)
    late = service_start_status(signed, None, date(2026, 5, 5), PARAMS)
    assert not late and late.codes == ("service_not_started",)
    assert service_start_status(signed, date(2026, 4, 1), date(2027, 1, 1), PARAMS)

