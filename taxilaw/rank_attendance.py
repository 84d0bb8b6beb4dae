"""Attendance at the rank a permit is designated to (Art. 9, V): absent days, the months checked, and when
an absence opens the revocation inquiry. Readings in docs/readings-ranks-contests.md. Django-free.
"""

from __future__ import annotations

import calendar as _calendar
from datetime import date, datetime, timedelta
from typing import Collection, Iterable, Optional, Sequence

from .decision import Decision
from .revocation import absence_from_rank

# --- Art. 9, V: attendance -------------------------------------------------------------------


def absent_days(
    year: int,
    month: int,
    attended_days: Collection[date],
    until: Optional[date] = None,
    since: Optional[date] = None,
) -> list[date]:
    """Days of the month (from ``since``, up to ``until``, both inclusive) with no check-in (Art. 9, V)."""
    last = _calendar.monthrange(year, month)[1]
    first_day, last_day = date(year, month, 1), date(year, month, last)
    if until is not None:
        last_day = min(last_day, until)
    if since is not None:
        first_day = max(first_day, since)
    attended = set(attended_days)
    days = []
    day = first_day
    while day <= last_day:
        if day not in attended:
            days.append(day)
        day += timedelta(days=1)
    return days


#: Art. 9, V: each run of the attendance job looks back this many days, so a month's last days are judged
#: after the month ends and a day the scheduler missed is judged on the next run (the notices are keyed per
#: month: a rerun tells nothing twice).
ATTENDANCE_CATCH_UP_DAYS = 31


def attendance_months(yesterday: date, catch_up_days: int = ATTENDANCE_CATCH_UP_DAYS) -> list[tuple[int, int, date]]:
    """The months (year, month, last day to count) the attendance job judges when the last full day is
    ``yesterday`` (Art. 9, V): every month touched by the ``catch_up_days`` up to yesterday, a past month to its
    end, the current one to yesterday."""
    first = yesterday - timedelta(days=catch_up_days)
    months, day = [], date(first.year, first.month, 1)
    while day <= yesterday:
        last = date(day.year, day.month, _calendar.monthrange(day.year, day.month)[1])
        months.append((day.year, day.month, min(last, yesterday)))
        day = last + timedelta(days=1)
    return months


def check_rank_attendance(
    year: int,
    month: int,
    checkins: Iterable[date | datetime],
    justified_days: Collection[date] = (),
    until: Optional[date] = None,
    since: Optional[date] = None,
) -> Decision:
    """Did the vehicle attend its rank in the month? (Art. 9, V)

    ``checkins`` are the daily check-in records (dates or datetimes) of the vehicle at its rank.
    Refused, i.e. ground of revocation, when the vehicle missed the rank 5 consecutive days, or
    10 days in total in the calendar month ("alternados": not necessarily consecutive), not
    counting the days justified for force majeure before the competent body (a justified day is
    not an absence and so also breaks a run of consecutive absences). ``until`` stops the count
    (month in progress); ``since`` starts it (vehicle assigned to the rank mid-month).
    """
    attended = {c.date() if isinstance(c, datetime) else c for c in checkins}
    absences = absent_days(year, month, attended, until=until, since=since)
    return absence_from_rank(absences, justified_days)


def absence_revocation_due(
    year: int, month: int, checkins: Iterable[date | datetime], justified_days: Collection[date] = (), **kw
) -> bool:
    """True when Art. 9, V gives ground to revoke for the month."""
    return not check_rank_attendance(year, month, checkins, justified_days, **kw).allowed


__all__: Sequence[str] = (
    "absence_revocation_due",
    "absent_days",
    "check_rank_attendance",
)
