"""Transfers of a permit: Art. 6, I-IV and §1-5, Art. 7 (via permits), Art. 65."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Collection, Optional

from .calendar import add_years, day_term_end
from .decision import Decision, Reason, refused
from .i18n import gettext_noop
from .parameters import Parameters
from .permits import LAW_IN_FORCE_ON, CandidateFacts, may_grant_permit, to_cents
from .vehicles import may_admit_vehicle, vehicle_age

#: Art. 6, I: the transferee's vehicle has at most 2 years of manufacture.
TRANSFER_MAX_VEHICLE_AGE_YEARS = 2
#: Art. 6, I and Art. 6, §1: a permit is not transferable for 2 years.
NON_TRANSFERABLE_YEARS = 2
#: Art. 6, II: days after the death to file the request.
DEATH_REQUEST_DAYS = 120
#: Art. 65: the transitional window lasts 3 years from the law's entry in force.
TRANSITIONAL_WINDOW_YEARS = 3


class TransferKind(str, enum.Enum):
    INTER_VIVOS = "inter_vivos"  # Art. 6, I
    DEATH = "death"  # Art. 6, II
    INCAPACITY = "incapacity"  # Art. 6, III
    RETIREMENT = "retirement"  # Art. 6, IV (reading: "se aposente")
    TRANSITIONAL = "transitional"  # Art. 65


class Beneficiary(str, enum.Enum):
    SPOUSE = "spouse"
    HEIR = "heir"
    THIRD_PARTY = "third_party"


class VehicleType(str, enum.Enum):
    TAXI = "taxi"  # Art. 6, §3, a
    BUS = "bus"  # Art. 6, §3, b
    MINIBUS = "minibus"  # Art. 6, §3, c


_FEE_PARAMETER = {
    VehicleType.TAXI: "transfer_fee_taxi_upfm",
    VehicleType.BUS: "transfer_fee_bus_upfm",
    VehicleType.MINIBUS: "transfer_fee_minibus_upfm",
}

#: Kinds to which the 2-year non-transferability does not apply (Art. 6, I, final part).
_EXEMPT_FROM_BAR = frozenset({TransferKind.DEATH, TransferKind.INCAPACITY, TransferKind.RETIREMENT})


@dataclass(frozen=True)
class TransferFacts:
    """Facts of a request to transfer a permit. ``on`` (given to :func:`may_transfer`) is the transfer date."""

    kind: TransferKind
    permit_granted_on: date
    transferee_is_autonomous_professional: bool
    transferee_is_permit_holder: bool
    transferee_vehicle_model_year: int
    last_transferred_on: Optional[date] = None  # when the permit last changed hands
    transferee_had_permit_revoked: bool = False  # Art. 9, § único
    transferee_last_ceded_permit_on: Optional[date] = None  # Art. 7
    # Art. 6, II (death)
    death_date: Optional[date] = None
    requested_on: Optional[date] = None
    beneficiary: Optional[Beneficiary] = None
    per_partition_or_court_order: bool = False
    # Art. 6, III and IV
    incapacity_proven: bool = False
    retirement_proven: bool = False
    # Art. 65
    transferee_acquires_cedent_vehicle: bool = False
    municipal_holidays: Collection[date] = ()
    # The dated parameter ``permit_transfers_allowed`` on the request's date: 0 since STF ADI 5337 (11/03/2021).
    transfers_allowed: bool = True


def transferable_from(permit_granted_on: date, last_transferred_on: Optional[date]) -> Optional[date]:
    """First day an inter vivos transfer is allowed (Art. 6, I and Art. 6, §1), or ``None`` if already free.

    2 years must have elapsed since the last transfer (Art. 6, I) and, for
    permits granted after the law came in force, since the grant (Art. 6, §1).
    """
    candidates = []
    if last_transferred_on is not None:
        candidates.append(last_transferred_on)
    if permit_granted_on >= LAW_IN_FORCE_ON:
        candidates.append(permit_granted_on)
    if not candidates:
        return None
    return add_years(max(candidates), NON_TRANSFERABLE_YEARS) + timedelta(days=1)


def death_request_deadline(death_date: date, municipal_holidays: Collection[date] = ()) -> date:
    """Last day to file the transfer request after the holder's death: 120 days (Art. 6, II)."""
    return day_term_end(death_date, DEATH_REQUEST_DAYS, municipal_holidays)


def transitional_window_closes() -> date:
    """Last day of the Art. 65 window: 3 years from 28 December 1987."""
    return add_years(LAW_IN_FORCE_ON, TRANSITIONAL_WINDOW_YEARS)


def transitional_window_open(on: date) -> Decision:
    """Art. 65: pre-law permits could be transferred with the cedent's vehicle for 3 years; closed since 1990-12-28."""
    closes = transitional_window_closes()
    if LAW_IN_FORCE_ON <= on <= closes:
        return Decision.allow("Art. 65")
    return Decision.refuse(
        Reason(
            "Art. 65",
            "transitional_window_closed",
            gettext_noop("O prazo transitório do Art. 65 terminou em {closes} (Art. 65)."),
            {"closes": closes},
        )
    )


