"""Documents: CPF (Art. 5, IV), CNH (Art. 5, I), RENAVAM and plate (Art. 5, II)."""

import pytest

from taxilaw.documents import (
    normalize_cnh,
    normalize_cpf,
    normalize_plate,
    normalize_renavam,
    plate_format,
    validate_cnh,
    validate_cpf,
    validate_plate,
    validate_renavam,
)

VALID_CPF = "111.444.777-35"
VALID_CNH = "13483291309"
VALID_RENAVAM = "41496072339"


@pytest.mark.article("Art. 5, IV")
def test_art_5_iv_cpf_valid_with_and_without_mask():
    assert normalize_cpf(VALID_CPF) == "11144477735"
    assert validate_cpf(VALID_CPF)
    assert validate_cpf("11144477735").articles == ("Art. 5, IV",)


@pytest.mark.article("Art. 5, IV")
@pytest.mark.parametrize("value", ["111.444.777-36", "111.111.111-11", "1114447773", "", "abc"])
def test_art_5_iv_cpf_invalid(value):
    decision = validate_cpf(value)
    assert not decision
    assert decision.codes == ("cpf_invalid",)
    assert "CPF" in decision.reasons[0].message


@pytest.mark.article("Art. 5, I")
def test_art_5_i_cnh():
    assert normalize_cnh("134.832.913-09") == VALID_CNH
    assert validate_cnh("134.832.913-09")
    bad = validate_cnh(VALID_CNH[:-1] + str((int(VALID_CNH[-1]) + 1) % 10))
    assert not bad and bad.codes == ("cnh_invalid",)


@pytest.mark.article("Art. 5, II")
def test_art_5_ii_renavam():
    assert normalize_renavam("4149607233-9") == VALID_RENAVAM
    assert validate_renavam("4149607233-9")
    bad = validate_renavam(VALID_RENAVAM[:-1] + str((int(VALID_RENAVAM[-1]) + 1) % 10))
    assert not bad and bad.codes == ("renavam_invalid",)
    assert not validate_renavam("123")


@pytest.mark.article("Art. 5, II")
def test_art_5_ii_plates_old_and_mercosul():
    assert normalize_plate(" abc-1234 ") == "ABC1234"
    assert plate_format("abc-1234") == "old"
    assert plate_format("BRA2E19") == "mercosul"
    assert validate_plate("abc-1234")
    assert validate_plate("bra 2e19")


@pytest.mark.article("Art. 5, II")
@pytest.mark.parametrize("value", ["AB12345", "ABCD123", "ABC12D3", "ABC123", ""])
def test_art_5_ii_plate_refused(value):
    decision = validate_plate(value)
    assert not decision and decision.codes == ("plate_invalid",)
    assert "placa" in decision.reasons[0].message
