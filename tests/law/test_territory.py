"""Why an uploaded central-zone file is refused (Art. 24): the grounds live in the core, the geometry in zones."""

import pytest

from taxilaw.territory import ZONE_FILE_REFUSALS, zone_file_refusal


@pytest.mark.article("Art. 24")
def test_art_24_each_ground_of_refusal_names_the_territory_and_its_article():
    for code in ZONE_FILE_REFUSALS:
        assert "Art. 24" in ZONE_FILE_REFUSALS[code] and zone_file_refusal(code).article == "Art. 24"
    reason = zone_file_refusal("zone_file_outside_municipality", metres=37)
    assert reason.code == "zone_file_outside_municipality" and "até 37 m além do limite" in reason.message
    with pytest.raises(KeyError):
        zone_file_refusal("not_a_ground")


@pytest.mark.article("Art. 25")
def test_art_25_a_place_outside_the_municipality_is_refused_with_its_position():
    from taxilaw.territory import outside_municipality

    reason = outside_municipality(-42.123456789, -21.0)
    assert reason.article == "Art. 25" and reason.code == "outside_municipality"
    assert reason.message.startswith("O local (-21.0, -42.12346) fica fora do município de Muriaé")
    assert "nan" in outside_municipality(float("nan"), -21.0).message