def transfers_in_force(allowed: bool) -> Decision:
    """Whether a permit may change hands at all (Art. 6, I-IV; Art. 65): the dated parameter
    ``permit_transfers_allowed``, 0 since STF ADI 5337 (ata of 11/03/2021) held that handing a taxi outorga to third
    parties or to heirs breaks isonomy and impessoalidade (CF art. 5, caput; art. 37, caput): the permit returns to
    the municipality and goes to a new contest (Art. 15). Reading in docs/readings-registry.md."""
    if allowed:
        return Decision.allow("Art. 6")
    return Decision.refuse(Reason(
        "Art. 6", "transfers_struck_down",
        gettext_noop("A transferência da permissão a terceiros ou herdeiros não é admitida (STF, ADI 5337): a "
                     "permissão retorna ao Município e é outorgada por concurso (Art. 15)."),
    ))


# Complexity kept: one check per condition of a transfer (Art. 6, I-II, 65), in the law's order, each with its reason.
def may_transfer(facts: TransferFacts, on: date) -> Decision:  # noqa: C901
    """May the permit be transferred on ``on``? Every condition of Art. 6 and Art. 65.

    * Art. 6 (caput), Art. 2, Art. 2, § único, Art. 7, Art. 9, § único: the
      transferee must meet every condition of a new permit: autonomous
      professional, not already a permit holder, not barred.
    * Art. 6, I: inter vivos, to a vehicle of at most 2 years of manufacture
      (age counted as in Art. 28, § único); not within 2 years of the last
      transfer nor, for post-law permits, of the grant (Art. 6, §1).
    * Art. 6, II: death; request within 120 days of the death, to the spouse,
      an heir or a third party per the partition or court order; no 2-year bar.
    * Art. 6, III: incapacity proven; no 2-year bar.
    * Art. 6, IV: retirement in the exercise of the profession (reading of
      "se apresente" as "se aposente"); no 2-year bar.
    * Art. 28: in every case the vehicle has at most 10 years.
    * Art. 65: the transitional window, closed since 1990-12-28.
    """
    kind = TransferKind(facts.kind)
    decisions: list[Decision] = [transfers_in_force(facts.transfers_allowed)]

    transferee = CandidateFacts(
        is_autonomous_professional=facts.transferee_is_autonomous_professional,
        holds_permit=facts.transferee_is_permit_holder,
        last_ceded_permit_on=facts.transferee_last_ceded_permit_on,
        had_permit_revoked=facts.transferee_had_permit_revoked,
    )
    decisions.append(Decision.all_of(Decision.allow("Art. 6"), may_grant_permit(transferee, on)))
    decisions.append(may_admit_vehicle(facts.transferee_vehicle_model_year, on))

    if kind in (TransferKind.INTER_VIVOS, TransferKind.TRANSITIONAL):
        if kind is TransferKind.INTER_VIVOS:
            age = vehicle_age(facts.transferee_vehicle_model_year, on)
            if age > TRANSFER_MAX_VEHICLE_AGE_YEARS:
                decisions.append(
                    Decision.refuse(
                        Reason(
                            "Art. 6, I",
                            "transfer_vehicle_too_old",
                            gettext_noop("Na transferência o veículo deve ter até 2 anos de fabricação; tem {age} (Art. 6, I)."),
                            {"age": age},
                        )
                    )
                )
            else:
                decisions.append(Decision.allow("Art. 6, I"))
        else:
            decisions.append(transitional_window_open(on))
            if facts.permit_granted_on >= LAW_IN_FORCE_ON:
                decisions.append(
                    Decision.refuse(
                        Reason(
                            "Art. 65",
                            "transitional_not_pre_law",
                            gettext_noop("O Art. 65 só se aplica a permissões existentes na data da entrada em vigor da lei (Art. 65)."),
                        )
                    )
                )
            if not facts.transferee_acquires_cedent_vehicle:
                decisions.append(
                    Decision.refuse(
                        Reason(
                            "Art. 65",
                            "transitional_vehicle_not_acquired",
                            gettext_noop("Pelo Art. 65 o adquirente deve adquirir o veículo do cedente (Art. 65)."),
                        )
                    )
                )
        free_from = transferable_from(facts.permit_granted_on, facts.last_transferred_on)
        if free_from is not None and on < free_from:
            by_transfer = facts.last_transferred_on is not None and (
                facts.permit_granted_on < LAW_IN_FORCE_ON or facts.last_transferred_on >= facts.permit_granted_on
            )
            decisions.append(
                Decision.refuse(
                    Reason(
                        "Art. 6, I" if by_transfer else "Art. 6, §1",
                        "transfer_within_two_years",
                        gettext_noop("A permissão é intransferível por 2 anos; só pode ser transferida a partir de {free_from} (Art. 6, I e §1)."),
                        {"free_from": free_from},
                    )
                )
            )
        else:
            decisions.append(Decision.allow("Art. 6, §1"))

    elif kind is TransferKind.DEATH:
        reasons = []
        if facts.death_date is None or facts.requested_on is None:
            reasons.append(
                Reason("Art. 6, II", "death_facts_missing", gettext_noop("Informe a data do falecimento e a data do requerimento (Art. 6, II)."))
            )
        else:
            deadline = death_request_deadline(facts.death_date, facts.municipal_holidays)
            if facts.requested_on > deadline:
                reasons.append(
                    Reason(
                        "Art. 6, II",
                        "death_request_late",
                        gettext_noop("O requerimento devia ser protocolado até {deadline}, 120 dias do falecimento (Art. 6, II)."),
                        {"deadline": deadline},
                    )
                )
        if facts.beneficiary is None:
            reasons.append(
                Reason(
                    "Art. 6, II",
                    "beneficiary_missing",
                    gettext_noop("Informe se o beneficiário é o cônjuge, herdeiro ou terceiro (Art. 6, II)."),
                )
            )
        if not facts.per_partition_or_court_order:
            reasons.append(
                Reason(
                    "Art. 6, II",
                    "partition_missing",
                    gettext_noop("A transferência por falecimento segue a partilha ou alvará judicial, que deve ser apresentado (Art. 6, II)."),
                )
            )
        decisions.append(Decision.refuse(*reasons) if reasons else Decision.allow("Art. 6, II"))

    elif kind is TransferKind.INCAPACITY:
        if facts.incapacity_proven:
            decisions.append(Decision.allow("Art. 6, III"))
        else:
            decisions.append(
                Decision.refuse(
                    Reason(
                        "Art. 6, III",
                        "incapacity_not_proven",
                        gettext_noop("A incapacidade do permissionário por motivo de saúde deve ser comprovada (Art. 6, III)."),
                    )
                )
            )

    elif kind is TransferKind.RETIREMENT:
        if facts.retirement_proven:
            decisions.append(Decision.allow("Art. 6, IV"))
        else:
            decisions.append(
                Decision.refuse(
                    Reason(
                        "Art. 6, IV",
                        "retirement_not_proven",
                        gettext_noop("A aposentadoria do permissionário no exercício da profissão deve ser comprovada (Art. 6, IV)."),
                    )
                )
            )

    return Decision.all_of(*decisions)


