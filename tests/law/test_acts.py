"""Legal amounts as dated acts (taxilaw.acts): the statute's amounts change only by law, the deposit never comes
back, a new act reaches only what comes after its date."""

from datetime import date
from decimal import Decimal

import pytest

from taxilaw.acts import known_parameter, may_record_act, may_rewrite_act, statute_allows
from taxilaw.parameters import DEFAULT_PARAMETERS, PARAMETER_UNITS

TODAY = date(2026, 12, 7)


@pytest.mark.article("Art. 4, §2")
def test_art_4_par_2_the_late_renewal_fine_changes_only_by_law():
    assert statute_allows("late_renewal_fine_ufm", TODAY, Decimal("1"), "Decreto 5/2026")  # the same value
    by_decree = statute_allows("late_renewal_fine_ufm", TODAY, Decimal("0"), "Decreto 5/2026")
    assert not by_decree and by_decree.codes == ("statute_amount",) and by_decree.articles == ("Art. 4, §2",)
    assert statute_allows("late_renewal_fine_ufm", TODAY, Decimal("2"), "Lei 9.000/2026")


@pytest.mark.article("Art. 63, §5")
def test_art_63_par_5_no_act_brings_the_deposit_back():
    assert not statute_allows("appeal_deposit_required", TODAY, Decimal("1"), "Lei 9.001/2026")
    assert statute_allows("appeal_deposit_required", TODAY, Decimal("0"), "Decreto")
    assert statute_allows("appeal_deposit_required", date(1990, 1, 1), Decimal("1"), "Lei 1.242/1987")  # before SV 21


@pytest.mark.article("Art. 67", "Art. 55, I")
def test_art_67_a_new_act_is_dated_today_or_later_after_the_last_one_with_its_source():
    assert may_record_act("ufm_brl", TODAY, Decimal("6"), "Decreto 7/2026", TODAY, date(2000, 1, 1))
    refused = may_record_act("ufm_brl", date(2026, 12, 6), Decimal("6"), " ", TODAY, date(2026, 12, 6))
    assert set(refused.codes) == {"act_source_missing", "act_retroactive", "act_before_last"}
    assert may_rewrite_act("fine_group_a_brl").articles == ("Art. 55, I",)
    assert may_rewrite_act("attire", "Art. 64").codes == ("act_is_append_only",)


@pytest.mark.article("Art. 67")
def test_every_seeded_parameter_is_one_an_act_may_set():
    assert all(known_parameter(d.name, set(PARAMETER_UNITS)) for d in DEFAULT_PARAMETERS)
    assert known_parameter("ufm", set(PARAMETER_UNITS)).codes == ("act_unknown_parameter",)
