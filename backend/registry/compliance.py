"""The compliance answer from the registry: facts from the database, the decision from the law core."""

from __future__ import annotations

from datetime import date, datetime

from django.utils import timezone

from backend.parameters.selectors import current_parameters
from taxilaw import compliance as law
from taxilaw.decision import Decision
from taxilaw.permits import PermitStatus
from taxilaw.vehicles import InspectionResult

from .models import Auxiliary, Cmt, Permit, Person, SocialSecurityProof

_PERMIT_STATUS = {
    Permit.Status.ACTIVE: PermitStatus.ACTIVE,
    Permit.Status.AWAITING_TERM: PermitStatus.AWAITING_TERM,
    Permit.Status.LOST: PermitStatus.LOST,
    Permit.Status.EXTINCT: PermitStatus.EXTINCT,
    Permit.Status.REVOKED: PermitStatus.REVOKED,
    Permit.Status.WITHDRAWN: PermitStatus.WITHDRAWN,
}


def compliance_facts(person: Person, permit: Permit, on: date) -> law.ComplianceFacts | None:
    """The facts of Art. 1, 4, 9, 28, 35, 38, 51 and 54 about this driver on this cab; None if unrelated."""
    auxiliary = None
    if permit.holder_id != person.pk:
        auxiliary = (
            Auxiliary.objects.filter(permit=permit, person=person).order_by("-authorized_on").first()
        )
        if auxiliary is None:
            return None
    alvara = permit.alvaras.order_by("-expires_on").values_list("expires_on", flat=True).first()
    vehicle = permit.vehicles.filter(in_service=True).first()
    inspection = vehicle.inspections.order_by("-inspected_on", "-id").first() if vehicle else None
    cmt = Cmt.objects.filter(person=person).order_by("-expires_on").values_list("expires_on", flat=True).first()
    suspensions = tuple(permit.suspensions.filter(ends_on__gte=on).values_list("starts_on", "ends_on"))
    last_proof = (
        SocialSecurityProof.objects.filter(auxiliary=auxiliary).order_by("-quarter_end").values_list("quarter_end", flat=True).first()
        if auxiliary
        else None
    )
    return law.ComplianceFacts(
        permit_status=_PERMIT_STATUS[permit.status],
        alvara_expires_on=alvara,
        vehicle_model_year=vehicle.model_year if vehicle else None,
        last_inspection_result=InspectionResult(inspection.result) if inspection else None,
        last_inspection_on=inspection.inspected_on if inspection else None,
        driver_role=law.DriverRole.AUXILIAR if auxiliary else law.DriverRole.PERMISSIONARIO,
        cmt_expires_on=cmt,
        suspensions=suspensions,
        auxiliary_authorization_active=bool(auxiliary and auxiliary.status == Auxiliary.Status.ACTIVE),
        auxiliary_authorized_on=auxiliary.authorized_on if auxiliary else None,
        social_security_last_proof_quarter_end=last_proof,
        auxiliary_split_regime=auxiliary.regime if auxiliary else Auxiliary.SplitRegime.LAW,  # Art. 1, §5-§6
        vehicle_tolerance_until=permit.vehicle_tolerance_until,  # Art. 34, § único
    )


def may_work(person: Person, permit: Permit, now: datetime | None = None) -> Decision:
    """May this driver work this cab now? (the registry's answer for dispatch and DIMUTRAN)."""
    now = now or timezone.now()
    return decide(person, permit, compliance_facts(person, permit, law.local_date(now)), now)


def decide(person: Person, permit: Permit, facts: law.ComplianceFacts | None, now: datetime) -> Decision:
    """The law core's answer on facts already read (``None``: the person does not drive this permit)."""
    if facts is None:
        return law.drives_this_cab(False, person.full_name, permit.number)
    return law.may_work(facts, now, current_parameters)  # read only if a rule needs them
