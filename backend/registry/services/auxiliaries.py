"""Auxiliary drivers, their social-security proofs and the CMT (Art. 1, IV, §5-6; Art. 48-52)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.db import transaction

from backend.api_errors import require
from backend.parameters.selectors import current_parameters
from taxilaw import auxiliaries as law
from taxilaw.decision import Decision, Reason
from taxilaw.i18n import gettext_noop

from ..models import Auxiliary, Cmt, Permit, Person, SocialSecurityProof
from ..selectors import active_auxiliaries


@transaction.atomic
def authorize_auxiliary(
    *,
    permit: Permit,
    person: Person,
    on: date,
    contract_auxiliary_percent: Decimal | None = None,
    contract_reference: str = "",
) -> Auxiliary:
    """Register an auxiliary on a permit: at most 2, or 1 for a co-owned cab (Art. 48), enrolled (Art. 49, Art. 52)."""
    permit = Permit.objects.select_for_update().get(pk=permit.pk)
    if permit.status != Permit.Status.ACTIVE:
        require(Decision.refuse(Reason("Art. 48", "permit_not_active", gettext_noop("Só uma permissão ativa pode ter auxiliares."))))
    if person.pk == permit.holder_id or Auxiliary.objects.filter(person=person, status=Auxiliary.Status.ACTIVE).exists():
        require(
            Decision.refuse(
                Reason(
                    "Art. 1, IV",
                    "already_driving",
                    gettext_noop("{name} já conduz um táxi como permissionário ou auxiliar."),
                    {"name": person.full_name},
                )
            ),
            "person",
        )
    if contract_auxiliary_percent is not None and not contract_reference:
        require(
            Decision.refuse(
                Reason(
                    "Art. 1, §6",
                    "contract_required",
                    gettext_noop("Partilha diferente de 25/75 exige contrato escrito com duas testemunhas ou CTPS (Art. 1, §6)."),
                )
            ),
            "contract_reference",
        )
    require(law.check_registration_prerequisites(True, person.social_security_registered), "person")
    require(law.may_add_auxiliary(active_auxiliaries(permit).count(), permit.co_owned_grandfathered))
    return Auxiliary.objects.create(
        permit=permit,
        person=person,
        authorized_on=on,
        contract_auxiliary_percent=contract_auxiliary_percent,
        contract_reference=contract_reference,
    )


@transaction.atomic
def record_social_security_proof(*, auxiliary: Auxiliary, quarter_end: date, presented_on: date) -> SocialSecurityProof:
    """Record the quarterly proof of contribution to the Previdência Social (Art. 1, §5)."""
    from taxilaw.calendar import is_quarter_end

    if not is_quarter_end(quarter_end):
        require(
            Decision.refuse(
                Reason("Art. 1, §5", "not_quarter_end", gettext_noop("Informe o último dia do trimestre comprovado (31/03, 30/06, 30/09 ou 31/12)."))
            ),
            "quarter_end",
        )
    proof, _ = SocialSecurityProof.objects.update_or_create(
        auxiliary=auxiliary, quarter_end=quarter_end, defaults={"presented_on": presented_on}
    )
    return proof


def last_proof_quarter_end(auxiliary: Auxiliary) -> date | None:
    return auxiliary.social_security_proofs.order_by("-quarter_end").values_list("quarter_end", flat=True).first()


@transaction.atomic
def cancel_overdue_auxiliaries(*, on: date) -> list[int]:
    """Daily sweep: cancel every authorization whose quarterly proof is overdue (Art. 1, §5)."""
    params = current_parameters()
    cancelled = []
    for auxiliary in Auxiliary.objects.select_for_update().filter(status=Auxiliary.Status.ACTIVE):
        decision = law.social_security_status(auxiliary.authorized_on, last_proof_quarter_end(auxiliary), params, on)
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
    if expires_on <= issued_on:
        require(
            Decision.refuse(Reason("Art. 51", "cmt_dates", gettext_noop("A validade da CMT deve ser posterior à emissão."))),
            "expires_on",
        )
    return Cmt.objects.create(person=person, number=number, issued_on=issued_on, expires_on=expires_on)
