"""Matching the street layer's mangled names to the CEP list's spelling (zones.names, tools/build_gazetteer.py)."""

import csv
import json
from pathlib import Path

import pytest

from zones.names import CepNames, core, fold

ROOT = Path(__file__).resolve().parents[2]
CEPS = ROOT.parent / "shared" / "data" / "geo" / "muriae_ceps.csv"
STREETS = ROOT / "zones" / "data" / "streets.geojson"

# Names as the CEP list spells them (copied, so the table does not depend on shared/ being mounted).
CEP_NAMES = [
    "Rua Doutor Lídio Bandeira de Melo", "Praça São Paulo", "Vila São Paulo", "Rua Monsenhor Soares",
    "Avenida Presidente Juscelino Kubitschek", "Rua Coronel Domiciano", "Rua Presidente Getúlio Vargas",
    "Rua Getúlio Dutra Filho", "Rua Paschoal Bernardino", "Praça Coronel Tibúrcio", "Rua Princesa Isabel",
    "Travessa Santa Isabel", "Rua Doutor Otávio Tibúrcio Ferreira", "Rua Benedito Videira",
    "Rua Mariazinha Soares Bittencourt", "Rua João Batista Soares", "Rua Coronel Pereira Sobrinho",
    "Rua Doutor Silveira Brum", "Rua Doutor Afonso Canêdo", "Avenida Comendador Freitas", "Rua Farmacêutico José",
]

HARD_CASES = [
    # (layer name, expected CEP name or None)
    ("RUADOUTORLIDIO BANDEIRA DE MELO", "Rua Doutor Lídio Bandeira de Melo"),  # words run together
    ("PRACASAOPAULO", "Praça São Paulo"),  # whole name run together
    ("VILASAOPAULO", "Vila São Paulo"),  # same core, another street type
    ("AVENIDA MOSENHOR SOARES", "Rua Monsenhor Soares"),  # typo in the honorific, Avenida/Rua disagree
    ("AVENIDA JUSCELINO KUBISTCHEK", "Avenida Presidente Juscelino Kubitschek"),  # transposed letters, honorific missing
    ("AVENIDA JUSCELINO KUBITSCHEK", "Avenida Presidente Juscelino Kubitschek"),
    ("RUACORONELDOMICIANO", "Rua Coronel Domiciano"),
    ("RUA GETULIO VARGAS", "Rua Presidente Getúlio Vargas"),  # not Getúlio Dutra Filho
    ("RUA PASCHOAL BERNADINO", "Rua Paschoal Bernardino"),  # a letter missing
    ("RUA  BENEDITO  VIDEIRAS", "Rua Benedito Videira"),  # double spaces, plural
    ("RUA  PRINCESA  ISABEL", "Rua Princesa Isabel"),
    ("TRAVESSAPRINCESAISABEL", None),  # a travessa is not the rua; Princesa is not Santa
    ("RUA OTAVIO TIBURCIO FERREIRA", "Rua Doutor Otávio Tibúrcio Ferreira"),
    ("RUA JOAO BATISTA", None),  # a prefix of a longer name is another street
    ("RUA SOARES", None),  # a common surname alone matches nobody
    ("RUACORONELPEREIRA SOBRINHO", "Rua Coronel Pereira Sobrinho"),
    ("RUADOUTORAFONSO CANEDO", "Rua Doutor Afonso Canêdo"),
    ("", None),
    ("!!!", None),
]


@pytest.fixture(scope="module")
def names():
    return CepNames(CEP_NAMES)


@pytest.mark.parametrize("mangled,expected", HARD_CASES)
def test_hard_cases(names, mangled, expected):
    found = names.match(mangled)
    assert (found.name if found else None) == expected


@pytest.mark.parametrize("mangled,readable", [
    ("RUAPROFESSORAJORCEMIRA DE FREITAS GUEDES", "Rua Professora Jorcemira de Freitas Guedes"),
    ("ALAMEDASAOJOSE", "Alameda São José"),
    ("RUA JOAO DA SILVA", "Rua João da Silva"),
    ("RODOVIA BR356", "Rodovia BR-356"),
    ("RUA A", "Rua A"),
])
def test_readable_name_for_unmatched(mangled, readable):
    names = CepNames([*CEP_NAMES, "Rua São José", "Rua João Pedro", "Rua Maria da Silva", "Rua José de Freitas Guedes"])
    assert names.readable_name(mangled) == readable


def test_core_folds_accents_abbreviations_types_and_spaces():
    assert core("R. Cel. Domiciano") == core("RUACORONELDOMICIANO") == "domiciano"
    assert fold("Praça  João-Pinheiro!") == "praca joao pinheiro"


@pytest.mark.skipif(not CEPS.exists(), reason="shared/ geodata not mounted")
def test_shipped_streets_match_their_build():
    """The shipped file holds the names the matcher gives today (rebuild with tools/build_gazetteer.py)."""
    with CEPS.open(encoding="utf-8") as fh:
        names = CepNames(row["logradouro"].split(",")[0].strip() for row in csv.DictReader(fh))
    streets = json.loads(STREETS.read_text("utf-8"))["features"]
    by_source = {s: f["properties"] for f in streets for s in f["properties"]["source_names"]}
    assert by_source["RUADOUTORLIDIO BANDEIRA DE MELO"]["name"] == "Rua Doutor Lídio Bandeira de Melo"
    assert by_source["AVENIDA MOSENHOR SOARES"]["name"] == "Rua Monsenhor Soares"
    assert "36880-013" in by_source["RUACORONELDOMICIANO"]["ceps"]
    assert by_source["RUACORONELDOMICIANO"]["bairros"] == ["Centro"]
    for source, props in list(by_source.items())[::25]:
        found = names.match(source)
        assert props["matched"] == bool(found)
        assert props["name"] == (found.name if found else names.readable_name(source))
