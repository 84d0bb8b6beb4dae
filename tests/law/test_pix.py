"""Pix: the BR Code of a static Pix (Banco Central's published examples) and Pix keys by kind.

The payment method itself is not in Lei 1.242/1987; the amount a BR Code carries is the fare, which is the
meter's total (Art. 43).
"""

from decimal import Decimal

import pytest
import zxingcpp
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from taxilaw import pix

# "Manual de Padrões para Iniciação do Pix" (Banco Central do Brasil), Anexo II, static QR code example.
PIX_MANUAL_STATIC = (
    "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR"
    "5913Fulano de Tal6008BRASILIA62070503***63041D3D"
)
# "Manual do BR Code" (Banco Central do Brasil, spb_docs/ManualBRCode.pdf): the full example, with another
# merchant account (04), another arrangement (27), amount, CEP (61), a txid (62/05) and a template 80.
BR_CODE_MANUAL = (
    "00020104141234567890123426580014BR.GOV.BCB.PIX0136123e4567-e12b-12d1-a456-42665544000027300012BR.COM.OUTRO"
    "011001234567895204000053039865406123.455802BR5917NOME DO RECEBEDOR6008BRASILIA61087007490062190515"
    "RP12345678-201980390012BR.COM.OUTRO01190123.ABCD.3456.WXYZ6304AD38"
)


def test_static_pix_reproduces_the_pix_manual_example():
    assert pix.static_pix("123e4567-e12b-12d1-a456-426655440000", "Fulano de Tal", "BRASILIA") == PIX_MANUAL_STATIC


def test_emv_encoder_reproduces_the_br_code_manual_example():
    fields = [
        ("00", "01"), ("04", "12345678901234"),
        ("26", pix.tlv("00", "BR.GOV.BCB.PIX") + pix.tlv("01", "123e4567-e12b-12d1-a456-426655440000")),
        ("27", pix.tlv("00", "BR.COM.OUTRO") + pix.tlv("01", "0123456789")),
        ("52", "0000"), ("53", "986"), ("54", "123.45"), ("58", "BR"), ("59", "NOME DO RECEBEDOR"),
        ("60", "BRASILIA"), ("61", "70074900"), ("62", pix.tlv("05", "RP12345678-2019")),
        ("80", pix.tlv("00", "BR.COM.OUTRO") + pix.tlv("01", "0123.ABCD.3456.WXYZ")),
    ]
    assert pix.emv(fields) == BR_CODE_MANUAL


def test_parse_reads_the_manual_example_and_refuses_a_bad_crc():
    fields = pix.parse(BR_CODE_MANUAL)
    assert fields["54"] == "123.45" and fields["59"] == "NOME DO RECEBEDOR"
    assert pix.parse_fields(fields["26"])["01"] == "123e4567-e12b-12d1-a456-426655440000"
    with pytest.raises(ValueError):
        pix.parse(BR_CODE_MANUAL[:-1] + "9")
    with pytest.raises(ValueError):
        pix.parse(PIX_MANUAL_STATIC.replace("Fulano", "Beltra"))


@pytest.mark.article("Art. 43")
def test_fare_description_txid_and_names_are_normalised():
    code = pix.static_pix("+5532999991234", "José da Conceição Araújo Filho", "São João del-Rei", Decimal("17.30"),
                          txid="corrida-1234", description="Corrida nº 1234 — táxi")
    fields = pix.parse(code)
    assert fields["54"] == "17.30"
    assert fields["59"] == "Jose da Conceicao Araujo"  # 25 characters at most, no accents
    assert fields["60"] == "Sao Joao del-Re"  # 15 at most
    assert pix.parse_fields(fields["62"]) == {"05": "corrida1234"}
    account = pix.parse_fields(fields["26"])
    assert account == {"00": "br.gov.bcb.pix", "01": "+5532999991234", "02": "Corrida no 1234 - taxi"}


