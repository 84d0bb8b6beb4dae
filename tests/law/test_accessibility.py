"""Equipped cabs (taxilaw.accessibility): a ride asking for a wheelchair goes only to a cab that takes one (Art. 66)."""

import pytest

from taxilaw import accessibility


@pytest.mark.article("Art. 66")
def test_every_need_must_be_met_and_the_refusal_says_what_is_missing():
    both = ("child_seat", "wheelchair_accessible")
    assert accessibility.equipped_for(both, {"wheelchair_accessible": True, "child_seat": True})
    assert accessibility.equipped_for((), {})
    refused = accessibility.equipped_for(both, {"wheelchair_accessible": True, "child_seat": False})
    assert refused.codes == ("vehicle_not_equipped",) and refused.articles == ("Art. 66",)
    assert refused.reasons[0].message == "O veículo deste táxi não é com cadeirinha infantil, como o passageiro pediu."
    assert not accessibility.equipped_for(("wheelchair_accessible",), {})


@pytest.mark.article("Art. 66")
def test_the_passenger_is_told_in_a_sentence_when_no_equipped_cab_is_free():
    told = accessibility.none_free(("wheelchair_accessible",))
    assert told.code == "no_equipped_cab"
    assert told.message.startswith("Nenhum táxi acessível para cadeira de rodas está livre perto de você agora.")
    assert accessibility.describe(("child_seat", "wheelchair_accessible")) == "acessível para cadeira de rodas e com cadeirinha infantil"
    with pytest.raises(ValueError):
        accessibility.known_needs(("jetpack",))
