"""Dispatch's scheduled jobs: the daily purge of personal data past its retention period (LGPD; docs/security.md),
and the advance bookings no serving process's tick dispatched in time (Art. 66)."""

from __future__ import annotations

from datetime import datetime, timedelta

from backend.scheduler.jobs import every_tick, job
from dispatch.ops import retention
from dispatch.rides import due_bookings


@job("personal_data_purge", at=timedelta(hours=3, minutes=30))
def personal_data_purge(now: datetime) -> str:
    """Each run does bounded work (``BATCH`` rows a kind); what is left waits for the next day's run."""
    counts = retention.purge(now)
    return ", ".join(f"{name} {n}" for name, n in counts.items())


@every_tick("overdue_bookings")
def overdue_bookings(now: datetime) -> str:
    """Bookings still scheduled ``SCHEDULER_GRACE`` after their time become rides here (each claimed once)."""
    rides = due_bookings.dispatch_due(now=now, limit=due_bookings.DUE_PER_SCHEDULER_RUN, overdue=due_bookings.SCHEDULER_GRACE)
    return f"{len(rides)} agendamento(s) despachado(s)" if rides else ""
