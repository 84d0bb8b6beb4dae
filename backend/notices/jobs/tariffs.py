"""The tariff's scheduled notice: the half-yearly review of Art. 44, told to DIMUTRAN before it is due."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from backend.parameters.selectors import current_parameters
from backend.scheduler.jobs import job
from backend.tariffs.selectors import law_tariffs
from taxilaw import tariffs as law

from ..services import notify


@job("tariff_review", at=timedelta(hours=2, minutes=20))
def tariff_review(now: datetime) -> str:
    """From ``tariff_review_notice_days`` before the six months of the tariff in force end, DIMUTRAN is told to
    prepare the study and the decree; once overdue, told so (Art. 44). Once per tariff and stage."""
    on = timezone.localdate(now)
    reason = law.review_notice(law_tariffs(), on, int(current_parameters().as_of("tariff_review_notice_days", on)))
    if reason is None:
        return "nada a avisar"
    since = reason.params.get("since", "none")  # no tariff in force: told once
    notify(f"tariff_review:{since}:{reason.code}", reason, on)
    return reason.code
