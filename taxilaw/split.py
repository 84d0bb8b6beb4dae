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

Readings (docs/readings-statements.md): the §6 regime recorded on an
auxiliary's authorization is checked by :func:`check_regime`; a contract's
percentage is strictly between 0 and 100 (0 or 100 is no partnership); a
ride recorded after its week was closed completes that week's gross and is
split by :func:`split_late_rides`, so the week's parts stay what one split
of its whole gross gives.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Iterable, Optional, Sequence

from .decision import Decision, Reason, refused
from .flags import MURIAE_TZ, local_time
from .i18n import gettext_noop as _

CENT = Decimal("0.01")

#: Art. 1, §3: the auxiliary's share when no written contract says otherwise.
AUXILIARY_SHARE_PERCENT = Decimal("25")

#: The regimes of an auxiliary's authorization: the partnership of Art. 1, §3 (25/75), a written
#: contract with two witnesses (Art. 1, §6) or employment under the CTPS (Art. 1, §6: no split).
REGIME_LAW = "law"
REGIME_CONTRACT = "contract"
REGIME_CTPS = "ctps"
REGIMES: tuple[str, ...] = (REGIME_LAW, REGIME_CONTRACT, REGIME_CTPS)

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
    ``witness_names``, when given, are the contract's witnesses (two distinct
    people); otherwise ``witnesses`` is their number as attested elsewhere.
    """

    kind: str = "law"
    auxiliary_percent: Decimal = AUXILIARY_SHARE_PERCENT
    witnesses: int = 0
    reference: str = ""
    signed_on: Optional[date] = None
    witness_names: tuple[str, ...] = ()
    ctps_number: str = ""
    ctps_series: str = ""

    @property
    def percent(self) -> Decimal:
        """The auxiliary's share: 25 by law (Art. 1, §3), the agreed one by contract, none under the CTPS (Art. 1, §6)."""
        if self.kind == REGIME_LAW:
            return AUXILIARY_SHARE_PERCENT
        if self.kind == REGIME_CTPS:
            return Decimal("0")
        return Decimal(str(self.auxiliary_percent))

    @property
    def witness_count(self) -> int:
        """How many distinct witnesses subscribed the contract (Art. 1, §6)."""
        if self.witness_names:
            return len({_person_key(n) for n in self.witness_names if _person_key(n)})
        return self.witnesses

    @property
    def splits(self) -> bool:
        """Is the gross divided between auxiliary and permit holder? Not under the CTPS (Art. 1, §6)."""
        return self.kind != REGIME_CTPS


LAW_SPLIT = SplitAgreement()


def _person_key(name: str) -> str:
    """A name compared the way a clerk would: case and extra blanks ignored."""
    return " ".join((name or "").split()).casefold()


def _percent_is_a_partnership(pct: Decimal) -> bool:
    """Art. 1, §6: an agreed share strictly between 0 and 100; 0 or 100 leaves one party with nothing."""
    return Decimal(0) < pct < Decimal(100)


BAD_PERCENT = _("O percentual do auxiliar no contrato deve ser maior que 0 e menor que 100 (informado: {pct}).")


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
    if agreement.witness_count < 2:
        reasons.append(Reason("Art. 1, §6", "split_contract_witnesses",
                              _("O contrato escrito deve ser subscrito por duas testemunhas."), {}))
    pct = Decimal(str(agreement.auxiliary_percent))
    if not _percent_is_a_partnership(pct):
        reasons.append(Reason("Art. 1, §6", "split_bad_percent", BAD_PERCENT, {"pct": str(pct)}))
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


