"""Ranks' scheduled consequences: absences (Art. 9, V) and empty ranks (Art. 27, §2) notified, inquiries opened."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.utils import timezone

from backend.ranks import selectors
from backend.ranks.models import Rank
from backend.scheduler.jobs import job
from taxilaw.rank_attendance import attendance_months
from taxilaw.revocation import RevocationGround

from ..services import notify
from .registry import open_inquiry_once


@job("rank_attendance", at=timedelta(hours=2))
def rank_attendance(now: datetime) -> str:
    """Every titular of a private rank absent 5 consecutive or 10 days in a month is notified and its revocation
    inquiry opened, once a month (Art. 9, V; Art. 10). Each run judges every month of the catch-up window up to
    yesterday: the last days of a month once it ended, and any day a missed run left (keyed per month)."""
    today = timezone.localdate(now)
    opened = 0
    for year, month, until in attendance_months(today - timedelta(days=1)):
        for rank in Rank.objects.filter(category=Rank.Category.PRIVATE, active=True):
            opened += _absences(rank, year, month, until, today)
    return f"inquéritos abertos {opened}"


def _absences(rank: Rank, year: int, month: int, until: date, today: date) -> int:
    opened = 0
    for row in selectors.attendance(rank, year, month, today=until):
        if row["decision"]:
            continue
        permit, reason = row["permit"], row["decision"].reasons[0]
        key = f"absence:{permit.pk}:{year:04d}-{month:02d}"
        notify(key, reason, until, permit=permit)
        if open_inquiry_once(permit, RevocationGround.ABSENT_FROM_RANK, reason, today, f"{key}:inquiry"):
            opened += 1
    return opened


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
