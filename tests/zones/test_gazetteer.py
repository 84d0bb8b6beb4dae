"""Offline address search and reverse lookup over the shipped gazetteer (zones.gazetteer)."""

import time

import pytest

from zones.gazetteer import MAX_QUERY_CHARS, AddressError, default_gazetteer


@pytest.fixture(scope="module")
def gaz():
    return default_gazetteer()


# (typed, the first suggestion's name) - real Muriaé addresses, with accents, without, abbreviated, with typos
ADDRESSES = [
    ("Rua Cel. Domiciano", "Rua Coronel Domiciano"),
    ("rua coronel domiciano", "Rua Coronel Domiciano"),
    ("domiciano 94", "Rua Coronel Domiciano"),
    ("R. Cel. Domicano, 120", "Rua Coronel Domiciano"),  # typo
    ("praça joão pinheiro", "Praça João Pinheiro"),
    ("praca joao pinheiro", "Praça João Pinheiro"),
    ("pça joão pinhero", "Praça João Pinheiro"),  # typo
    ("Praça São Paulo", "Praça São Paulo"),
    ("rodoviária", "Rodoviária de Muriaé"),
    ("rodoviaria", "Rodoviária de Muriaé"),
    ("hospital sao paulo", "Hospital São Paulo"),
    ("pascoal bernadino 161", "Rua Paschoal Bernardino"),  # two typos
    ("Rua Dr. Silveira Brum 85", "Rua Doutor Silveira Brum"),
    ("av jk", "Avenida Presidente Juscelino Kubitschek"),
    ("avenida juscelino kubistchek", "Avenida Presidente Juscelino Kubitschek"),
    ("monsenhor soares", "Rua Monsenhor Soares"),
    ("lidio bandeira de melo", "Rua Doutor Lídio Bandeira de Melo"),
    ("Getúlio Vargas", "Rua Presidente Getúlio Vargas"),
    ("36880-013", "Rua Coronel Domiciano"),  # by CEP
    ("36880013", "Rua Coronel Domiciano"),
    ("36880-055", "Rua Monsenhor Soares"),
]


@pytest.mark.article("Art. 66")
@pytest.mark.parametrize("typed,first", ADDRESSES)
def test_search_real_addresses(gaz, typed, first):
    result = gaz.search(typed)
    assert result.suggestions, result.message()
    assert result.suggestions[0].place.name == first


@pytest.mark.article("Art. 66")
def test_suggestion_carries_geometry_number_and_label(gaz):
    top = gaz.search("domiciano 94").suggestions[0]
    assert top.number == "94"
    assert top.label == "Rua Coronel Domiciano, 94 - Centro"
    data = top.as_dict()
    assert data["geometry"]["type"] == "MultiLineString" and data["geometry"]["coordinates"]
    assert "36880-013" in data["ceps"] and data["bairros"] == ["Centro"]
    assert -21.14 < data["lat"] < -21.12 and -42.375 < data["lon"] < -42.36  # a point on the street, in the centre


@pytest.mark.article("Art. 66")
@pytest.mark.parametrize("typed,message", [
    ("", "Digite uma rua, um local ou um CEP de Muriaé."),
    ("   ", "Digite uma rua, um local ou um CEP de Muriaé."),
    ("!!!@@@###", "Digite uma rua, um local ou um CEP de Muriaé."),
    ("94", "Digite o nome da rua, além do número."),
    ("01310-100", "O CEP 01310-100 não é de Muriaé (os CEPs de Muriaé vão de 36880-000 a 36888-999)."),
    ("36880-000", "36880-000 é o CEP geral de Muriaé e não indica a rua: digite o nome da rua ou do local."),
    ("36888-998", "O CEP 36888-998 não consta da lista de CEPs de Muriaé."),
    ("xqzwvk", "Nenhuma rua ou local de Muriaé parecido com \u201cxqzwvk\u201d."),
])
def test_bad_input_gets_a_ptbr_answer_and_no_suggestion(gaz, typed, message):
    result = gaz.search(typed)
    assert result.suggestions == []
    assert result.message() == message


@pytest.mark.article("Art. 66")
def test_huge_text_is_cut_so_work_stays_bounded(gaz):
    short = "rua coronel domiciano " * 9
    huge = short + "x" * 1_000_000
    assert len(gaz.search(huge).query) <= MAX_QUERY_CHARS
    assert gaz.search(huge).suggestions[0].place.name == "Rua Coronel Domiciano"
    # cost does not grow with the length: a million characters cost about what two hundred do
    t0 = time.perf_counter()
    gaz.search(short)
    t_short = time.perf_counter() - t0
    t0 = time.perf_counter()
    gaz.search(huge)
    assert time.perf_counter() - t0 < t_short * 20 + 0.05


@pytest.mark.article("Art. 25")
@pytest.mark.parametrize("lon,lat,address", [
    (-42.3675, -21.1314, "Rua Coronel Domiciano, bairro Centro"),
    (-42.36425, -21.13212, "Rua São Pedro, bairro Centro"),
])
def test_reverse_names_the_nearest_street_and_its_bairro(gaz, lon, lat, address):
    found = gaz.reverse(lon, lat)
    assert found.address == address
    assert found.distance_m < 30


@pytest.mark.article("Art. 25")
def test_reverse_of_a_point_on_a_street_is_that_street(gaz):
    for place in [p for p in gaz.places if p.kind == "street"][::40]:
        found = gaz.reverse(place.lon, place.lat)
        assert found.distance_m < 2.0, place.name
        assert found.address.startswith(place.name)


@pytest.mark.article("Art. 25")
def test_reverse_far_from_any_street_says_so(gaz):
    found = gaz.reverse(-42.40, -21.20)  # rural Muriaé
    assert found.address == "" and found.street is None
    assert found.as_dict()["message"] == "Nenhuma rua conhecida a menos de 250 m deste ponto."


@pytest.mark.article("Art. 25")
@pytest.mark.parametrize("lon,lat", [(-46.63, -23.55), (10.0, 10.0), (-40.0, -22.0), (float("nan"), -21.1)])
def test_reverse_outside_the_municipality_is_refused(gaz, lon, lat):
    with pytest.raises(AddressError) as err:
        gaz.reverse(lon, lat)
    assert err.value.code == "outside_municipality"
    assert "fora do município de Muriaé" in err.value.message