def split_by_agreement(gross: Decimal, agreement: SplitAgreement = LAW_SPLIT) -> tuple[Decimal, Decimal]:
    """(auxiliary, permit holder) parts of a week's gross under the agreement (Art. 1, §3; Art. 1, §6).

    The law's 25/75 or the contract's agreed share, rounded as :func:`split_gross`
    (the parts sum exactly to the gross). Under the CTPS there is no partnership:
    the auxiliary's part is zero and the whole gross is the employer's (the
    permit holder's) revenue; the employee is paid under the employment contract.
    Raises ``ValueError`` for an unusable contract (:func:`validate_agreement`).
    """
    if not agreement.splits:
        gross = Decimal(str(gross))
        if gross < 0 or gross != gross.quantize(CENT):
            raise ValueError("gross must be a non-negative amount in cents")
        return Decimal("0.00"), gross
    ok = validate_agreement(agreement)
    if not ok:
        raise ValueError("; ".join(r.message for r in ok.reasons))
    return split_gross(gross, agreement.percent)


def split_late_rides(settled_gross: Decimal, late_gross: Decimal,
                     auxiliary_percent: Decimal = AUXILIARY_SHARE_PERCENT) -> tuple[Decimal, Decimal]:
    """(auxiliary, permit holder) parts of rides of a closed week recorded after its closing (Art. 1, §3).

    §3 splits "o valor bruto apurado semanalmente": a late ride belongs to the
    gross of the week in which it was completed. The closed statement is not
    rewritten; the late gross is carried as an adjustment whose parts are the
    difference between the split of the week's completed gross and the split
    already settled, so that settled + adjustment == ``split_gross(settled_gross
    + late_gross)`` to the cent. Both parts are never negative and sum exactly
    to ``late_gross``.
    """
    settled_gross, late_gross = Decimal(str(settled_gross)), Decimal(str(late_gross))
    if late_gross < 0 or late_gross != late_gross.quantize(CENT):
        raise ValueError("late gross must be a non-negative amount in cents")
    settled_aux, _settled_holder = split_gross(settled_gross, auxiliary_percent)
    whole_aux, _whole_holder = split_gross(settled_gross + late_gross, auxiliary_percent)
    auxiliary = whole_aux - settled_aux
    return auxiliary, late_gross - auxiliary


ONLY_CONTRACT = _("Percentual, data e testemunhas só se informam no regime de contrato escrito (Art. 1, §6).")

#: Which datum of :func:`check_regime` each of its reason codes is about.
REGIME_DATUM: dict[str, str] = {
    "split_unknown_kind": "kind",
    "regime_percent_missing": "auxiliary_percent",
    "split_bad_percent": "auxiliary_percent",
    "regime_percent_without_contract": "auxiliary_percent",
    "regime_contract_date_missing": "signed_on",
    "regime_contract_data_without_contract": "kind",
    "regime_witness_1_missing": "witness_1",
    "regime_witness_2_missing": "witness_2",
    "regime_witnesses_not_distinct": "witness_2",
    "regime_ctps_number_missing": "ctps_number",
    "regime_ctps_series_missing": "ctps_series",
    "regime_ctps_data_without_ctps": "ctps_number",
}


