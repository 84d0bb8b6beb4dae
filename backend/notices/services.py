"""Telling a deadline's consequence, once."""

from __future__ import annotations

from datetime import date

from django.utils.translation import gettext

from backend.registry.models import Permit, Person
from taxilaw.decision import Reason

from .models import Notice


def notify(key: str, reason: Reason, on: date, *, permit: Permit | None = None, person: Person | None = None) -> Notice:
    """Record the notice ``key`` once; it goes to ``person``, or to the permit's holder (and always to DIMUTRAN)."""
    notice, _created = Notice.objects.get_or_create(key=key, defaults={
        "article": reason.article, "code": reason.code, "message": reason.render(gettext), "created_on": on,
        "permit": permit, "person": person or (permit.holder if permit is not None else None),
    })
    return notice
