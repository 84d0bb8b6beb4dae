"""Ranks' scheduled consequences: absences (Art. 9, V) and empty ranks (Art. 27, §2) notified, inquiries opened."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from backend.notices.services import notify
from backend.registry.jobs import open_inquiry_once
from backend.scheduler.jobs import job
from taxilaw.revocation import RevocationGround

from . import selectors
from .models import Rank


@job("rank_attendance", at=timedelta(hours=2))
def rank_attendance(now: datetime) -> str:
    """Every titular of a private rank absent 5 consecutive or 10 days in the month (yesterday included) is
    notified and its revocation inquiry opened, once a month (Art. 9, V; Art. 10)."""
    yesterday = timezone.localdate(now) - timedelta(days=1)
    opened = 0
    for rank in Rank.objects.filter(category=Rank.Category.PRIVATE, active=True):
        for row in selectors.attendance(rank, yesterday.year, yesterday.month, today=yesterday):
            if row["decision"]:
                continue
            permit, reason = row["permit"], row["decision"].reasons[0]
            month = f"{yesterday:%Y-%m}"
            notify(f"absence:{permit.pk}:{month}", reason, yesterday, permit=permit)
            if open_inquiry_once(permit, RevocationGround.ABSENT_FROM_RANK, reason, timezone.localdate(now), f"absence:{permit.pk}:{month}:inquiry"):
                opened += 1
    return f"inquéritos abertos {opened}"


@job("rank_staffing", at=timedelta(hours=2, minutes=10))
def rank_staffing(now: datetime) -> str:
    """A rank found empty in 3 consecutive observations: DIMUTRAN is told, each titular notified and its inquiry
    for tacit withdrawal opened (Art. 27, §2; Art. 10)."""
    on, opened = timezone.localdate(now), 0
    for rank in Rank.objects.filter(active=True):
        decision = selectors.staffing(rank)
        if decision:
            continue
        reason = decision.reasons[0]
        run = f"{rank.pk}:{reason.params['first']}"
        notify(f"unstaffed:{run}", reason, on)  # to DIMUTRAN: cancel or reduce the rank
        for assignment in selectors.current_assignments(rank).select_related("permit__holder"):
            permit = assignment.permit
            notify(f"unstaffed:{run}:{permit.pk}", reason, on, permit=permit)
            if open_inquiry_once(permit, RevocationGround.RANK_UNSTAFFED, reason, on, f"unstaffed:{run}:{permit.pk}:inquiry"):
                opened += 1
    return f"inquéritos abertos {opened}"
