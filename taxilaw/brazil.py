"""How a Brazilian writes numbers, money, documents, dates and phones: the one place for these formats.

Django-free and pure Python (``phonenumberslite`` is pure Python and builds for Android with python-for-android),
so the server (templates, PDFs, CSVs, admin, dispatch pages) and the driver app format the same way:

- money ``R$ 1.234,56``; a negative amount ``-R$ 0,08`` (as the pages' ``Intl.NumberFormat("pt-BR")`` writes it),
  never ``R$ -0,08``; rounded half-up to the centavo;
- numbers with a decimal comma and a thousands dot ``1.234,5``; percentages ``12,5%``; distances ``850 m``,
  ``3,2 km``;
- CPF ``123.456.789-09``, CEP ``36880-000``, plates ``ABC-1234`` (old) and ``ABC1D23`` (Mercosul);
- dates ``31/12/2026`` and ``31/12/2026 14:05``;
- phones parsed and validated by Google's libphonenumber rules, stored in E.164 (``+5532999991234``) and shown as
  ``(32) 99999-1234``.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

import phonenumbers

CENT = Decimal("0.01")
REGION = "BR"

#: The one pt-BR answer to a phone number that cannot be a Brazilian phone (sign-up, bookings, the console).
PHONE_HINT = "Informe o telefone com DDD, por exemplo (32) 99999-1234."


def _decimal(value: Any) -> Decimal | None:
    if value is None or value == "":
        return None
    if isinstance(value, Decimal):
        return value
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None


def _swap(text: str) -> str:
    """Python's ``1,234.5`` -> ``1.234,5``."""
    return text.replace(",", "\x00").replace(".", ",").replace("\x00", ".")


def br_number(value: Any, places: int | None = None, rounding: str = ROUND_HALF_UP) -> str:
    """``1234.5`` -> ``1.234,50`` with ``places=2`` (``places`` defaults to the value's own); empty for None."""
    amount = _decimal(value)
    if amount is None:
        return "" if value is None or value == "" else str(value)
    if places is None:
        exponent = amount.as_tuple().exponent
        places = max(0, -exponent) if isinstance(exponent, int) else 2
    amount = amount.quantize(Decimal(1).scaleb(-places), rounding=rounding)
    text = _swap(f"{amount:,.{places}f}")
    return text[1:] if text.startswith("-") and text.strip("-0,.") == "" else text  # never "-0,00"


def brl(value: Any) -> str:
    """Money rounded half-up to the centavo: ``R$ 1.234,56``, ``-R$ 0,08``; empty for None."""
    text = br_number(value, 2)
    if not text:
        return ""
    return f"-R$ {text[1:]}" if text.startswith("-") else f"R$ {text}"


def plain_amount(value: Any) -> str:
    """``1234.5`` -> ``1234,50``: no thousands dot, so that a spreadsheet in pt-BR reads it as a number (CSVs), and
    the amount as a law text quotes it inside a sentence (``R$ 1234,50`` never; use :func:`brl` there)."""
    text = br_number(value, 2)
    return text.replace(".", "")


def percent(value: Any, places: int = 0, signed: bool = False) -> str:
    """A share (``0.125``) as ``12,5%`` with ``places=1``; ``signed`` writes ``+12%`` / ``-3%``; ``—`` for None."""
    share = _decimal(value)
    if share is None:
        return "—"
    text = br_number(share * 100, places)
    if signed and not text.startswith("-"):
        text = "+" + text
    return f"{text}%"


def distance(metres: Any) -> str:
    """``850 m`` under a kilometre (whole metres, truncated), then ``1,2 km`` (one decimal, half-up)."""
    value = float(metres or 0)
    return f"{int(value)} m" if value < 1000 else f"{br_number(Decimal(str(value)) / 1000, 1)} km"


def km(metres: Any, places: int = 2) -> str:
    """A distance in kilometres with ``places`` decimals, half-up: ``12,35`` (the unit is the caller's label)."""
    return br_number(Decimal(str(float(metres or 0))) / 1000, places)


