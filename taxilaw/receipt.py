"""A ride's receipt: the meter's total broken into what made it, to the cent (Art. 1, VII; Art. 43; Art. 45).

The lines are the bandeirada (Art. 1, VII), the kilometres charged in Bandeira I and
in Bandeira II (Art. 45, I-II), the waiting time (the hour's price below the
crossover speed), the meter's whole-fraction display (it never rounds up) and, when
the taxi's meter and the server's recomputation differ, that difference: they sum
exactly to the amount paid, which is what the taxi's meter showed (Art. 43).

No Django here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_DOWN, Decimal
from typing import Iterable, Mapping, Sequence

from .brazil import br_number
from .i18n import gettext_noop as _
from .meter_data import MeterReading
from .tariffs import Tariff

CENT = Decimal("0.01")


@dataclass(frozen=True)
class ReceiptLine:
    code: str  # bandeirada | km_b1 | km_b2 | waiting | fraction | meter_difference | correction (Art. 45, §3)
    label: str  # pt-BR msgid (translate with gettext)
    quantity: str  # "2,35 km", "03:20", "" (formatted by the caller's locale: plain numbers here)
    amount: Decimal
    article: str

    def to_dict(self) -> dict:
        return {"code": self.code, "label": self.label, "quantity": self.quantity, "amount": str(self.amount),
                "article": self.article}


def _cents(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_DOWN)


def fare_breakdown(reading: MeterReading, tariff: Tariff, paid: Decimal) -> list[ReceiptLine]:
    """Lines that sum exactly to ``paid`` (the taxi meter's total) from the server's ``reading`` of the trace."""
    km_b1, km_b2 = Decimal(reading.charged_m_b1) / 1000, Decimal(reading.charged_m_b2) / 1000
    waiting = Decimal(reading.waiting_s)
    lines = [ReceiptLine("bandeirada", _("Bandeirada"), "", tariff.bandeirada, "Art. 1, VII")]
    if km_b1 > 0:
        lines.append(ReceiptLine("km_b1", _("Quilômetros em Bandeira I"), f"{br_number(km_b1, 2)} km",
                                 _cents(km_b1 * tariff.price_km_b1), "Art. 45, I"))
    if km_b2 > 0:
        lines.append(ReceiptLine("km_b2", _("Quilômetros em Bandeira II"), f"{br_number(km_b2, 2)} km",
                                 _cents(km_b2 * tariff.price_km_b2), "Art. 45, II"))
    if _cents(waiting * tariff.price_hour_waiting / 3600) > 0:  # a few seconds at a light cost nothing
        seconds = int(waiting)
        lines.append(ReceiptLine("waiting", _("Tempo de espera"), f"{seconds // 60:02d}:{seconds % 60:02d}",
                                 _cents(waiting * tariff.price_hour_waiting / 3600), "Art. 45"))
    fraction = reading.total - sum((line.amount for line in lines), Decimal("0"))
    if fraction:
        lines.append(ReceiptLine("fraction", _("Ajuste às frações do taxímetro (não arredonda para cima)"), "",
                                 fraction, "Art. 43"))
    difference = Decimal(paid) - reading.total
    if difference:
        lines.append(ReceiptLine("meter_difference", _("Diferença entre o taxímetro do táxi e o recálculo do trajeto"),
                                 "", difference, "Art. 43"))
    return lines


def total(lines: Iterable[ReceiptLine]) -> Decimal:
    return sum((line.amount for line in lines), Decimal("0"))


@dataclass(frozen=True)
class TraceSummary:
    fixes: int
    duration_s: float
    km: float


def trace_summary(trace: Sequence[Mapping], distance_m: float | None) -> TraceSummary:
    """How many fixes, how long and how far (the server's distance), for the admin and the receipt."""
    duration = 0.0
    if len(trace) >= 2:
        duration = (datetime.fromisoformat(trace[-1]["t"]) - datetime.fromisoformat(trace[0]["t"])).total_seconds()
    return TraceSummary(len(trace), max(duration, 0.0), (distance_m or 0.0) / 1000)
