"""Pix: the Banco Central's BR Code for a static Pix and the validation of Pix keys.

Not a rule of Lei 1.242/1987 but the way a fare (Art. 43: the meter's total is
the fare) is paid: the driver shows a static Pix QR code for the fare, whose
text is also the "Pix copia e cola". Django-free so that the backend, the
passenger page and the Kivy app build the very same payload.

The payload is the BR Code (EMV QR Code Merchant-Presented Mode, Banco Central
do Brasil, "Manual do BR Code" and "Manual de Padrões para Iniciação do Pix",
Anexo II): ID-length-value fields, the Pix arrangement in field 26 (GUI
``br.gov.bcb.pix``, key in 01, optional description in 02), category 52 =
0000, currency 53 = 986 (BRL), amount 54, country 58 = BR, merchant name 59
(≤ 25) and city 60 (≤ 15), both in printable ASCII (names in other scripts are transliterated by
``anyascii``: "Иван Петров" is "Ivan Petrov"), additional data 62 with the txid in 05 (``***``
when none) and the CRC16-CCITT-FALSE (poly 0x1021, init 0xFFFF) of the whole
text, its own ``6304`` included, in 63. No Python library for it is well kept
(the PyPI ones are single-author packages with no releases for years), so this
is a small encoder; the CRC is the standard library's ``binascii.crc_hqx``.

Keys (Manual de Padrões, "chaves Pix"): CPF (11 digits, valid check digits),
CNPJ (14 digits), phone (+55, DDD, number: ``+5532999991234``), e-mail (≤ 77
characters) and the random key (EVP, a UUID). :func:`check_key` returns the
normalised key or pt-BR reasons.
"""

from __future__ import annotations

import binascii
import io
import re
import unicodedata
import uuid
from dataclasses import dataclass
from decimal import Decimal
from typing import Optional

import segno
from anyascii import anyascii
from validate_docbr import CNPJ, CPF

from . import brazil
from .decision import Decision, Reason
from .i18n import gettext_noop as _

PIX_GUI = "br.gov.bcb.pix"
MERCHANT_NAME_MAX = 25
MERCHANT_CITY_MAX = 15
TXID_MAX = 25
KEY_MAX = 77
EMAIL_MAX = 77
NO_TXID = "***"
UNNAMED_RECEIVER = "RECEBEDOR"
#: Field 26 holds at most 99 characters: GUI (18) + key (4 + n) + description (4 + m).
ACCOUNT_INFO_MAX = 99

KIND_CPF, KIND_CNPJ, KIND_PHONE, KIND_EMAIL, KIND_EVP = "cpf", "cnpj", "phone", "email", "evp"
KEY_KINDS: tuple[str, ...] = (KIND_CPF, KIND_CNPJ, KIND_PHONE, KIND_EMAIL, KIND_EVP)

#: Brazilian area codes (DDD) in use (Anatel).
DDDS = frozenset({
    11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 24, 27, 28, 31, 32, 33, 34, 35, 37, 38, 41, 42, 43, 44, 45, 46,
    47, 48, 49, 51, 53, 54, 55, 61, 62, 63, 64, 65, 66, 67, 68, 69, 71, 73, 74, 75, 77, 79, 81, 82, 83, 84, 85,
    86, 87, 88, 89, 91, 92, 93, 94, 95, 96, 97, 98, 99,
})

_EMAIL = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$")
_TXID = re.compile(r"^[A-Za-z0-9]{1,25}$")


def tlv(field_id: str, value: str) -> str:
    """One EMV field: two-digit ID, two-digit length, value (at most 99 characters)."""
    if not re.fullmatch(r"\d\d", field_id):
        raise ValueError(f"bad EMV field id {field_id!r}")
    if len(value) > 99:
        raise ValueError(f"EMV field {field_id} longer than 99 characters")
    return f"{field_id}{len(value):02d}{value}"


def crc16(text: str) -> str:
    """CRC16-CCITT-FALSE (poly 0x1021, init 0xFFFF) as four upper-case hex digits."""
    return f"{binascii.crc_hqx(text.encode('utf-8'), 0xFFFF):04X}"


def with_crc(body: str) -> str:
    """``body`` followed by field 63: its ID and length are part of what the CRC covers."""
    head = body + "6304"
    return head + crc16(head)


def emv(fields: list[tuple[str, str]]) -> str:
    """A BR Code from fields in order (template values already encoded), with its CRC."""
    return with_crc("".join(tlv(i, v) for i, v in fields))


