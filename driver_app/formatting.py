"""Brazilian display formats (R$ 1.234,56; 3,2 km; 00:04:10; dd/mm/aaaa)."""

from __future__ import annotations

from datetime import date, datetime
from decimal import ROUND_DOWN, Decimal
from typing import Any, Optional


def brl(value: Any) -> str:
    """``R$ 12,34`` (thousands with a dot, cents with a comma; never rounds up)."""
    amount = Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_DOWN)
    sign = "-" if amount < 0 else ""
    whole, cents = f"{abs(amount):.2f}".split(".")
    groups = []
    while len(whole) > 3:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    groups.insert(0, whole)
    return f"{sign}R$ {'.'.join(groups)},{cents}"


def km(metres: float) -> str:
    """``3,2 km`` (one decimal, truncated: the display never runs ahead of the meter)."""
    tenths = int(max(metres, 0.0) // 100)
    return f"{tenths // 10},{tenths % 10} km"


def hms(seconds: float) -> str:
    """``00:04:10`` (whole seconds, truncated)."""
    s = int(max(seconds, 0.0))
    return f"{s // 3600:02d}:{s % 3600 // 60:02d}:{s % 60:02d}"


def mmss(seconds: float) -> str:
    s = int(max(seconds, 0.0) + 0.999)  # a countdown shows 0:01 until it really ends
    return f"{s // 60}:{s % 60:02d}"


def parse_date(value: Any) -> Optional[date]:
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return date.fromisoformat(str(value)[:10])


def br_date(value: Any) -> str:
    """``31/12/2026``; empty for None."""
    day = parse_date(value)
    return day.strftime("%d/%m/%Y") if day else ""
