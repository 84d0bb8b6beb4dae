"""Reads of the dated parameters: the law core's :class:`Parameters` from the database."""

from datetime import date
from decimal import Decimal
from typing import Iterable

from taxilaw.flags import holiday_dates
from taxilaw.parameters import DEFAULT_PARAMETERS, DatedValue, Parameters

from .models import DatedParameter, MunicipalHoliday

# Counts (days, inhabitants) are ints in the law core; amounts stay Decimal.
_INTEGER_PARAMETERS = frozenset(d.name for d in DEFAULT_PARAMETERS if isinstance(d.value, int))


def _as_law_value(name: str, value: Decimal):
    return int(value) if name in _INTEGER_PARAMETERS else value


def current_parameters() -> Parameters:
    """All dated parameters as the law core reads them (one query)."""
    return Parameters(
        DatedValue(p.name, p.effective_from, _as_law_value(p.name, p.value), p.source)
        for p in DatedParameter.objects.all()
    )


#: Years around today that ``municipal_holidays()`` generates when no years are asked (deadlines near today).
DEFAULT_HOLIDAY_YEARS_AROUND = 5


def municipal_holidays(years: Iterable[int] | None = None) -> frozenset[date]:
    """Muriaé's municipal holidays in ``years`` (default: today's year ± ``DEFAULT_HOLIDAY_YEARS_AROUND``),
    generated from the table's one-off dates and yearly holidays (Art. 45, II); national ones are the law core's."""
    if years is None:
        from django.utils import timezone

        today = timezone.localdate().year
        years = range(today - DEFAULT_HOLIDAY_YEARS_AROUND, today + DEFAULT_HOLIDAY_YEARS_AROUND + 1)
    rows = list(MunicipalHoliday.objects.values_list("date", "every_year"))
    return holiday_dates(years, [d for d, yearly in rows if not yearly], [(d.month, d.day, d.year) for d, yearly in rows if yearly])


def years_around(day: date) -> range:
    """The year of ``day`` and its neighbours: what a trip or a flag on ``day`` may touch."""
    return range(day.year - 1, day.year + 2)