def ascii_text(text: str, limit: int) -> str:
    """Text reduced to the BR Code's charset: transliterated to ASCII (``anyascii``: ISC licence, pure Python, so it
    builds for Android; accents dropped, Cyrillic, Greek, Arabic or CJK romanised), printable characters only, blanks
    collapsed, cut to ``limit``."""
    plain = anyascii(unicodedata.normalize("NFC", text or ""))
    plain = "".join(c if " " <= c <= "~" else " " for c in plain)
    return " ".join(plain.split())[:limit].rstrip()


def check_receiver_name(name: str) -> Decision:
    """Can ``name`` be a BR Code's receiver (field 59)? Refused only when nothing of it survives transliteration."""
    if ascii_text(name, MERCHANT_NAME_MAX):
        return Decision.allow("Pix")
    return Decision.refuse(Reason("Pix", "pix_receiver_name_unusable",
                                  _("O nome cadastrado não tem letras nem números que o Pix aceite no QR code: "
                                    "corrija o nome no cadastro antes de registrar a chave Pix."), {}))


def format_amount(amount: Decimal) -> str:
    """Field 54: the amount with a dot and two decimals (``123.45``), positive."""
    amount = Decimal(str(amount))
    if amount <= 0 or amount != amount.quantize(Decimal("0.01")):
        raise ValueError("a Pix amount is positive, to the cent")
    text = f"{amount:.2f}"
    if len(text) > 13:
        raise ValueError("a Pix amount has at most 13 characters")
    return text


@dataclass(frozen=True)
class StaticPix:
    """What a static Pix BR Code carries."""

    key: str
    merchant_name: str
    merchant_city: str
    amount: Optional[Decimal] = None
    txid: str = NO_TXID
    description: str = ""

    def payload(self) -> str:
        """The BR Code text (the "Pix copia e cola")."""
        key = self.key.strip()
        if not key or len(key) > KEY_MAX:
            raise ValueError("a Pix key has 1 to 77 characters")
        room = ACCOUNT_INFO_MAX - len(tlv("00", PIX_GUI)) - len(tlv("01", key)) - 4
        description = ascii_text(self.description, max(room, 0))
        account = tlv("00", PIX_GUI) + tlv("01", key) + (tlv("02", description) if description else "")
        txid = self.txid if self.txid == NO_TXID else re.sub(r"[^A-Za-z0-9]", "", self.txid)[:TXID_MAX]
        if not txid:
            txid = NO_TXID
        # A name changed after its key was registered (check_receiver_name refuses it there) may leave nothing:
        # the payer's bank shows the key holder's name from the Pix directory, so field 59 only must not be empty.
        name = ascii_text(self.merchant_name, MERCHANT_NAME_MAX) or UNNAMED_RECEIVER
        city = ascii_text(self.merchant_city, MERCHANT_CITY_MAX)
        if not city:
            raise ValueError("a BR Code needs the receiver's city")
        fields = [("00", "01"), ("26", account), ("52", "0000"), ("53", "986")]
        if self.amount is not None:
            fields.append(("54", format_amount(self.amount)))
        fields += [("58", "BR"), ("59", name), ("60", city), ("62", tlv("05", txid))]
        return emv(fields)


def static_pix(key: str, merchant_name: str, merchant_city: str, amount: Optional[Decimal] = None,
               txid: str = NO_TXID, description: str = "") -> str:
    """The BR Code of a static Pix (see :class:`StaticPix`)."""
    return StaticPix(key, merchant_name, merchant_city, amount, txid, description).payload()


def parse(payload: str) -> dict[str, str]:
    """The top-level fields of a BR Code, checking its lengths and CRC; ``ValueError`` if broken."""
    if len(payload) < 8 or payload[-8:-4] != "6304" or crc16(payload[:-4]) != payload[-4:].upper():
        raise ValueError("BR Code with a bad CRC")
    return parse_fields(payload)


def parse_fields(text: str) -> dict[str, str]:
    """ID-length-value fields of ``text`` (a payload or a template's value)."""
    fields, at = {}, 0
    while at < len(text):
        head = text[at:at + 4]
        if len(head) < 4 or not head.isdigit() or at + 4 + int(head[2:]) > len(text):
            raise ValueError("BR Code with a broken field")
        fields[head[:2]] = text[at + 4:at + 4 + int(head[2:])]
        at += 4 + int(head[2:])
    return fields


@dataclass(frozen=True)
class KeyCheck:
    """A Pix key checked: its normalised form (as the bank's directory keeps it) and the decision."""

    key: str
    decision: Decision

    def __bool__(self) -> bool:
        return self.decision.allowed


def _refuse(code: str, message: str, **params) -> KeyCheck:
    return KeyCheck("", Decision.refuse(Reason("Pix", code, message, params)))


