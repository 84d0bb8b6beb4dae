"""Weekly split of the gross between the auxiliary driver and the permit holder.

Art. 1, §3: the auxiliary gets 25% "sobre o valor bruto apurado semanalmente
nas corridas", the permit holder 75% "do valor bruto apurado no final do
período".  Art. 1, §6: the parties may agree otherwise by a written contract
signed by two witnesses, or through the CTPS (employment: no split).
Art. 1, §2: fuel, plates, licensing and wear of the vehicle are borne by the
permit holder, never deducted from the auxiliary's share.

Readings (docs/readings-tariffs.md): the split is made per week (Monday 00:00
to the next Monday 00:00, America/Sao_Paulo) on the week's gross, not per
fare; the auxiliary's share is rounded half-up to the cent (so an odd half
centavo goes to the auxiliary) and the permit holder gets the exact remainder.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Iterable, Optional

from .decision import Decision, Reason
from .flags import MURIAE_TZ, local_time
from .i18n import gettext_noop as _

CENT = Decimal("0.01")

#: Art. 1, §3: the auxiliary's share when no written contract says otherwise.
AUXILIARY_SHARE_PERCENT = Decimal("25")

#: Art. 1, §2: expenses the permit holder bears "sem qualquer ônus para o motorista AUXILIAR".
PERMIT_HOLDER_EXPENSES: tuple[str, ...] = ("fuel", "plates", "licensing", "vehicle_wear")
PERMIT_HOLDER_EXPENSES_NOTE = _(
    "Combustível, emplacamento, licenciamento e desgaste do veículo são despesas do permissionário, "
    "sem qualquer ônus para o motorista auxiliar (Art. 1, §2)."
)


@dataclass(frozen=True)
class SplitAgreement:
    """How the gross is split (Art. 1, §3 and Art. 1, §6).

    ``kind``: ``"law"`` (25/75), ``"contract"`` (written, two witnesses,
    ``auxiliary_percent`` agreed) or ``"ctps"`` (employment: no split).
    """

    kind: str = "law"
    auxiliary_percent: Decimal = AUXILIARY_SHARE_PERCENT
    witnesses: int = 0
    reference: str = ""

    @property
    def percent(self) -> Decimal:
        return AUXILIARY_SHARE_PERCENT if self.kind == "law" else Decimal(str(self.auxiliary_percent))


LAW_SPLIT = SplitAgreement()


def validate_agreement(agreement: SplitAgreement) -> Decision:
    """Is the split agreement usable? (Art. 1, §3 and Art. 1, §6)."""
    if agreement.kind == "law":
        return Decision.allow("Art. 1, §3")
    if agreement.kind == "ctps":
        return Decision.refuse(Reason("Art. 1, §6", "split_ctps_employment",
                                      _("Auxiliar registrado em CTPS: não há partilha do valor bruto."), {}))
    reasons = []
    if agreement.kind != "contract":
        reasons.append(Reason("Art. 1, §6", "split_unknown_kind",
                              _("Forma de ajuste desconhecida: {kind}."), {"kind": agreement.kind}))
    if agreement.witnesses < 2:
        reasons.append(Reason("Art. 1, §6", "split_contract_witnesses",
                              _("O contrato escrito deve ser subscrito por duas testemunhas."), {}))
    pct = Decimal(str(agreement.auxiliary_percent))
    if not (Decimal(0) <= pct <= Decimal(100)):
        reasons.append(Reason("Art. 1, §6", "split_bad_percent",
                              _("O percentual do auxiliar deve estar entre 0 e 100 (informado: {pct})."),
                              {"pct": str(pct)}))
    if reasons:
        return Decision.refuse(*reasons)
    return Decision.allow("Art. 1, §6")


def split_gross(gross: Decimal, auxiliary_percent: Decimal = AUXILIARY_SHARE_PERCENT) -> tuple[Decimal, Decimal]:
    """(auxiliary, permit holder) parts of a week's gross (Art. 1, §3).

    The auxiliary's part is rounded half-up to the cent; the permit holder
    gets the remainder, so the parts always sum exactly to the gross.
    """
    gross = Decimal(str(gross))
    if gross < 0 or gross != gross.quantize(CENT):
        raise ValueError("gross must be a non-negative amount in cents")
    pct = Decimal(str(auxiliary_percent))
    if not (Decimal(0) <= pct <= Decimal(100)):
        raise ValueError("percent must be between 0 and 100")
    auxiliary = (gross * pct / 100).quantize(CENT, rounding=ROUND_HALF_UP)
    return auxiliary, gross - auxiliary


def auxiliary_may_be_charged(expense: str) -> Decision:
    """May this expense be deducted from the auxiliary? (Art. 1, §2): never for fuel, plates, licensing, wear."""
    if expense in PERMIT_HOLDER_EXPENSES:
        return Decision.refuse(Reason("Art. 1, §2", "expense_of_permit_holder", PERMIT_HOLDER_EXPENSES_NOTE,
                                      {"expense": expense}))
    return Decision.allow("Art. 1, §2")


def week_start(at: datetime | date) -> date:
    """The Monday (local date) of the week containing ``at`` (Art. 1, §3: "semanalmente")."""
    day = local_time(at).date() if isinstance(at, datetime) else at
    return day - timedelta(days=day.weekday())


def week_bounds(at: datetime | date) -> tuple[datetime, datetime]:
    """[Monday 00:00, next Monday 00:00) in America/Sao_Paulo around ``at`` (Art. 1, §3)."""
    monday = week_start(at)
    return (datetime.combine(monday, time(0), MURIAE_TZ),
            datetime.combine(monday + timedelta(days=7), time(0), MURIAE_TZ))


@dataclass(frozen=True)
class WeeklySplit:
    """One week's gross and its two parts (Art. 1, §3)."""

    week_start: date
    week_end: date  # Sunday, inclusive
    gross: Decimal
    auxiliary: Decimal
    permit_holder: Decimal
    auxiliary_percent: Decimal
    fares: int
    articles: tuple[str, ...] = ("Art. 1, §3",)
    note: str = PERMIT_HOLDER_EXPENSES_NOTE


