"""Retention of dispatch's personal data (LGPD): an offer's audit names the cabs considered and their distances.

It shows why a cab was chosen (Art. 66) for as long as a complaint about the choice may need it
(``retention_offer_audit_days``); then the candidates and the distance are erased, and the offer itself (which
cab, when, answered how) stays. The trips' share of the purge is ``backend.privacy.retention``.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from backend.privacy import retention as privacy_retention
from dispatch.models import Offer
from taxilaw.retention import cutoff

BATCH = 1000


def purge_offer_audits(now: datetime, batch: int = BATCH) -> int:
    """Erase the audits of offers made ``retention_offer_audit_days`` ago, ``batch`` at a time, all in one run."""
    before = cutoff(now, privacy_retention.retention_days("retention_offer_audit_days", now))
    eligible = Offer.objects.filter(created_at__lt=before).exclude(candidates=[], distance_m=None)
    return sum(Offer.objects.filter(pk__in=ids).update(candidates=[], distance_m=None)
               for ids in privacy_retention.batches(eligible, batch))


def purge(now: datetime | None = None) -> dict[str, int]:
    """The whole scheduled purge (dispatch.jobs): offer audits, traces, callers, inactive passengers."""
    now = now or timezone.now()
    return {"offer_audits": purge_offer_audits(now), **privacy_retention.purge(now)}