def km_truncated(metres: Any) -> str:
    """``3,2 km``, one decimal truncated: the taximeter's display never runs ahead of the meter."""
    return f"{br_number(Decimal(str(max(float(metres or 0), 0.0))) / 1000, 1, ROUND_DOWN)} km"


def _digits(value: Any) -> str:
    return re.sub(r"\D", "", str(value or ""))


def cpf(value: Any) -> str:
    """``12345678909`` -> ``123.456.789-09``; anything not 11 digits is returned as given."""
    d = _digits(value)
    return f"{d[:3]}.{d[3:6]}.{d[6:9]}-{d[9:]}" if len(d) == 11 else str(value or "")


def cep(value: Any) -> str:
    """``36880000`` -> ``36880-000``; anything not 8 digits is returned as given."""
    d = _digits(value)
    return f"{d[:5]}-{d[5:]}" if len(d) == 8 else str(value or "")


def plate(value: Any) -> str:
    """``abc1234`` -> ``ABC-1234`` (the old plate); ``abc1d23`` -> ``ABC1D23`` (Mercosul, written without a dash)."""
    text = re.sub(r"[^0-9A-Za-z]", "", str(value or "")).upper()
    if re.fullmatch(r"[A-Z]{3}\d{4}", text):
        return f"{text[:3]}-{text[3:]}"
    return text if re.fullmatch(r"[A-Z]{3}\d[A-Z]\d{2}", text) else str(value or "")


def parse_date(value: Any) -> date | None:
    """A date, a datetime or an ISO string (the wire's dates) as a date; None for None or ""."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return date.fromisoformat(str(value)[:10])


def br_date(value: Any) -> str:
    """``31/12/2026`` (a date, a datetime or an ISO string); empty for None."""
    day = parse_date(value)
    return f"{day:%d/%m/%Y}" if day else ""


def br_datetime(value: datetime | None) -> str:
    """``31/12/2026 14:05`` in the datetime's own zone (convert to America/Sao_Paulo first); empty for None."""
    return f"{value:%d/%m/%Y %H:%M}" if value else ""


class PhoneError(ValueError):
    """Not a Brazilian phone number: ``str(error)`` is the pt-BR hint to show."""


def parse_phone(text: str) -> str:
    """A phone as typed (``(32) 99999-1234``, ``32 3721-1234``, ``+55 32 99999-1234``, ``032 ...``) -> E.164
    ``+5532999991234``. Refuses a number without DDD, of another country, or that no Brazilian plan allows."""
    raw = (text or "").strip()
    if not _digits(raw):
        raise PhoneError(PHONE_HINT)
    try:
        parsed = phonenumbers.parse(raw, REGION)
    except phonenumbers.NumberParseException:
        raise PhoneError(PHONE_HINT) from None
    if parsed.country_code != 55 or not phonenumbers.is_valid_number(parsed):
        raise PhoneError(PHONE_HINT)
    return phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.E164)


def is_mobile(e164: str) -> bool:
    """Is this (valid, E.164) number a Brazilian mobile (``+55 DD 9xxxx-xxxx``)?"""
    parsed = phonenumbers.parse(e164, REGION)
    return phonenumbers.number_type(parsed) in (phonenumbers.PhoneNumberType.MOBILE,
                                                phonenumbers.PhoneNumberType.FIXED_LINE_OR_MOBILE)


def phone(value: Any) -> str:
    """A stored phone as a Brazilian writes it: ``(32) 99999-1234``; what cannot be parsed is returned as given."""
    raw = str(value or "")
    try:
        parsed = phonenumbers.parse(raw, REGION)
    except phonenumbers.NumberParseException:
        return raw
    if not phonenumbers.is_valid_number(parsed):
        return raw
    fmt = phonenumbers.PhoneNumberFormat.NATIONAL if parsed.country_code == 55 else phonenumbers.PhoneNumberFormat.INTERNATIONAL
    return phonenumbers.format_number(parsed, fmt)


def phone_tail(value: Any) -> str:
    """The last 8 digits, which decide a caller across ways of writing (``(32) 99999-1234``, ``+5532999991234``,
    ``999991234``): the console's phone search."""
    return _digits(value)[-8:]
