"""Auxiliary drivers, their social-security proofs and the CMT (Art. 1, IV, §5-6; Art. 48-52)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext

from backend.api_errors import LawViolation, require
from backend.parameters.selectors import current_parameters
from taxilaw import auxiliaries as law
from taxilaw.decision import Decision
from taxilaw.split import REGIME_CONTRACT, REGIME_DATUM, check_regime

from ..models import Auxiliary, Cmt, Permit, Person, SocialSecurityProof
from ..selectors import active_auxiliaries


class RegimeViolation(LawViolation):
    """A refusal of the §6 regime data whose reasons concern different fields: each message goes on its field.

    The API answers 400 with ``detail`` and ``reasons`` as for any :class:`LawViolation`, plus, per field of
    the authorization (``Auxiliary.REGIME_FIELDS``), the messages about it, like a serializer error.
    """

    def __init__(self, decision: Decision, fields: dict[str, list[str]]):
        super().__init__(decision)
        self.fields = fields

    def payload(self) -> dict:
        body = super().payload()
        for field, messages in self.fields.items():
            body.setdefault(field, []).extend(messages)
        return body


def require_regime(decision: Decision) -> Decision:
    """Raise :class:`RegimeViolation` unless ``taxilaw.split.check_regime`` allowed; messages on their fields."""
    if decision:
        return decision
    fields: dict[str, list[str]] = {}
    for reason in decision.reasons:
        field = Auxiliary.REGIME_FIELDS[REGIME_DATUM.get(reason.code, "kind")]
        fields.setdefault(field, []).append(reason.render(gettext))
    raise RegimeViolation(decision, fields)


def _clean(text: str | None) -> str:
    return " ".join((text or "").split())


@transaction.atomic
def authorize_auxiliary(
    *,
    permit: Permit,
    person: Person,
    on: date,
    split_regime: str | None = None,
    contract_auxiliary_percent: Decimal | None = None,
    contract_reference: str = "",
    contract_signed_on: date | None = None,
    contract_witness_1: str = "",
    contract_witness_2: str = "",
    ctps_number: str = "",
    ctps_series: str = "",
    pix_receiver: str = Auxiliary.PixReceiver.DRIVER,
) -> Auxiliary:
    """Register an auxiliary on a permit: at most 2, or 1 for a co-owned cab (Art. 48), enrolled (Art. 49, Art. 52),
    with the regime of the gross's split (Art. 1, §3 and §6).

    ``split_regime`` is ``law`` (the §3 partnership, 25/75), ``contract`` (a written contract: the agreed
    ``contract_auxiliary_percent``, ``contract_signed_on`` and the two witnesses) or ``ctps`` (employment:
    ``ctps_number`` and ``ctps_series``), checked by ``taxilaw.split.check_regime``; each refusal is put on
    its field. Without ``split_regime``, a percentage with only its contract's reference is registered as
    before (``Auxiliary.regime`` reads it as a written contract); any other regime datum then needs the
    regime named (``law`` is assumed, so the datum is refused on its field).
    """
    contract_witness_1, contract_witness_2 = _clean(contract_witness_1), _clean(contract_witness_2)
    ctps_number, ctps_series = (ctps_number or "").strip(), (ctps_series or "").strip()
    regime_data = bool(contract_signed_on or contract_witness_1 or contract_witness_2 or ctps_number or ctps_series)
    legacy_contract = split_regime is None and contract_auxiliary_percent is not None and not regime_data
    permit = Permit.objects.select_for_update().get(pk=permit.pk)
    driving = person.pk == permit.holder_id or Auxiliary.objects.filter(person=person, status=Auxiliary.Status.ACTIVE).exists()
    active, free = law.may_authorize(permit.status == Permit.Status.ACTIVE, driving, person.full_name)
    require(active)
    require(free, "person")
    if legacy_contract:
        require(law.contract_named(contract_reference), "contract_reference")
        # Only the percentage is known (DIMUTRAN holds the contract): it must be strictly between 0 and 100.
        bad_percent = [
            reason
            for reason in check_regime(REGIME_CONTRACT, auxiliary_percent=contract_auxiliary_percent).reasons
            if REGIME_DATUM.get(reason.code) == "auxiliary_percent"
        ]
        if bad_percent:
            require_regime(Decision.refuse(*bad_percent))
        split_regime = Auxiliary.SplitRegime.LAW  # Auxiliary.regime reads the percentage as a written contract
    else:
        split_regime = split_regime or Auxiliary.SplitRegime.LAW
        require_regime(
            check_regime(
                split_regime, auxiliary_percent=contract_auxiliary_percent, signed_on=contract_signed_on,
                witnesses=(contract_witness_1, contract_witness_2), ctps_number=ctps_number, ctps_series=ctps_series,
            )
        )
    require(law.check_registration_prerequisites(True, person.social_security_registered), "person")
    require(law.may_add_auxiliary(active_auxiliaries(permit).count(), permit.co_owned_grandfathered))
    return Auxiliary.objects.create(
        permit=permit,
        person=person,
        authorized_on=on,
        split_regime=split_regime,
        contract_auxiliary_percent=contract_auxiliary_percent,
        contract_reference=contract_reference,
        contract_signed_on=contract_signed_on,
        contract_witness_1=contract_witness_1,
        contract_witness_2=contract_witness_2,
        ctps_number=ctps_number,
        pix_receiver=pix_receiver,
        ctps_series=ctps_series,
    )


@transaction.atomic
def record_social_security_proof(*, auxiliary: Auxiliary, quarter_end: date, presented_on: date) -> SocialSecurityProof:
    """Record the quarterly proof of contribution to the Previdência Social (Art. 1, §5)."""
    require(law.proof_for_a_quarter(quarter_end), "quarter_end")
    proof, _ = SocialSecurityProof.objects.update_or_create(
        auxiliary=auxiliary, quarter_end=quarter_end, defaults={"presented_on": presented_on}
    )
    return proof


def last_proof_quarter_end(auxiliary: Auxiliary) -> date | None:
    return auxiliary.social_security_proofs.order_by("-quarter_end").values_list("quarter_end", flat=True).first()


@transaction.atomic
def cancel_overdue_auxiliaries(*, on: date) -> list[int]:
    """Daily sweep: cancel every authorization whose quarterly proof is overdue (Art. 1, §5).

    An auxiliary employed under the CTPS (Art. 1, §6) owes no quarterly proof of an autonomous contribution
    and is never cancelled here (``taxilaw.auxiliaries.quarterly_proof_required``; docs/readings-registry.md)."""
    params = current_parameters()
    cancelled = []
    for auxiliary in Auxiliary.objects.select_for_update().filter(status=Auxiliary.Status.ACTIVE):
        decision = law.social_security_status(
            auxiliary.authorized_on, last_proof_quarter_end(auxiliary), params, on, auxiliary.regime
        )
        if not decision:
            auxiliary.status = Auxiliary.Status.CANCELLED
            auxiliary.cancelled_on = on
            auxiliary.cancel_reason = decision.reasons[0].message
            auxiliary.save(update_fields=["status", "cancelled_on", "cancel_reason"])
            cancelled.append(auxiliary.pk)
    return cancelled


@transaction.atomic
def cancel_auxiliary(*, auxiliary: Auxiliary, on: date, reason: str) -> Auxiliary:
    auxiliary = Auxiliary.objects.select_for_update().get(pk=auxiliary.pk)
    auxiliary.status = Auxiliary.Status.CANCELLED
    auxiliary.cancelled_on = on
    auxiliary.cancel_reason = reason
    auxiliary.save(update_fields=["status", "cancelled_on", "cancel_reason"])
    return auxiliary


@transaction.atomic
def issue_cmt(*, person: Person, number: str, issued_on: date, expires_on: date) -> Cmt:
    """The municipality issues the CMT to identify holders and auxiliaries (Art. 51)."""
    require(law.cmt_dates(issued_on, expires_on), "expires_on")
    return Cmt.objects.create(person=person, number=number, issued_on=issued_on, expires_on=expires_on)
