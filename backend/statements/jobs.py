"""The weekly statements close themselves (Art. 1, §3)."""

from datetime import datetime, timedelta

from backend.scheduler.jobs import job

from .services import close_week, weeks_to_close


@job("close_weeks", every=timedelta(hours=1), at=timedelta(minutes=10))
def close_weeks(now: datetime) -> str:
    """Close every ended week not closed yet (Art. 1, §3), hourly so a scheduler that was down catches up."""
    closed = [close_week(monday, now) for monday in weeks_to_close(now)]  # oldest first
    return f"semanas fechadas {len(closed)}"
