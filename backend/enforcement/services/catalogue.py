"""A new version of an infraction type (Art. 64): the catalogue is append-only, one write path for admin and API."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Optional

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from backend.api_errors import require
from taxilaw.acts import may_record_act

from ..models import InfractionType


def check_version(*, code: str, effective_from: date, source: str, today: Optional[date] = None):
    """The law core's answer on a new version of ``code`` (what :func:`record_version` requires), for a form."""
    last = InfractionType.objects.filter(code=code).aggregate(last=Max("effective_from"))["last"]
    return may_record_act(code, effective_from, Decimal(0), source, today or timezone.localdate(), last)


@transaction.atomic
def record_version(*, code: str, effective_from: date, source: str, today: Optional[date] = None, **fields) -> InfractionType:
    """Record ``code`` as the regulation defines it from ``effective_from`` (today or later, with its source;
    Art. 64). The version it supersedes is closed the day before, and stays what a pending auto refers to."""
    today = today or timezone.localdate()
    versions = InfractionType.objects.select_for_update().filter(code=code)
    last = versions.aggregate(last=Max("effective_from"))["last"]
    require(may_record_act(code, effective_from, Decimal(0), source, today, last), "effective_from")
    for open_version in versions.filter(effective_until__isnull=True):
        open_version.effective_until = effective_from - timedelta(days=1)
        open_version.save(update_fields=["effective_until"])
    return InfractionType.objects.create(code=code, effective_from=effective_from, source=source.strip(), **fields)
