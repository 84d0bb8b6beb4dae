"""Art. 1, §6 through the registry API: the auxiliary's regime (25/75 partnership, written contract, CTPS) is
recorded on POST /api/auxiliaries/, checked by taxilaw.split.check_regime, and every refusal is a 400 on its field."""

from datetime import date
from decimal import Decimal

import pytest

from backend.api_errors import LawViolation
from backend.registry.models import Auxiliary
from backend.registry.services import auxiliaries

pytestmark = pytest.mark.django_db

URL = "/api/auxiliaries/"
CONTRACT = {"split_regime": "contract", "contract_auxiliary_percent": "33.33", "contract_signed_on": "2026-01-10",
            "contract_witness_1": "Ana Souza", "contract_witness_2": "Bruno Lima", "contract_reference": "Contrato 7/2026"}
CTPS = {"split_regime": "ctps", "ctps_number": "1234567", "ctps_series": "0012-MG"}


@pytest.fixture
def post(dimutran, working_cab, make_person):
    """POST an auxiliary for a fresh person on a fresh cab with these regime data."""
    permit = working_cab()

    def send(**regime):
        return dimutran.post(URL, {"permit": permit.pk, "person": make_person().pk, **regime}, format="json")

    return send


def refused_on(response, *fields):
    """A 400 (never a 500) with messages exactly on these fields among the regime's fields; nothing stored."""
    assert response.status_code == 400, response.content.decode()
    body = response.json()
    regime_fields = set(Auxiliary.REGIME_FIELDS.values())
    assert {f for f in body if f in regime_fields} == set(fields), body
    for field in fields:
        assert body[field] and all(isinstance(m, str) and m for m in body[field]), body
    assert not Auxiliary.objects.exists()
    return body


@pytest.mark.article("Art. 1, §3")
def test_partnership_of_the_law_is_the_default(post):
    for regime in ({}, {"split_regime": "law"}):
        response = post(**regime)
        assert response.status_code == 201, response.content.decode()
        body = response.json()
        assert body["split_regime"] == "law" and body["contract_auxiliary_percent"] is None
        assert (body["contract_signed_on"], body["contract_witness_1"], body["ctps_number"]) == (None, "", "")
    assert set(Auxiliary.objects.values_list("split_regime", flat=True)) == {"law"}


@pytest.mark.article("Art. 1, §6")
def test_written_contract_is_recorded_with_share_date_and_two_witnesses(post):
    response = post(**{**CONTRACT, "contract_witness_2": "  Bruno   Lima "})
    assert response.status_code == 201, response.content.decode()
    body = response.json()
    assert (body["split_regime"], body["contract_auxiliary_percent"], body["contract_signed_on"]) == (
        "contract", "33.33", "2026-01-10")
    assert (body["contract_witness_1"], body["contract_witness_2"]) == ("Ana Souza", "Bruno Lima")
    stored = Auxiliary.objects.get(pk=body["id"])
    assert (stored.split_regime, stored.regime, stored.contract_auxiliary_percent) == ("contract", "contract", Decimal("33.33"))
    assert (stored.contract_signed_on, stored.contract_reference) == (date(2026, 1, 10), "Contrato 7/2026")
    stored.full_clean()  # what the API stored is what the admin accepts


@pytest.mark.article("Art. 1, §6")
def test_ctps_employment_is_recorded_with_number_and_series(post):
    response = post(**CTPS)
    assert response.status_code == 201, response.content.decode()
    body = response.json()
    assert (body["split_regime"], body["ctps_number"], body["ctps_series"]) == ("ctps", "1234567", "0012-MG")
    assert body["contract_auxiliary_percent"] is None
    stored = Auxiliary.objects.get(pk=body["id"])
    assert (stored.split_regime, stored.regime) == ("ctps", "ctps")
    stored.full_clean()


@pytest.mark.article("Art. 1, §6")
def test_contract_without_its_data_is_refused_field_by_field(post):
    body = refused_on(post(split_regime="contract"),
                      "contract_auxiliary_percent", "contract_signed_on", "contract_witness_1", "contract_witness_2")
    assert {r["article"] for r in body["reasons"]} == {"Art. 1, §6"}
    assert {r["code"] for r in body["reasons"]} == {
        "regime_percent_missing", "regime_contract_date_missing", "regime_witness_1_missing", "regime_witness_2_missing"}
    assert "informe o nome da 2ª" in body["contract_witness_2"][0]
    refused_on(post(**{**CONTRACT, "contract_signed_on": None}), "contract_signed_on")
    refused_on(post(**{**CONTRACT, "contract_witness_1": ""}), "contract_witness_1")
    refused_on(post(**{**CONTRACT, "contract_witness_2": "   "}), "contract_witness_2")


@pytest.mark.article("Art. 1, §6")
def test_contract_share_must_be_strictly_between_0_and_100(post):
    for pct in ("0", "100", "0.00", "-5", "120"):
        body = refused_on(post(**{**CONTRACT, "contract_auxiliary_percent": pct}), "contract_auxiliary_percent")
        if pct in ("0", "100"):
            assert "maior que 0 e menor que 100" in body["contract_auxiliary_percent"][0]
    assert post(**{**CONTRACT, "contract_auxiliary_percent": "0.01"}).status_code == 201
    assert post(**{**CONTRACT, "contract_auxiliary_percent": "99.99"}).status_code == 201


