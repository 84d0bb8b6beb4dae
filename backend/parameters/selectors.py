"""Reads of the dated parameters: the law core's :class:`Parameters` from the database."""

from datetime import date
from decimal import Decimal

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


def municipal_holidays(year_from: int | None = None) -> frozenset[date]:
    rows = MunicipalHoliday.objects.all()
    if year_from is not None:
        rows = rows.filter(date__year__gte=year_from)
    return frozenset(rows.values_list("date", flat=True))
