"""The weekly split of the gross between auxiliary and permit holder (Art. 1, §3, §6)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Callable, Optional

from taxilaw.split import (
    METHOD_LABELS,
    PARTY_AUXILIARY,
    PARTY_HOLDER,
    PERMIT_HOLDER_EXPENSES_NOTE,
    SplitAgreement,
    WeeklySplit,
    split_week,
    week_start,
)

from ..clients import ApiError, StatementsClient
from ..formatting import br_date, brl
from .base import Observable


@dataclass(frozen=True)
class WeekRow:
    title: str
    period: str
    gross: str
    auxiliary: str
    permit_holder: str
    fares: int
    split: WeeklySplit


class SplitViewModel(Observable):
    title = "Partilha semanal"

    def __init__(self, statements: StatementsClient, token: Callable[[], Optional[str]] = lambda: None):
        super().__init__()
        self.statements = statements  # StatementsClient
        self.token = token
        self.role = ""
        self.this_week: Optional[WeekRow] = None
        self.past_weeks: list[WeekRow] = []
        self.agreement_text = ""
        self.error = ""
        self.no_split = False
        self.note = PERMIT_HOLDER_EXPENSES_NOTE
        self.settlement_text = ""  # the running week's transfer between the partners (Art. 1, §3-§6)
        self.received_text = ""

    def load(self, today: date, role: str = "") -> None:
        self.role = role
        self.error = ""
        try:
            data = self.statements.weekly(self.token() or "")
        except (ApiError, ConnectionError, OSError):
            self.error = "Sem conexão: extrato indisponível."
            self.changed()
            return
        a = data.get("agreement") or {}
        agreement = SplitAgreement(kind=a.get("kind", "law"),
                                   auxiliary_percent=Decimal(str(a.get("auxiliary_percent", "25"))),
                                   witnesses=int(a.get("witnesses", 0)), reference=a.get("reference", ""))
        self.no_split = agreement.kind in ("ctps", "own")
        if agreement.kind == "own":
            self.agreement_text = "Condução do próprio permissionário: sem partilha"
        elif agreement.kind == "ctps":
            self.agreement_text = "Auxiliar com CTPS: não há partilha (Art. 1, §6)"
        elif agreement.kind == "contract":
            self.agreement_text = f"Contrato escrito: auxiliar {agreement.percent}% (Art. 1, §6)"
        else:
            self.agreement_text = "Lei: auxiliar 25%, permissionário 75% (Art. 1, §3)"
        self._settlement(data.get("settlement"))
        current = week_start(today)
        self.this_week, self.past_weeks = None, []
        weeks = {}
        for w in data.get("weeks", []):
            weeks[date.fromisoformat(w["week_start"])] = w
        weeks.setdefault(current, {"week_start": current.isoformat(), "gross": "0.00", "fares": 0})
        for monday in sorted(weeks, reverse=True):
            w = weeks[monday]
            gross = Decimal(str(w["gross"])).quantize(Decimal("0.01"))
            if self.no_split:
                s = WeeklySplit(monday, monday, gross, Decimal("0.00"), gross, Decimal(0), int(w.get("fares", 0)),
                                ("Art. 1, §6",))
            else:
                s = split_week(gross, monday, agreement)
            row = WeekRow("Esta semana" if monday == current else f"Semana de {br_date(monday)}",
                          f"{br_date(s.week_start)} a {br_date(monday.fromordinal(monday.toordinal() + 6))}",
                          brl(s.gross), brl(s.auxiliary), brl(s.permit_holder), int(w.get("fares", 0)), s)
            if monday == current:
                self.this_week = row
            elif monday < current:
                self.past_weeks.append(row)
        self.changed()

    def _settlement(self, settlement: Optional[dict]) -> None:
        """What I received this week by method, and the transfer that would settle it now."""
        if not settlement:
            self.settlement_text = self.received_text = ""
            return
        me = PARTY_AUXILIARY if self.role == "auxiliar" else PARTY_HOLDER
        mine = [c for c in settlement.get("collected", []) if c.get("party") == me and Decimal(str(c["amount"]))]
        parts = [f"{METHOD_LABELS.get(c['method'], c['method'])} {brl(Decimal(str(c['amount'])))}" for c in mine]
        self.received_text = "Você recebeu: " + (" · ".join(parts) if parts else brl(Decimal("0")))
        self.settlement_text = "Acerto até agora: " + settlement.get("transfer", "")

    @property
    def my_part_label(self) -> str:
        return "Sua parte (auxiliar)" if self.role == "auxiliar" else "Sua parte (permissionário)"

    @property
    def my_part(self) -> str:
        if self.this_week is None:
            return ""
        if self.no_split and self.role == "auxiliar":
            return "sem partilha"
        return self.this_week.auxiliary if self.role == "auxiliar" else self.this_week.permit_holder
