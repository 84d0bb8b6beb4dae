"""Dispatch's scheduled job: the daily purge of personal data past its retention period (LGPD; docs/security.md)."""

from __future__ import annotations

from datetime import datetime, timedelta

from backend.scheduler.jobs import job

from . import retention


@job("personal_data_purge", at=timedelta(hours=3, minutes=30))
def personal_data_purge(now: datetime) -> str:
    """Each run does bounded work (``BATCH`` rows a kind); what is left waits for the next day's run."""
    counts = retention.purge(now)
    return ", ".join(f"{name} {n}" for name, n in counts.items())