# Complexity kept: one branch per Pix key kind the BCB defines (CPF, CNPJ, phone, e-mail, random), each with its pt-BR message.
def _phone_key(raw: str) -> KeyCheck:
    """A Pix phone key: a Brazilian mobile in E.164, parsed by the one phone rule (:func:`taxilaw.brazil.parse_phone`);
    when refused, the digits say why (country, DDD, not a mobile, or the shape)."""
    digits = re.sub(r"\D", "", raw)
    if raw.startswith("+") and not digits.startswith("55"):
        return _refuse("pix_key_phone_country", _("A chave celular deve ser um número do Brasil (+55)."))
    try:
        e164: str | None = brazil.parse_phone(raw)
    except brazil.PhoneError:
        e164 = None
    if e164 is not None and brazil.is_mobile(e164):
        return KeyCheck(e164, Decision.allow("Pix"))
    national = digits[2:] if len(digits) == 13 and digits.startswith("55") else digits
    if e164 is None and len(national) == 11 and int(national[:2]) not in DDDS:
        return _refuse("pix_key_phone_ddd", _("DDD inexistente: {ddd}."), ddd=national[:2])
    if e164 is None and len(national) == 11 and national[2] != "9":
        return _refuse("pix_key_phone_mobile", _("A chave celular deve ser um número de celular (começa com 9)."))
    return _refuse("pix_key_phone_format",
                   _("Celular inválido: informe DDD e número de 9 dígitos, como +55 32 99999-1234."))


def check_key(kind: str, key: str) -> KeyCheck:  # noqa: C901
    """Is ``key`` a well-formed Pix key of ``kind``? Returns the normalised key or the pt-BR reason."""
    raw = (key or "").strip()
    if kind not in KEY_KINDS:
        return _refuse("pix_key_unknown_kind", _("Tipo de chave Pix desconhecido: {kind}."), kind=kind)
    if not raw:
        return _refuse("pix_key_missing", _("Informe a chave Pix."))
    if kind in (KIND_CPF, KIND_CNPJ):
        digits = re.sub(r"[.\-/\s]", "", raw)
        size, validator = (11, CPF()) if kind == KIND_CPF else (14, CNPJ())
        label = "CPF" if kind == KIND_CPF else "CNPJ"
        if not digits.isdigit() or len(digits) != size:
            return _refuse(f"pix_key_{kind}_length", _("A chave {label} deve ter {size} dígitos."), label=label, size=size)
        if not validator.validate(digits):
            return _refuse(f"pix_key_{kind}_digits", _("{label} inválido: os dígitos verificadores não conferem."),
                           label=label)
        return KeyCheck(digits, Decision.allow("Pix"))
    if kind == KIND_PHONE:
        return _phone_key(raw)
    if kind == KIND_EMAIL:
        if len(raw) > EMAIL_MAX:
            return _refuse("pix_key_email_length", _("A chave e-mail tem no máximo {n} caracteres."), n=EMAIL_MAX)
        if not _EMAIL.match(raw):
            return _refuse("pix_key_email_format", _("E-mail inválido: {key}."), key=raw)
        return KeyCheck(raw.lower(), Decision.allow("Pix"))
    try:
        evp = uuid.UUID(raw)
    except ValueError:
        evp = None
    if evp is None or len(raw) != 36 or str(evp) != raw.lower():
        return _refuse("pix_key_evp_format",
                       _("Chave aleatória inválida: deve ter 36 caracteres no formato 123e4567-e89b-12d3-a456-426614174000."))
    return KeyCheck(str(evp), Decision.allow("Pix"))


def qr_png(payload: str, scale: int = 8) -> bytes:
    """The QR code of ``payload`` as PNG bytes (segno: pure Python, no dependency, ISO/IEC 18004 encoder).

    Error correction M, as the Banco Central recommends for BR Codes; segno may raise it if it fits.
    """
    out = io.BytesIO()
    segno.make_qr(payload, error="m").save(out, kind="png", scale=scale, border=4)
    return out.getvalue()


def qr_svg(payload: str, scale: int = 4) -> str:
    """The QR code of ``payload`` as an SVG document (for web pages)."""
    out = io.BytesIO()
    segno.make_qr(payload, error="m").save(out, kind="svg", scale=scale, border=4, xmldecl=False)
    return out.getvalue().decode("utf-8")


def qr_data_uri(payload: str) -> str:
    """The QR code of ``payload`` as an SVG ``data:`` URI, for an ``<img src>`` (no markup inserted in the page)."""
    return segno.make_qr(payload, error="m").svg_data_uri(scale=4, border=4)
