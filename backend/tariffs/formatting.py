"""Brazilian number and money formatting: R$ 1.234,56."""

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

CENT = Decimal("0.01")


def br_number(value, places: int | None = None) -> str:
    """``1234.5`` -> ``1.234,50`` (``places`` defaults to the value's own)."""
    if value is None or value == "":
        return ""
    try:
        number = value if isinstance(value, Decimal) else Decimal(str(value))
    except (InvalidOperation, ValueError):
        return str(value)
    if places is None:
        exponent = number.as_tuple().exponent
        places = max(0, -exponent) if isinstance(exponent, int) else 2
    number = number.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    text = f"{number:,.{places}f}"
    return text.replace(",", "\x00").replace(".", ",").replace("\x00", ".")


def brl(value) -> str:
    """Money rounded to the cent: ``R$ 1.234,56``; a negative amount ``-R$ 0,08`` (as a Brazilian writes it, and as
    the pages' ``Intl.NumberFormat("pt-BR")`` does), never ``R$ -0,08``."""
    if value is None or value == "":
        return ""
    text = br_number(value, 2)
    if text.startswith("-"):
        return "R$ 0,00" if text.strip("-0,.") == "" else f"-R$ {text[1:]}"
    return f"R$ {text}"