# Complexity kept: one check per clause of the split regime (Art. 1, §3 and §6), in the law's order, each with its reason.
def check_regime(kind: str, *, auxiliary_percent: Optional[Decimal] = None, signed_on: Optional[date] = None,  # noqa: C901
                 witnesses: Sequence[str] = ("", ""), ctps_number: str = "", ctps_series: str = "") -> Decision:
    """Is the split regime recorded on an auxiliary's authorization complete and coherent? (Art. 1, §3; Art. 1, §6).

    * ``law``: the partnership of §3 (25/75); no contract or CTPS data.
    * ``contract``: a written contract (§6) with the agreed auxiliary
      percentage (strictly between 0 and 100), its date and the names of two
      distinct witnesses; no CTPS data.
    * ``ctps``: employment under the CTPS (§6), number and series required; no split, so no percentage.

    ``witnesses`` are the two witnesses' names. Each reason's code says which
    datum is wrong (``REGIME_DATUM``), so a form can put the message on its field.
    """
    reasons: list[Reason] = []
    names = [" ".join((w or "").split()) for w in (list(witnesses) + ["", ""])[:2]]
    has_contract_data = bool(signed_on or any(names))
    has_ctps_data = bool((ctps_number or "").strip() or (ctps_series or "").strip())
    if kind not in REGIMES:
        return Decision.refuse(Reason("Art. 1, §6", "split_unknown_kind",
                                      _("Forma de ajuste desconhecida: {kind}."), {"kind": kind}))
    if kind == REGIME_CONTRACT:
        if auxiliary_percent is None:
            reasons.append(Reason("Art. 1, §6", "regime_percent_missing",
                                  _("Informe o percentual do auxiliar acordado no contrato escrito (Art. 1, §6)."), {}))
        elif not _percent_is_a_partnership(Decimal(str(auxiliary_percent))):
            reasons.append(Reason("Art. 1, §6", "split_bad_percent", BAD_PERCENT, {"pct": str(auxiliary_percent)}))
        if signed_on is None:
            reasons.append(Reason("Art. 1, §6", "regime_contract_date_missing",
                                  _("Informe a data do contrato escrito (Art. 1, §6)."), {}))
        for position, name in enumerate(names, start=1):
            if not name:
                reasons.append(Reason("Art. 1, §6", f"regime_witness_{position}_missing",
                                      _("O contrato escrito deve ser subscrito por duas testemunhas: informe o nome da {n}ª."),
                                      {"n": position}))
        if names[0] and names[1] and _person_key(names[0]) == _person_key(names[1]):
            reasons.append(Reason("Art. 1, §6", "regime_witnesses_not_distinct",
                                  _("As duas testemunhas do contrato devem ser pessoas diferentes."), {}))
    else:
        if auxiliary_percent is not None:
            reasons.append(Reason("Art. 1, §6", "regime_percent_without_contract", ONLY_CONTRACT, {}))
        if has_contract_data:
            reasons.append(Reason("Art. 1, §6", "regime_contract_data_without_contract", ONLY_CONTRACT, {}))
    if kind == REGIME_CTPS:
        if not (ctps_number or "").strip():
            reasons.append(Reason("Art. 1, §6", "regime_ctps_number_missing",
                                  _("Informe o número da CTPS do auxiliar empregado (Art. 1, §6)."), {}))
        if not (ctps_series or "").strip():
            reasons.append(Reason("Art. 1, §6", "regime_ctps_series_missing",
                                  _("Informe a série da CTPS do auxiliar empregado (Art. 1, §6)."), {}))
    elif has_ctps_data:
        reasons.append(Reason("Art. 1, §6", "regime_ctps_data_without_ctps",
                              _("Número e série da CTPS só se informam no regime de emprego com CTPS (Art. 1, §6)."), {}))
    if reasons:
        return Decision.refuse(*reasons)
    return Decision.allow("Art. 1, §3") if kind == REGIME_LAW else Decision.allow("Art. 1, §6")


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


def week_closable(monday: date, ended: bool) -> Decision:
    """A week's statements are closed from the Monday after it, once it ended (Art. 1, §3: the gross is weekly)."""
    if monday.weekday() != 0:
        return refused("Art. 1, §3", "statement_not_monday", _("A semana começa na segunda-feira ({day} não é)."), day=monday)
    if not ended:
        return refused("Art. 1, §3", "statement_week_open",
                       _("A semana de {day} ainda não terminou: só pode ser fechada a partir da segunda-feira seguinte."),
                       day=monday)
    return Decision.allow("Art. 1, §3")


def week_not_closed(already_closed: bool, monday: date) -> Decision:
    """A week is closed once; a closed statement is never redone (Art. 1, §3)."""
    if already_closed:
        return refused("Art. 1, §3", "statement_week_closed",
                       _("A semana de {day} já foi fechada; um extrato fechado nunca é refeito."), day=monday)
    return Decision.allow("Art. 1, §3")
