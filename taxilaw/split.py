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

from .decision import Decision, Reason
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


# --- Who collected what, and the transfer that settles the week (Art. 1, §3 to §6) -------------------------------
#
# Readings (docs/readings-statements.md, "Settlement"): the shares of §3 (or of the §6 contract) are of the week's
# gross, whoever received the money. What a partner received (in hand, on a Pix key, on a card machine) counts as
# received by them; the week is settled by one transfer, from the partner who received more than their share to
# the other, of the difference. A ride whose payment was not recorded counts as received by the driver in hand.

METHOD_CASH, METHOD_PIX, METHOD_CARD = "cash", "pix", "card"
#: The ways a fare is paid, recorded by the driver at the end of the ride.
PAYMENT_METHODS: tuple[str, ...] = (METHOD_CASH, METHOD_PIX, METHOD_CARD)
#: A completed ride whose payment was never recorded: the driver is taken to have received it in hand.
METHOD_UNRECORDED = "unrecorded"
METHOD_LABELS = {
    METHOD_CASH: _("dinheiro"), METHOD_PIX: _("Pix"), METHOD_CARD: _("cartão"), METHOD_UNRECORDED: _("não informado"),
}

PARTY_AUXILIARY, PARTY_HOLDER = "auxiliary", "holder"
PARTIES: tuple[str, ...] = (PARTY_AUXILIARY, PARTY_HOLDER)

#: Whose Pix key receives the fares an auxiliary drives: a term of the authorization, like the §6 regime.
PIX_TO_DRIVER, PIX_TO_HOLDER = "driver", "holder"
PIX_RECEIVERS: tuple[str, ...] = (PIX_TO_DRIVER, PIX_TO_HOLDER)


def payment_collector(method: str, *, driver_is_holder: bool, pix_receiver: str = PIX_TO_DRIVER,
                      card_machine: str = PIX_TO_DRIVER) -> str:
    """Which partner received a fare (Art. 1, §3): cash in the driver's hand, Pix on the key the authorization
    names (``pix_receiver``), card on the machine of ``card_machine`` (``"driver"`` or ``"holder"``)."""
    if driver_is_holder:
        return PARTY_HOLDER
    whose = {METHOD_CASH: PIX_TO_DRIVER, METHOD_UNRECORDED: PIX_TO_DRIVER,
             METHOD_PIX: pix_receiver, METHOD_CARD: card_machine}[method]
    return PARTY_HOLDER if whose == PIX_TO_HOLDER else PARTY_AUXILIARY


def check_charge(fare_held: bool) -> Decision:
    """May a completed ride's fare be charged to the passenger now: a Pix BR Code shown, a payment recorded?

    Art. 43 makes the meter's total the fare "a ser cobrado do usuário". A total held for DIMUTRAN's review
    (``taxilaw.meter.fare_hold``: far beyond the server's recomputation over the trip's trace, Art. 45, §5) is
    not yet known to be what the meter lawfully registered, so it is not charged, paid nor settled until DIMUTRAN
    decides; then the ride is charged and enters a statement like any other (a late one if its week has closed).
    """
    if fare_held:
        return Decision.refuse(Reason(
            "Art. 43", "payment_fare_held",
            _("O valor desta corrida está em revisão pela DIMUTRAN: não pode ser cobrado nem registrado como pago "
              "até a decisão. O passageiro não paga agora; depois da decisão o valor a pagar aparece na corrida."),
            {}), articles=("Art. 45, §5",))
    return Decision.allow("Art. 43")


def check_payment(method: str, fare: Optional[Decimal], *, card_machine: str = PIX_TO_DRIVER,
                  receiver_has_key: bool = True) -> Decision:
    """May a completed ride's fare (Art. 43: the meter's total) be recorded as paid this way?

    A known method; Pix and card need a fare above zero; Pix needs a key on the receiver's registry record; a
    card machine is the driver's or the holder's. Whether it may be charged at all is :func:`check_charge`.
    """
    reasons = []
    if method not in PAYMENT_METHODS:
        return Decision.refuse(Reason("Art. 43", "payment_unknown_method",
                                      _("Forma de pagamento desconhecida: {method}. Use dinheiro, Pix ou cartão."),
                                      {"method": method}))
    fare = Decimal(str(fare)) if fare is not None else None
    if method != METHOD_CASH and (fare is None or fare <= 0):
        reasons.append(Reason("Art. 43", "payment_no_fare",
                              _("Uma corrida sem valor de tarifa não pode ser paga por Pix ou cartão."), {}))
    if method == METHOD_PIX and not receiver_has_key:
        reasons.append(Reason("Art. 43", "payment_no_pix_key",
                              _("Quem recebe o Pix desta corrida não tem chave Pix cadastrada."), {}))
    if method == METHOD_CARD and card_machine not in PIX_RECEIVERS:
        reasons.append(Reason("Art. 43", "payment_bad_card_machine",
                              _("A maquininha de cartão é do motorista ou do permissionário."), {}))
    return Decision.refuse(*reasons) if reasons else Decision.allow("Art. 43")


