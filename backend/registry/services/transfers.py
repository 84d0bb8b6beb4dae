"""Transfers of a permit (Art. 6, 7, 65)."""

from __future__ import annotations

from datetime import date

from django.db import transaction

from backend.api_errors import require
from backend.parameters.selectors import current_parameters, municipal_holidays
from taxilaw import permits as permit_law
from taxilaw import transfers as law

from ..models import Alvara, Auxiliary, Permit, Person, Transfer
from ..selectors import candidate_facts, vehicle_in_service
from . import vehicles as vehicle_services


def _last_transferred_on(permit: Permit) -> date | None:
    return (
        permit.transfers.filter(status=Transfer.Status.COMPLETED)
        .order_by("-completed_on")
        .values_list("completed_on", flat=True)
        .first()
    )


@transaction.atomic
def request_transfer(
    *,
    permit: Permit,
    transferee: Person,
    kind: str,
    requested_on: date,
    beneficiary: str | None = None,
    death_date: date | None = None,
    per_partition_or_court_order: bool = False,
    incapacity_proven: bool = False,
    retirement_proven: bool = False,
    fee_paid_on: date | None = None,
    vehicle: dict | None = None,
) -> Transfer:
    """Transfer the permit when every condition of Art. 6 holds (Art. 6, I-IV, Art. 6, §1-5, Art. 7).

    ``vehicle`` is the transferee's taxi (Art. 6, I asks for one of at most 2
    years of manufacture); without it the transferee keeps the cab in
    service (the usual case of heirs). The cedent pays the fee (Art. 6, §2-3)
    and the alvará comes only after it is paid (Art. 6, §5).
    """
    permit = Permit.objects.select_for_update().get(pk=permit.pk)
    active, other = law.may_request_transfer(
        permit.status == Permit.Status.ACTIVE and permit.holder_id is not None, transferee.pk == permit.holder_id)
    require(active)
    require(other, "transferee")
    current_vehicle = vehicle_in_service(permit)
    model_year = vehicle["model_year"] if vehicle else (current_vehicle.model_year if current_vehicle else 0)
    candidate = candidate_facts(transferee)
    holidays = municipal_holidays()
    facts = law.TransferFacts(
        kind=law.TransferKind(kind),
        permit_granted_on=permit.term_signed_on or permit.held_since,
        transferee_is_autonomous_professional=transferee.is_autonomous_professional,
        transferee_is_permit_holder=candidate.holds_permit,
        transferee_vehicle_model_year=model_year,
        last_transferred_on=_last_transferred_on(permit),
        transferee_had_permit_revoked=candidate.had_permit_revoked,
        transferee_last_ceded_permit_on=candidate.last_ceded_permit_on,
        death_date=death_date,
        requested_on=requested_on,
        beneficiary=law.Beneficiary(beneficiary) if beneficiary else None,
        per_partition_or_court_order=per_partition_or_court_order,
        incapacity_proven=incapacity_proven,
        retirement_proven=retirement_proven,
        municipal_holidays=holidays,
        transfers_allowed=bool(int(current_parameters().as_of("permit_transfers_allowed", requested_on))),
    )
    require(law.may_transfer(facts, requested_on))
    fee = law.transfer_fee(facts.kind, facts.beneficiary, law.VehicleType.TAXI, current_parameters(), requested_on)
    transfer = Transfer.objects.create(
        permit=permit,
        cedent=permit.holder,
        transferee=transferee,
        kind=facts.kind.value,
        beneficiary=beneficiary or "",
        requested_on=requested_on,
        death_date=death_date,
        fee_brl=fee,
        fee_paid_on=fee_paid_on,
        status=Transfer.Status.AWAITING_FEE,
        transferee_vehicle=vehicle or {},
    )
    if law.may_issue_alvara_after_transfer(fee_paid_on is not None, law.is_fee_exempt(facts.kind, facts.beneficiary)):
        _complete(transfer, fee_paid_on or requested_on)
    return transfer


@transaction.atomic
def pay_transfer_fee(*, transfer: Transfer, paid_on: date) -> Transfer:
    """Record the fee's payment; the alvará is then issued to the new holder (Art. 6, §5)."""
    transfer = Transfer.objects.select_for_update().get(pk=transfer.pk)
    require(law.may_pay_fee(transfer.status == Transfer.Status.AWAITING_FEE))
    transfer.fee_paid_on = paid_on
    transfer.save(update_fields=["fee_paid_on"])
    _complete(transfer, paid_on)
    return transfer


def _complete(transfer: Transfer, on: date) -> None:
    permit = transfer.permit
    # The former holder's auxiliaries were designated by them (Art. 1, IV): the new holder designates anew.
    permit.auxiliaries.filter(status=Auxiliary.Status.ACTIVE).update(
        status=Auxiliary.Status.CANCELLED, cancelled_on=on, cancel_reason="transferência da permissão"
    )
    permit.holder = transfer.transferee
    permit.held_since = on
    permit.origin = Permit.Origin.TRANSFER
    permit.save(update_fields=["holder", "held_since", "origin"])
    if transfer.transferee_vehicle:
        vehicle_services.replace_vehicle(permit=permit, on=on, **transfer.transferee_vehicle)
    Alvara.objects.create(permit=permit, kind=Alvara.Kind.TRANSFER, issued_on=on, expires_on=permit_law.alvara_expiry(on))
    transfer.status = Transfer.Status.COMPLETED
    transfer.completed_on = on
    transfer.save(update_fields=["status", "completed_on"])
