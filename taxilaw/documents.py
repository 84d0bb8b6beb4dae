"""Identity and vehicle documents: CPF, CNH, RENAVAM and licence plates.

Check digits are validated by ``validate_docbr`` (never by hand). Each
``validate_*`` returns a :class:`Decision`; each ``normalize_*`` strips the
punctuation people type (dots, dashes, spaces).
"""

from __future__ import annotations

import re

from validate_docbr import CNH, CPF, RENAVAM

from .decision import Decision, Reason
from .i18n import gettext_noop

ART_CPF = "Art. 5, IV"
ART_CNH = "Art. 5, I"
ART_VEHICLE = "Art. 5, II"

_CPF = CPF()
_CNH = CNH()
_RENAVAM = RENAVAM()

_NON_DIGITS = re.compile(r"\D")
_NON_ALNUM = re.compile(r"[^A-Z0-9]")
_OLD_PLATE = re.compile(r"^[A-Z]{3}[0-9]{4}$")
_MERCOSUL_PLATE = re.compile(r"^[A-Z]{3}[0-9][A-Z][0-9]{2}$")


def only_digits(value: str) -> str:
    return _NON_DIGITS.sub("", value or "")


def normalize_cpf(value: str) -> str:
    """CPF as 11 digits, punctuation stripped (``"111.444.777-35"`` -> ``"11144477735"``)."""
    return only_digits(value)


def normalize_cnh(value: str) -> str:
    """CNH registration number as 11 digits."""
    return only_digits(value)


def normalize_renavam(value: str) -> str:
    """RENAVAM as 11 digits."""
    return only_digits(value)


def normalize_plate(value: str) -> str:
    """Plate in upper case without dash or spaces (``"abc-1234"`` -> ``"ABC1234"``)."""
    return _NON_ALNUM.sub("", (value or "").upper())


def validate_cpf(value: str) -> Decision:
    """CPF of the permit holder or auxiliary (Art. 5, IV), check digits by validate-docbr."""
    digits = normalize_cpf(value)
    if len(digits) == 11 and _CPF.validate(digits):
        return Decision.allow(ART_CPF)
    return Decision.refuse(
        Reason(ART_CPF, "cpf_invalid", gettext_noop("O CPF {value} é inválido (Art. 5, IV)."), {"value": value})
    )


def validate_cnh(value: str) -> Decision:
    """CNH number, the proof of professional licence (Art. 5, I), check digits by validate-docbr."""
    digits = normalize_cnh(value)
    if len(digits) == 11 and _CNH.validate(digits):
        return Decision.allow(ART_CNH)
    return Decision.refuse(
        Reason(ART_CNH, "cnh_invalid", gettext_noop("O número da CNH {value} é inválido (Art. 5, I)."), {"value": value})
    )


def validate_renavam(value: str) -> Decision:
    """RENAVAM of the vehicle's registration certificate (Art. 5, II), check digit by validate-docbr."""
    digits = normalize_renavam(value)
    if len(digits) == 11 and _RENAVAM.validate(digits):
        return Decision.allow(ART_VEHICLE)
    return Decision.refuse(
        Reason(ART_VEHICLE, "renavam_invalid", gettext_noop("O RENAVAM {value} é inválido (Art. 5, II)."), {"value": value})
    )


def plate_format(value: str) -> str | None:
    """``"old"`` (ABC1234), ``"mercosul"`` (ABC1D23) or ``None`` for anything else."""
    plate = normalize_plate(value)
    if _OLD_PLATE.match(plate):
        return "old"
    if _MERCOSUL_PLATE.match(plate):
        return "mercosul"
    return None


def validate_plate(value: str) -> Decision:
    """Licence plate of the vehicle (Art. 5, II): old ``ABC1234`` or Mercosul ``ABC1D23``."""
    if plate_format(value) is not None:
        return Decision.allow(ART_VEHICLE)
    return Decision.refuse(
        Reason(
            ART_VEHICLE,
            "plate_invalid",
            gettext_noop("A placa {value} é inválida: use o formato ABC1234 ou Mercosul ABC1D23 (Art. 5, II)."),
            {"value": value},
        )
    )
