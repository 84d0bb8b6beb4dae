"""The acts on a renewal request (Art. 4, §1, Art. 5)."""

import pytest

from taxilaw.renewal_acts import known_documents, no_renewal_open, renewal_still_open


@pytest.mark.article("Art. 4, §1")
def test_art_4_par_1_one_renewal_request_at_a_time():
    assert no_renewal_open(False)
    assert no_renewal_open(True).codes == ("renewal_open",)


@pytest.mark.article("Art. 5")
def test_art_5_a_decided_request_takes_no_documents_and_only_those_of_art_5_are_named():
    from taxilaw.permits import RENEWAL_DOCUMENTS

    assert renewal_still_open(True) and renewal_still_open(False).codes == ("renewal_closed",)
    assert known_documents([d.code for d in RENEWAL_DOCUMENTS])
    refusal = known_documents(["zz", "aa"])
    assert refusal.codes == ("unknown_document",) and refusal.reasons[0].message == "Documento desconhecido: aa, zz."
