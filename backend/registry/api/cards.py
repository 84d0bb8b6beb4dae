"""The driver's cards: the CMT (Art. 51) and the cab's CVI (Art. 32), with the compliance answer."""

from django.utils import timezone

from backend.api_errors import decision_payload

from .. import compliance, selectors
from ..models import Person


def driver_cards(person: Person) -> dict:
    permit, role = selectors.driven_permit(person)
    cmt = person.cmts.order_by("-expires_on").first()
    vehicle = selectors.vehicle_in_service(permit) if permit else None
    seal = vehicle.inspections.filter(result="passed").order_by("-inspected_on").first() if vehicle else None
    assignment = permit.rank_assignments.filter(ended_on__isnull=True).select_related("rank").first() if permit else None
    decision = compliance.may_work(person, permit, timezone.now()) if permit else None
    return {
        "person": {"id": person.pk, "full_name": person.full_name},
        "cmt": {
            "number": cmt.number,
            "issued_on": cmt.issued_on,
            "expires_on": cmt.expires_on,
            "role": role,
            "permit": permit.number if permit else None,
        }
        if cmt
        else None,
        "cvi": {
            "plate": vehicle.plate,
            "make": vehicle.make,
            "model": vehicle.model,
            "model_year": vehicle.model_year,
            "colour": vehicle.colour,
            "permit": permit.number,
            "rank": assignment.rank.name if assignment else None,
            "seal_number": seal.seal_number if seal else None,
            "seal_valid_until": seal.valid_until if seal else None,
        }
        if vehicle
        else None,
        "compliance": decision_payload(decision) if decision else None,
    }
