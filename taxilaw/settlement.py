"""Who collected what, and the transfer that settles the week (Art. 1, §3 to §6).

Readings (docs/readings-statements.md, "Settlement"): the shares of §3 (or of the §6 contract) are of the week's
gross, whoever received the money. What a partner received (in hand, on a Pix key, on a card machine) counts as
received by them; the week is settled by one transfer, from the partner who received more than their share to
the other, of the difference. A ride whose payment was not recorded counts as received by the driver in hand.
Nothing here imports Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Iterable, Optional

from .decision import Decision, Reason, refused
from .i18n import gettext_noop as _
from .split import CENT, LAW_SPLIT, SplitAgreement, split_by_agreement

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
    (``taxilaw.meter_check.fare_hold``: far beyond the server's recomputation over the trip's trace, Art. 45, §5) is
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


# --- recording a payment (Art. 43: the fare of a completed ride, paid once) --------------------------------------


def ride_payable(found: bool, completed: bool) -> Decision:
    """A driver records the payment of a ride of their own that was completed (Art. 43)."""
    if not found:
        return refused("Art. 43", "payment_ride_not_found", _("Corrida não encontrada entre as suas."))
    if not completed:
        return refused("Art. 43", "payment_ride_not_completed", _("Só se registra o pagamento de uma corrida concluída."))
    return Decision.allow("Art. 43")


def payment_not_recorded(already_recorded: bool) -> Decision:
    """A payment is recorded once (Art. 43)."""
    if already_recorded:
        return refused("Art. 43", "payment_already_recorded",
                       _("O pagamento desta corrida já foi registrado; um pagamento não se registra duas vezes."))
    return Decision.allow("Art. 43")


def ride_not_counted(counted_by_closed_statement: bool) -> Decision:
    """A ride a closed statement counted has its settlement closed: no payment is recorded on it (Art. 43)."""
    if counted_by_closed_statement:
        return refused("Art. 43", "payment_week_closed",
                       _("Esta corrida já foi contada num extrato fechado; o pagamento não pode mais ser registrado."))
    return Decision.allow("Art. 43")
