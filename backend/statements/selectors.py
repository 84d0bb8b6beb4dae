"""Who reads which statement: DIMUTRAN all; a permit holder those of their permit; a driver their own."""

from __future__ import annotations

from django.db.models import Q

from backend.registry.models import Auxiliary, Permit, Person
from backend.registry.selectors import LIVE_STATUSES

from .models import WeeklyStatement


def person_of(user) -> Person | None:
    if not (user and user.is_authenticated):
        return None
    return Person.objects.filter(user=user).first()


def statements_visible_to(user):
    """DIMUTRAN sees every statement; a permit holder the statements of the weeks they held the permit
    (their own driving and their auxiliaries'); a driver only their own."""
    qs = WeeklyStatement.objects.select_related("permit", "driver", "holder").prefetch_related(
        "adjustments__ride_entries", "adjustments__holder", "carried_later__statement")
    if user and user.is_authenticated and user.is_staff:
        return qs
    person = person_of(user)
    if person is None:
        return qs.none()
    return qs.filter(Q(driver=person) | Q(holder=person))


def permits_driven_now(person: Person) -> list[Permit]:
    """The permit a person drives today: the live permit they hold, else their active auxiliary authorization."""
    held = list(Permit.objects.filter(holder=person, status__in=LIVE_STATUSES))
    aux = [a.permit for a in Auxiliary.objects.filter(person=person, status=Auxiliary.Status.ACTIVE).select_related("permit")]
    return held + [p for p in aux if p not in held]


def permits_held(person: Person) -> list[Permit]:
    return list(Permit.objects.filter(holder=person, status__in=LIVE_STATUSES).select_related("holder"))