def weekly_splits(fares: Iterable[tuple[datetime, Decimal]],
                  agreement: SplitAgreement = LAW_SPLIT) -> list[WeeklySplit]:
    """Group fares ``(ended_at, amount)`` by local week and split each week's gross (Art. 1, §3).

    Raises ``ValueError`` when the agreement is not usable (see
    :func:`validate_agreement`, Art. 1, §6)."""
    ok = validate_agreement(agreement)
    if not ok:
        raise ValueError("; ".join(r.message for r in ok.reasons))
    weeks: dict[date, list[Decimal]] = {}
    for at, amount in fares:
        weeks.setdefault(week_start(at), []).append(Decimal(str(amount)))
    out = []
    for monday in sorted(weeks):
        gross = sum(weeks[monday], Decimal("0.00"))
        aux, holder = split_gross(gross, agreement.percent)
        articles = ("Art. 1, §3",) if agreement.kind == "law" else ("Art. 1, §3", "Art. 1, §6")
        out.append(WeeklySplit(monday, monday + timedelta(days=6), gross, aux, holder,
                               agreement.percent, len(weeks[monday]), articles))
    return out


def split_week(gross: Decimal, at: datetime | date, agreement: Optional[SplitAgreement] = None) -> WeeklySplit:
    """Split one week's already-summed gross (Art. 1, §3)."""
    agreement = agreement or LAW_SPLIT
    ok = validate_agreement(agreement)
    if not ok:
        raise ValueError("; ".join(r.message for r in ok.reasons))
    monday = week_start(at)
    aux, holder = split_gross(gross, agreement.percent)
    articles = ("Art. 1, §3",) if agreement.kind == "law" else ("Art. 1, §3", "Art. 1, §6")
    return WeeklySplit(monday, monday + timedelta(days=6), Decimal(str(gross)), aux, holder,
                       agreement.percent, 0, articles)