@dataclass(frozen=True)
class Payment:
    """One fare and who received it, how (Art. 1, §3: part of the week's gross)."""

    fare: Decimal
    method: str
    collector: str


@dataclass(frozen=True)
class Settlement:
    """A week's shares, what each partner received by method, and the single transfer (Art. 1, §3-§6).

    ``payer`` pays ``payee`` ``amount``; both are ``None`` when nothing is owed. ``collected`` maps
    (party, method) to the amount received; :meth:`received` sums a party's.
    """

    gross: Decimal
    auxiliary_share: Decimal
    holder_share: Decimal
    collected: tuple[tuple[str, str, Decimal], ...]
    payer: Optional[str]
    payee: Optional[str]
    amount: Decimal

    def received(self, party: str, method: Optional[str] = None) -> Decimal:
        return sum((a for p, m, a in self.collected if p == party and method in (None, m)), Decimal("0.00"))

    def share(self, party: str) -> Decimal:
        return self.auxiliary_share if party == PARTY_AUXILIARY else self.holder_share

    def balance(self, party: str) -> Decimal:
        """What ``party`` is owed minus what they received: positive means they are to be paid."""
        return self.share(party) - self.received(party)


def settle(payments: Iterable[Payment], auxiliary_share: Decimal, holder_share: Decimal) -> Settlement:
    """The transfer that settles shares already computed against what each partner received (Art. 1, §3-§6).

    The shares must sum to the fares received (the week's gross, with any late rides carried); the transfer is
    owed minus received, exact to the centavo, so after it each partner holds exactly their share.
    """
    auxiliary_share, holder_share = Decimal(str(auxiliary_share)), Decimal(str(holder_share))
    by: dict[tuple[str, str], Decimal] = {}
    for p in payments:
        fare = Decimal(str(p.fare))
        if fare < 0 or fare != fare.quantize(CENT):
            raise ValueError("a fare is a non-negative amount in cents")
        if p.collector not in PARTIES or p.method not in (*PAYMENT_METHODS, METHOD_UNRECORDED):
            raise ValueError(f"unknown collector or method: {p.collector}, {p.method}")
        by[(p.collector, p.method)] = by.get((p.collector, p.method), Decimal("0.00")) + fare
    gross = sum(by.values(), Decimal("0.00"))
    if auxiliary_share + holder_share != gross:
        raise ValueError("the shares must sum to the fares received")
    order = {m: i for i, m in enumerate((*PAYMENT_METHODS, METHOD_UNRECORDED))}
    collected = tuple((p, m, by[(p, m)]) for p in PARTIES for m in sorted({m for q, m in by if q == p}, key=order.__getitem__))
    received_by_auxiliary = sum((a for p, _m, a in collected if p == PARTY_AUXILIARY), Decimal("0.00"))
    due = auxiliary_share - received_by_auxiliary
    payer: str | None
    payee: str | None
    if due > 0:
        payer, payee = PARTY_HOLDER, PARTY_AUXILIARY
    elif due < 0:
        payer, payee = PARTY_AUXILIARY, PARTY_HOLDER
    else:
        payer = payee = None
    return Settlement(gross, auxiliary_share, holder_share, collected, payer, payee, abs(due))


def settle_week(payments: Iterable[Payment], agreement: SplitAgreement = LAW_SPLIT) -> Settlement:
    """Split the week's gross by the agreement (25/75 or §6) and settle it against what each received."""
    payments = list(payments)
    gross = sum((Decimal(str(p.fare)) for p in payments), Decimal("0.00"))
    auxiliary, holder = split_by_agreement(gross, agreement)
    return settle(payments, auxiliary, holder)

