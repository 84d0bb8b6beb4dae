"""Reads of the registry, shaped as the law core's facts."""

from __future__ import annotations

from django.db.models import Q

from taxilaw.permits import CandidateFacts

from .models import Alvara, Auxiliary, Permit, Person, Transfer, Vehicle

LIVE_STATUSES = (Permit.Status.AWAITING_TERM, Permit.Status.ACTIVE)


def _barred_by_revocation(person: Person) -> bool:
    """A revocation of the person's permits still bars them (Art. 9, § único; ``revocation_bars``)."""
    from django.utils import timezone

    from backend.parameters.selectors import current_parameters
    from taxilaw.revocation import revocation_bars

    from .models import RevocationInquiry

    today = timezone.localdate()
    years = int(current_parameters().as_of("revocation_bar_years", today))
    for permit in Permit.objects.filter(holder=person, status=Permit.Status.REVOKED):
        inquiry = permit.inquiries.filter(outcome=RevocationInquiry.Outcome.REVOKED).order_by("-decided_on").first()
        if revocation_bars(inquiry.ground if inquiry else None, permit.ended_on, today, years):
            return True
    return False


def candidate_facts(person: Person) -> CandidateFacts:
    """What Art. 2, Art. 5, I, Art. 7, Art. 9, § único and Art. 49 ask about a candidate."""
    last_ceded = (
        Transfer.objects.filter(cedent=person, status=Transfer.Status.COMPLETED)
        .order_by("-completed_on")
        .values_list("completed_on", flat=True)
        .first()
    )
    return CandidateFacts(
        is_autonomous_professional=person.is_autonomous_professional,
        holds_permit=Permit.objects.filter(holder=person, status__in=LIVE_STATUSES).exists(),
        last_ceded_permit_on=last_ceded,
        had_permit_revoked=_barred_by_revocation(person),
        social_security_registered=person.social_security_registered,
        cnh_expires_on=person.cnh_expires_on,
    )


def current_alvara(permit: Permit) -> Alvara | None:
    return permit.alvaras.order_by("-expires_on").first()


def vehicle_in_service(permit: Permit) -> Vehicle | None:
    return permit.vehicles.filter(in_service=True).first()


def active_auxiliaries(permit: Permit):
    return permit.auxiliaries.filter(status=Auxiliary.Status.ACTIVE)


def driven_permit(person: Person, statuses=LIVE_STATUSES) -> tuple[Permit | None, str | None]:
    """The permit this person drives and as what: their own (permissionario) or the one they assist (auxiliar)."""
    return driven_permits([person], statuses).get(person.pk, (None, None))


def driven_permits(people, statuses=LIVE_STATUSES) -> dict[int, tuple[Permit, str]]:
    """:func:`driven_permit` of many people in at most two statements (drivers reconnecting after a restart):
    person id -> (permit, role), without the people who drive none. Each gets the first in the models' order,
    as ``.first()`` would give one at a time."""
    wanted = {p.pk for p in people}
    found: dict[int, tuple[Permit, str]] = {}
    for permit in Permit.objects.filter(holder_id__in=wanted, status__in=statuses):
        found.setdefault(permit.holder_id, (permit, "permissionario"))
    rest = wanted - found.keys()
    if rest:
        auxiliaries = Auxiliary.objects.filter(person_id__in=rest, status=Auxiliary.Status.ACTIVE).select_related("permit")
        for auxiliary in auxiliaries:
            found.setdefault(auxiliary.person_id, (auxiliary.permit, "auxiliar"))
    return found


def people_of(permit: Permit):
    """The people attached to a permit: its holder and its auxiliaries (any status)."""
    return Person.objects.filter(Q(pk=permit.holder_id) | Q(auxiliary_roles__permit=permit)).distinct()


def permits_visible_to(user):
    """DIMUTRAN sees every permit; a holder their own; an auxiliary the one they drive."""
    if user.is_staff:
        return Permit.objects.all()
    person = getattr(user, "person", None)
    if person is None:
        return Permit.objects.none()
    return Permit.objects.filter(
        Q(holder=person) | Q(auxiliaries__person=person, auxiliaries__status=Auxiliary.Status.ACTIVE)
    ).distinct()


def permits_held_by(user):
    """Permits whose data the user may read as their holder (or all, for DIMUTRAN)."""
    if user.is_staff:
        return Permit.objects.all()
    person = getattr(user, "person", None)
    return Permit.objects.filter(holder=person) if person else Permit.objects.none()
