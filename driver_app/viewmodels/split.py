"""The weekly split of the gross between auxiliary and permit holder (Art. 1, §3, §6), and the week's rides.

The split is ``taxilaw.split.split_week`` over the server's gross, the function the server's statement uses; the
screen says whether both agree to the centavo.  The statements are read off the UI thread (``Background``).

Each ride of the running week shows its payment (the server's ``method``/``payment_display``); one still "não
informado" offers "Registrar pagamento" (the payment screen reopened: ``PaymentViewModel.reopen``) while the week
is open -- the server decides (Art. 1, §3: a closed statement's rides are settled). A permit holder driving his own
cab sees his rides too, each marked "sem partilha" (Art. 1, §3 splits only an auxiliary's gross).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Callable, Optional

from taxilaw.brazil import br_date, brl
from taxilaw.flags import local_time
from taxilaw.settlement import METHOD_LABELS, METHOD_UNRECORDED, PARTY_AUXILIARY, PARTY_HOLDER
from taxilaw.split import PERMIT_HOLDER_EXPENSES_NOTE, SplitAgreement, WeeklySplit, split_week, week_start

from ..background import Background
from ..clients import ApiError, StatementsClient, offline
from .base import Observable

ORIGIN_LABELS = {"dispatched": "central", "street": "rua", "rank": "ponto"}
WEEKDAYS = ("seg", "ter", "qua", "qui", "sex", "sáb", "dom")


@dataclass(frozen=True)
class WeekRow:
    title: str
    period: str
    gross: str
    auxiliary: str
    permit_holder: str
    fares: int
    split: WeeklySplit
    closed: bool = False


@dataclass(frozen=True)
class RideLine:
    """One ride of the week: when it ended, its fare, where it came from, and the server's check (Art. 43)."""

    when: str  # "qua 04/03 21:58"
    fare: str
    origin: str  # central | rua | ponto
    disagreement: str  # "" or "Taxímetro divergente: servidor calculou R$ 19,10"
    ride_id: Optional[int] = None  # the central's number (None: the demo's fakes without one)
    amount: Decimal = Decimal("0.00")
    payment: str = ""  # "Pagamento: cartão" / "Pagamento: não informado"
    payable: bool = False  # unpaid, its week open: "Registrar pagamento"


def payment_text(row: dict, own: bool) -> str:
    """"Pagamento: Pix" (the server's words when it sent them); the holder's own rides: "sem partilha"."""
    method = row.get("method") or METHOD_UNRECORDED
    text = "Pagamento: " + (row.get("payment_display") or METHOD_LABELS.get(method, method))
    return text + (" · sem partilha" if own else "")


def ride_line(row: dict, own: bool = False, open_week: bool = True) -> RideLine:
    at = local_time(datetime.fromisoformat(str(row["completed_at"]).replace("Z", "+00:00")))
    server = row.get("server_total")
    disagreement = (f"Taxímetro divergente: servidor calculou {brl(Decimal(str(server)))}"
                    if row.get("meter_disagreement") and server is not None else
                    "Taxímetro divergente do recálculo" if row.get("meter_disagreement") else "")
    fare = Decimal(str(row["fare"]))
    ride_id = row.get("ride")
    unpaid = (row.get("method") or METHOD_UNRECORDED) == METHOD_UNRECORDED
    return RideLine(f"{WEEKDAYS[at.weekday()]} {at:%d/%m %H:%M}", brl(fare),
                    ORIGIN_LABELS.get(row.get("origin") or "street", "rua"), disagreement, ride_id, fare,
                    payment_text(row, own), bool(ride_id) and unpaid and open_week and fare > 0)


class SplitViewModel(Observable):
    title = "Partilha semanal"

    def __init__(self, statements: StatementsClient, token: Callable[[], Optional[str]] = lambda: None,
                 background: Optional[Background] = None):
        super().__init__()
        self.statements = statements  # StatementsClient
        self.token = token
        self.background = background or Background()
        self.loading = False
        self.rides: list[RideLine] = []  # this week's, in time order
        self.server_check = ""  # does the server's statement split the week as the app does?
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
        """Ask for the statements off the UI thread; "Carregando…" until they come (or the error does)."""
        self.role = role
        self.error, self.loading = "", True
        self.changed()
        token = self.token() or ""
        self.background.run(lambda: self.statements.weekly(token), lambda data: self._loaded(data, today),
                            self._failed)

    def retry(self, today: date) -> None:
        self.load(today, self.role)

    def _failed(self, exc: Exception) -> None:
        self.loading = False
        self.error = ("Sem conexão: extrato indisponível." if offline(exc)
                      else "A central não entregou o extrato agora." if isinstance(exc, ApiError) else
                      "Extrato ilegível: tente de novo.")
        self.changed()

    @property
    def status_text(self) -> str:
        return "Carregando o extrato…" if self.loading else self.error

    @property
    def empty_text(self) -> str:
        return "" if self.loading or self.rides or self.this_week is None else "Nenhuma corrida nesta semana."

    def _loaded(self, data: dict, today: date) -> None:
        self.loading = False
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
        self.this_week, self.past_weeks, self.rides, self.server_check = None, [], [], ""
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
                          brl(s.gross), brl(s.auxiliary), brl(s.permit_holder), int(w.get("fares", 0)), s,
                          bool(w.get("closed")))
            if monday == current:
                self.this_week = row
                own = agreement.kind == "own"
                self.rides = [ride_line(r, own, not w.get("closed"))
                              for r in sorted(w.get("rides", []), key=lambda r: str(r["completed_at"]))]
                self.server_check = self._check(w, s)
            elif monday < current:
                self.past_weeks.append(row)
        self.changed()

    @staticmethod
    def _check(week: dict, split: WeeklySplit) -> str:
        """The server's statement beside the app's split of the same gross (both ``taxilaw.split``)."""
        if "auxiliary_part" not in week:
            return ""  # the demo's fakes send no statement
        server = (Decimal(str(week["auxiliary_part"])), Decimal(str(week["holder_part"])))
        if server == (split.auxiliary, split.permit_holder):
            return "Confere com o extrato da central."
        return (f"Diferente do extrato da central: auxiliar {brl(server[0])}, permissionário {brl(server[1])}. "
                "Fale com a DIMUTRAN.")

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

    def line_of(self, ride_id: int) -> Optional[RideLine]:
        return next((line for line in self.rides if line.ride_id == ride_id), None)

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
