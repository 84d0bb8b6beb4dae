"""Enforcement's scheduled reminder: the judgment of an appeal told to the infractor within 10 days (Art. 63, §4)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from backend.enforcement.models import Appeal
from backend.parameters.selectors import municipal_holidays
from backend.scheduler.jobs import job
from taxilaw import due_process

from ..services import notify


@job("judgment_notice", at=timedelta(hours=2, minutes=30))
def judgment_notice(now: datetime) -> str:
    """Each appeal judged and not yet notified: DIMUTRAN is reminded to tell the infractor by the 10th day, once
    while in term and once when overdue (Art. 63, §4)."""
    on, holidays, told = timezone.localdate(now), municipal_holidays(), 0
    pending = Appeal.objects.filter(judged_on__isnull=False, judgment_notified_on__isnull=True).select_related("decision__auto")
    for appeal in pending:
        reason = due_process.judgment_notice_reminder(appeal.decision.auto.number, appeal.judged_on, None, on, holidays)
        if reason is None:
            continue
        notify(f"judgment_notice:{appeal.pk}:{reason.code}", reason, on)  # to DIMUTRAN, who notifies
        told += 1
    return f"lembretes {told}"