def transfer_fee(
    kind: TransferKind,
    beneficiary: Optional[Beneficiary],
    vehicle_type: VehicleType,
    params: Parameters,
    on: date,
) -> Decimal:
    """Transfer fee paid by the cedent in R$ (Art. 6, §2, Art. 6, §3, a-c, Art. 6, §4).

    10 UPFM for a taxi (Art. 6, §3, a), 50 for a bus (Art. 6, §3, b), 20 for a
    minibus (Art. 6, §3, c), times ``upfm_brl`` on ``on``; a transfer on death
    (Art. 6, II) is exempt unless it is to a third party (Art. 6, §4).
    """
    if TransferKind(kind) is TransferKind.DEATH and beneficiary is not None and Beneficiary(beneficiary) is not Beneficiary.THIRD_PARTY:
        return Decimal("0.00")
    upfm = Decimal(params.as_of(_FEE_PARAMETER[VehicleType(vehicle_type)], on))
    return to_cents(upfm * Decimal(params.as_of("upfm_brl", on)))


def is_fee_exempt(kind: TransferKind, beneficiary: Optional[Beneficiary]) -> bool:
    """Art. 6, §4: death transfers not in favour of a third party are exempt."""
    return TransferKind(kind) is TransferKind.DEATH and beneficiary is not None and Beneficiary(beneficiary) is not Beneficiary.THIRD_PARTY


def may_issue_alvara_after_transfer(fee_paid: bool, exempt: bool = False) -> Decision:
    """On a transfer the alvará is issued only after proof the fee was paid (Art. 6, §5); exempt transfers need none (Art. 6, §4)."""
    if exempt:
        return Decision.allow("Art. 6, §4", "Art. 6, §5")
    if fee_paid:
        return Decision.allow("Art. 6, §5")
    return Decision.refuse(
        Reason(
            "Art. 6, §5",
            "transfer_fee_unpaid",
            gettext_noop("O alvará só é concedido após a comprovação do pagamento da taxa de transferência (Art. 6, §5)."),
        )
    )


def may_request_transfer(permit_active: bool, same_person: bool) -> tuple[Decision, Decision]:
    """Only an active permit with a holder is transferred, and to another person (Art. 6): the permit's answer,
    the transferee's."""
    permit = (refused("Art. 6", "permit_not_active", gettext_noop("Só uma permissão ativa pode ser transferida."))
              if not permit_active else Decision.allow("Art. 6"))
    transferee = (refused("Art. 6", "same_person", gettext_noop("O cessionário deve ser outra pessoa."))
                  if same_person else Decision.allow("Art. 6"))
    return permit, transferee


def may_pay_fee(awaiting_fee: bool) -> Decision:
    """The fee is paid once, on a transfer awaiting it; the alvará follows (Art. 6, §5)."""
    if not awaiting_fee:
        return refused("Art. 6, §5", "transfer_closed", gettext_noop("Esta transferência já foi concluída."))
    return Decision.allow("Art. 6, §5")