@pytest.mark.article("Art. 1, §6")
def test_contract_witnesses_must_be_two_different_people(post):
    body = refused_on(post(**{**CONTRACT, "contract_witness_2": " ana  SOUZA "}), "contract_witness_2")
    assert body["contract_witness_2"] == ["As duas testemunhas do contrato devem ser pessoas diferentes."]
    assert [r["code"] for r in body["reasons"]] == ["regime_witnesses_not_distinct"]


@pytest.mark.article("Art. 1, §6")
def test_ctps_without_number_or_series_is_refused(post):
    refused_on(post(split_regime="ctps"), "ctps_number", "ctps_series")
    refused_on(post(**{**CTPS, "ctps_number": " "}), "ctps_number")
    refused_on(post(**{**CTPS, "ctps_series": ""}), "ctps_series")


@pytest.mark.article("Art. 1, §6")
def test_data_of_another_regime_is_refused_on_its_field(post):
    # CTPS: no split, so no percentage; no contract date or witnesses.
    body = refused_on(post(**CTPS, contract_auxiliary_percent="30"), "contract_auxiliary_percent")
    assert "só se informam no regime de contrato escrito" in body["contract_auxiliary_percent"][0]
    refused_on(post(**CTPS, contract_signed_on="2026-01-10"), "split_regime")
    refused_on(post(**CTPS, contract_witness_1="Ana Souza"), "split_regime")
    # Contract: no CTPS data.
    refused_on(post(**CONTRACT, ctps_number="1234567"), "ctps_number")
    refused_on(post(**CONTRACT, ctps_series="0012-MG"), "ctps_number")
    # The law's partnership: neither.
    refused_on(post(split_regime="law", contract_auxiliary_percent="30"), "contract_auxiliary_percent")
    refused_on(post(split_regime="law", contract_witness_2="Bruno Lima"), "split_regime")
    refused_on(post(split_regime="law", ctps_number="1234567", ctps_series="0012-MG"), "ctps_number")


@pytest.mark.article("Art. 1, §6")
def test_regime_data_without_the_regime_must_name_it(post):
    """Without ``split_regime`` only the old form (a percentage with its contract's reference) is read as a contract."""
    data = {k: v for k, v in CONTRACT.items() if k != "split_regime"}
    refused_on(post(**data), "contract_auxiliary_percent", "split_regime")
    refused_on(post(ctps_number="1234567", ctps_series="0012-MG"), "ctps_number")
    body = refused_on(post(contract_auxiliary_percent="30"))  # the old rule: the contract's reference is required
    assert body["contract_reference"] and [r["code"] for r in body["reasons"]] == ["contract_required"]
    created = post(contract_auxiliary_percent="30", contract_reference="Contrato 1/2026")
    assert created.status_code == 201 and created.json()["split_regime"] == "contract"


@pytest.mark.article("Art. 1, §6")
def test_malformed_regime_input_is_a_400_not_a_500(post):
    refused_on(post(split_regime="meio a meio"), "split_regime")
    refused_on(post(split_regime=None), "split_regime")
    refused_on(post(**{**CONTRACT, "contract_signed_on": "10/01/2026x"}), "contract_signed_on")
    refused_on(post(**{**CONTRACT, "contract_auxiliary_percent": "trinta"}), "contract_auxiliary_percent")
    refused_on(post(**{**CONTRACT, "contract_auxiliary_percent": "33.333"}), "contract_auxiliary_percent")
    refused_on(post(**{**CONTRACT, "contract_witness_1": None}), "contract_witness_1")
    refused_on(post(**{**CONTRACT, "contract_witness_1": "A" * 161}), "contract_witness_1")
    refused_on(post(**{**CTPS, "ctps_number": "9" * 21}), "ctps_number")
    refused_on(post(**{**CTPS, "ctps_series": ["0012"]}), "ctps_series")


@pytest.mark.article("Art. 1, §6")
def test_the_service_puts_each_refusal_on_its_field(working_cab, make_person, today):
    permit = working_cab()
    with pytest.raises(LawViolation) as exc:
        auxiliaries.authorize_auxiliary(permit=permit, person=make_person(), on=today, split_regime="ctps",
                                        contract_auxiliary_percent=Decimal("30"), ctps_series="0012-MG")
    payload = exc.value.payload()
    assert set(payload) == {"detail", "reasons", "contract_auxiliary_percent", "ctps_number"}
    assert exc.value.decision.codes == ("regime_percent_without_contract", "regime_ctps_number_missing")
    with pytest.raises(LawViolation):
        auxiliaries.authorize_auxiliary(permit=permit, person=make_person(), on=today, split_regime="parceria")
    aux = auxiliaries.authorize_auxiliary(permit=permit, person=make_person(), on=today, split_regime="ctps",
                                          ctps_number=" 1234567 ", ctps_series="0012-MG")
    assert (aux.split_regime, aux.ctps_number) == ("ctps", "1234567")


@pytest.mark.article("Art. 1, §6")
def test_only_dimutran_records_the_regime(working_cab, make_person, user_for):
    permit = working_cab()
    holder = user_for(permit.holder)
    response = holder.post(URL, {"permit": permit.pk, "person": make_person().pk, **CTPS}, format="json")
    assert response.status_code == 403
    assert not Auxiliary.objects.exists()
