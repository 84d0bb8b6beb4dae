"""Dates and terms of the law: working days, year/month terms, quarters.

Rules of counting (docs/readings-registry.md, "Counting of terms"):

* Terms in days exclude the day they start from and include the last day
  (Código Civil, art. 132); a term for an act at the Prefeitura whose last day
  is not a working day runs to the next working day (art. 132, §1).
* Terms in years and months end on the day of the same number, or on the next
  day where that day does not exist (Código Civil, art. 132, §3; Lei 810/1949).
* Working days (dias úteis, Art. 10, §1) exclude Saturdays, Sundays, national
  holidays (``holidays.Brazil``, subdivision MG) and the municipal holidays
  the caller passes in.
"""

from __future__ import annotations

from datetime import date, timedelta
from functools import lru_cache
from typing import Collection

import holidays as _holidays

_ONE_DAY = timedelta(days=1)


@lru_cache(maxsize=256)
def national_holidays(year: int) -> frozenset[date]:
    """Brazilian national (and Minas Gerais state) holidays of ``year``."""
    return frozenset(_holidays.Brazil(subdiv="MG", years=year).keys())


def is_working_day(day: date, municipal_holidays: Collection[date] = ()) -> bool:
    """A dia útil for Art. 10, §1: not a weekend, national or municipal holiday."""
    if day.weekday() >= 5:
        return False
    if day in national_holidays(day.year):
        return False
    return day not in municipal_holidays


def next_working_day(day: date, municipal_holidays: Collection[date] = ()) -> date:
    """``day`` itself if it is a working day, else the first working day after it."""
    while not is_working_day(day, municipal_holidays):
        day += _ONE_DAY
    return day


def add_working_days(start: date, n: int, holidays: Collection[date] = ()) -> date:
    """The ``n``-th working day after ``start`` (Art. 10, §1).

    The day of ``start`` (the summons) is not counted; ``holidays`` are the
    municipal holidays of Muriaé (national ones are always excluded).
    """
    if n < 0:
        raise ValueError("n must not be negative")
    day = start
    counted = 0
    while counted < n:
        day += _ONE_DAY
        if is_working_day(day, holidays):
            counted += 1
    return day


def day_term_end(start: date, days: int, municipal_holidays: Collection[date] = ()) -> date:
    """Last day of a term of ``days`` calendar days counted from ``start``.

    The start day is excluded; if the last day is not a working day the term
    runs to the next working day (Código Civil, art. 132 and §1).
    """
    return next_working_day(start + timedelta(days=days), municipal_holidays)


def add_months(start: date, months: int) -> date:
    """Same day ``months`` later; the next day if that day does not exist (CC art. 132, §3)."""
    index = start.year * 12 + (start.month - 1) + months
    year, month = divmod(index, 12)
    month += 1
    try:
        return date(year, month, start.day)
    except ValueError:
        # e.g. 31 January + 1 month: 31 February does not exist, the term ends
        # on the following day, 1 March.
        if month == 12:
            return date(year + 1, 1, 1)
        return date(year, month + 1, 1)


def add_years(start: date, years: int) -> date:
    """Same day and month ``years`` later; 29 February -> 1 March (CC art. 132, §3)."""
    return add_months(start, 12 * years)


def quarter_end(day: date) -> date:
    """Last day of the calendar quarter of ``day``."""
    month = ((day.month - 1) // 3) * 3 + 3
    if month == 12:
        return date(day.year, 12, 31)
    return date(day.year, month + 1, 1) - _ONE_DAY


def is_quarter_end(day: date) -> bool:
    return quarter_end(day) == day
