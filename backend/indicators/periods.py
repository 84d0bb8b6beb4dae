"""The periods indicators are read over: whole local days in America/Sao_Paulo, grouped by day, week or month."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import Q
from django.db.models.functions import ExtractHour, TruncDate, TruncMonth, TruncWeek

LOCAL = ZoneInfo(settings.TIME_ZONE)  # America/Sao_Paulo: a day, a week and a month are Muriaé's
MAX_DAYS = 366  # a request reads at most a year (bounded work)
YEARS = (2000, 2100)  # the years a period may name: no record is older, and date arithmetic stays far from its ends
GRAINS = ("day", "week", "month", "hour")
# The longest period the page draws day by day; a longer one (a quarter, a year) is drawn and tabled by local week:
# 53 bars instead of 365, readable, and a year's page renders in a fraction of the time (docs/indicators.md).
DAILY_BARS_MAX_DAYS = 92


def local_midnight(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=LOCAL)


def monday_of(day: date) -> date:
    return day - timedelta(days=day.weekday())


@dataclass(frozen=True)
class Period:
    """The local days ``first`` to ``last``, both included."""

    first: date
    last: date

    def __post_init__(self):
        if self.last < self.first:
            raise ValueError("last before first")
        if (self.last - self.first).days >= MAX_DAYS:
            raise ValueError(f"more than {MAX_DAYS} days")
        if not (YEARS[0] <= self.first.year and self.last.year <= YEARS[1]):
            raise ValueError(f"outside {YEARS}")

    @property
    def start(self) -> datetime:
        return local_midnight(self.first)

    @property
    def end(self) -> datetime:
        """The first instant after the period (exclusive bound)."""
        return local_midnight(self.last + timedelta(days=1))

    def window(self, field: str) -> dict:
        """Lookups for ``field`` in [start, end)."""
        return {f"{field}__gte": self.start, f"{field}__lt": self.end}

    def window_q(self, field: str) -> Q:
        return Q(**self.window(field))

    def buckets(self, grain: str) -> list:
        """Every bucket's key in order, empty ones included (a chart shows a day without rides as zero)."""
        if grain == "hour":
            return list(range(24))
        if grain == "day":
            return [self.first + timedelta(days=i) for i in range((self.last - self.first).days + 1)]
        if grain == "week":
            monday, out = monday_of(self.first), []
            while monday <= self.last:
                out.append(monday)
                monday += timedelta(days=7)
            return out
        if grain == "month":
            month, out = self.first.replace(day=1), []
            while month <= self.last:
                out.append(month)
                month = (month + timedelta(days=32)).replace(day=1)
            return out
        raise ValueError(grain)


def series_grain(period: Period) -> str:
    """The grain of the page's time series: ``"day"`` up to ``DAILY_BARS_MAX_DAYS`` days, ``"week"`` beyond."""
    return "day" if (period.last - period.first).days + 1 <= DAILY_BARS_MAX_DAYS else "week"


def bucket(grain: str, field: str):
    """The database expression that puts a timestamp in its local bucket."""
    if grain == "hour":
        return ExtractHour(field, tzinfo=LOCAL)
    return {"day": TruncDate, "week": TruncWeek, "month": TruncMonth}[grain](field, tzinfo=LOCAL)


def bucket_key(value):
    """A truncated timestamp as its local date (TruncWeek and TruncMonth give datetimes)."""
    if isinstance(value, datetime):
        return value.astimezone(LOCAL).date()
    return value


def fill(grain: str, period: Period, rows: dict, zero) -> list[tuple]:
    """``(key, row)`` for every bucket of the period, ``zero()`` where the database had no row."""
    return [(key, rows.get(key) or zero()) for key in period.buckets(grain)]