def test_long_description_is_cut_to_fit_field_26():
    key = "a" * 60 + "@muriae.mg.gov.br"
    code = pix.static_pix(key, "Fulano", "Muriae", description="x" * 90)
    account = pix.parse(code)["26"]
    assert len(account) <= 99 and pix.parse_fields(account)["01"] == key


@pytest.mark.parametrize("amount", [Decimal("0"), Decimal("-1.00"), Decimal("1.005"), Decimal("10000000000.00")])
def test_bad_amounts_are_refused(amount):
    with pytest.raises(ValueError):
        pix.static_pix("fulano@example.com", "Fulano", "Muriae", amount)


@settings(deadline=None)  # checks values, not speed: a loaded CI machine must not fail it
@given(st.decimals(min_value=Decimal("0.01"), max_value=Decimal("99999.99"), places=2),
       st.text(min_size=1, max_size=40), st.text(min_size=1, max_size=30))
def test_any_fare_and_names_make_a_valid_code(amount, name, city):
    name, city = "Taxi " + name, "Muriae " + city
    fields = pix.parse(pix.static_pix("12345678909", name, city, amount))
    assert Decimal(fields["54"]) == amount
    assert fields["59"].isascii() and len(fields["59"]) <= 25 and len(fields["60"]) <= 15


def test_qr_image_decodes_to_the_same_payload(tmp_path):
    code = pix.static_pix("123e4567-e12b-12d1-a456-426655440000", "Fulano de Tal", "BRASILIA", Decimal("25.40"))
    path = tmp_path / "pix.png"
    path.write_bytes(pix.qr_png(code))
    found = zxingcpp.read_barcodes(Image.open(path).convert("L"))
    assert [r.text for r in found] == [code]
    assert found[0].format == zxingcpp.BarcodeFormat.QRCode


def test_qr_svg_is_a_document():
    svg = pix.qr_svg(PIX_MANUAL_STATIC)
    assert svg.lstrip().startswith("<svg") and "<script" not in svg


@pytest.mark.parametrize("kind,key,normal", [
    ("cpf", "123.456.789-09", "12345678909"),
    ("cnpj", "11.222.333/0001-81", "11222333000181"),
    ("phone", "(32) 99999-1234", "+5532999991234"),
    ("phone", "+55 32 99999-1234", "+5532999991234"),
    ("phone", "5532999991234", "+5532999991234"),
    ("email", "Fulano.Tal@Example.com.br", "fulano.tal@example.com.br"),
    ("evp", "123E4567-E12B-12D1-A456-426655440000", "123e4567-e12b-12d1-a456-426655440000"),
])
def test_valid_keys_are_normalised(kind, key, normal):
    check = pix.check_key(kind, key)
    assert check and check.key == normal


@pytest.mark.parametrize("kind,key,code,text", [
    ("cpf", "123.456.789-00", "pix_key_cpf_digits", "CPF inválido"),
    ("cpf", "1234567890", "pix_key_cpf_length", "11 dígitos"),
    ("cnpj", "11.222.333/0001-82", "pix_key_cnpj_digits", "CNPJ inválido"),
    ("phone", "(20) 99999-1234", "pix_key_phone_ddd", "DDD inexistente: 20"),
    ("phone", "(32) 3721-1234", "pix_key_phone_format", "Celular inválido"),
    ("phone", "(32) 89999-1234", "pix_key_phone_mobile", "celular"),
    ("phone", "+1 650 555 1234", "pix_key_phone_country", "+55"),
    ("email", "fulano@", "pix_key_email_format", "E-mail inválido"),
    ("email", "a" * 70 + "@example.com", "pix_key_email_length", "77"),
    ("evp", "123e4567e12b12d1a456426655440000", "pix_key_evp_format", "Chave aleatória inválida"),
    ("evp", "", "pix_key_missing", "Informe a chave Pix"),
    ("iban", "x", "pix_key_unknown_kind", "desconhecido"),
])
def test_bad_keys_get_a_portuguese_reason(kind, key, code, text):
    check = pix.check_key(kind, key)
    assert not check and check.key == ""
    assert check.decision.codes == (code,) and text in check.decision.reasons[0].message
