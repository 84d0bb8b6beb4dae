"""Reads of the tariff tables, as the law core wants them."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from django.utils import timezone

from backend.parameters.selectors import current_parameters, municipal_holidays, years_around
from taxilaw import estimate as estimate_law
from taxilaw import flags as flag_law
from taxilaw import meter_data
from taxilaw import tariffs as law
from taxilaw.decision import Decision

from .models import CorrectionTable, TariffDecree

DEFAULT_COMPARE_TOLERANCE = Decimal("0.50")


def law_tariffs() -> tuple[law.Tariff, ...]:
    """Every decreed tariff as the law core's :class:`~taxilaw.tariffs.Tariff` (one small query).

    Not cached: the table has a few rows per year and a stale cache would
    charge a revoked tariff."""
    return tuple(t.to_law() for t in TariffDecree.objects.order_by("effective_from"))


def _day(at: date | datetime | None) -> date:
    if at is None:
        return timezone.localdate()
    if isinstance(at, datetime):
        return flag_law.local_time(at).date()
    return at


def tariff_decree_in_force(at: date | datetime | None = None) -> TariffDecree | None:
    """The decree row in force on ``at`` (Muriaé local date; Art. 45), or None."""
    return TariffDecree.objects.filter(effective_from__lte=_day(at)).order_by("-effective_from").first()


def tariff_in_force(at: date | datetime | None = None) -> law.Tariff:
    """The decreed tariff in force on ``at`` (Art. 45); raises :class:`taxilaw.tariffs.NoTariffInForce`."""
    return law.tariff_in_force(law_tariffs(), _day(at))


def review_alert(on: date | datetime | None = None) -> Decision:
    """Art. 44 staleness alert: refused when the tariff in force is older than six months."""
    return law.review_alert(law_tariffs(), _day(on))


def flag_now(at: datetime | None = None, distance_m: float = 0.0) -> flag_law.FlagDecision:
    """Bandeira I/II at ``at`` with Muriaé's municipal holidays from the database (Art. 45, I-II)."""
    at = at or timezone.now()
    return flag_law.flag_for(at, distance_m, municipal_holidays(years_around(_day(at))))


def correction_tables_in_use(on: date | None = None):
    day = _day(on)
    return CorrectionTable.objects.filter(valid_from__lte=day, valid_until__gte=day).select_related("tariff")


def compare_tolerance(on: date) -> Decimal:
    """Tolerance between phone and server meters (dated parameter, Art. 43)."""
    try:
        return Decimal(str(current_parameters().as_of("meter_compare_tolerance_brl", on)))
    except LookupError:
        return DEFAULT_COMPARE_TOLERANCE


def fare_estimate(origin: tuple[float, float], destination: tuple[float, float], at: datetime | None = None):
    """The range of fares for a ride asked for at ``at`` (default now): tariff in force, flag of that instant,
    detour factors in force (Art. 43, Art. 45; :mod:`taxilaw.estimate`); raises ``NoTariffInForce``."""
    at = at or timezone.now()
    day = _day(at)
    table = current_parameters()
    return estimate_law.estimate_fare(
        tariff_in_force(day), at, origin, destination,
        detour=estimate_law.detour_from_table(table, day),
        municipal_holidays=municipal_holidays(years_around(day)),
        fraction=meter_data.meter_params_from_table(table, day).fraction,
    )


def meter_config(on: date) -> dict:
    """What a meter needs besides the tariff on ``on``, the same for the phone and the server's recomputation
    (Art. 43, Art. 45, II): the engine's parameters (the dated fraction) and the municipal holidays of the
    year and its neighbours, with the period they cover (``holidays_from``..``holidays_until``): the phone's
    horizon, past which it guesses no municipal holiday (taxilaw.flags.FlagParams, docs/readings-tariffs.md)."""
    from taxilaw.meter_data import meter_params_from_table

    years = years_around(on)
    return {
        "params": meter_params_from_table(current_parameters(), on).to_dict(),
        "holidays": sorted(d.isoformat() for d in municipal_holidays(years)),
        "holidays_from": date(years[0], 1, 1).isoformat(),
        "holidays_until": date(years[-1], 12, 31).isoformat(),
    }


def meter_regime(last_aferition_on: date | None, at: date | datetime | None = None):
    """The tariff a cab's taxímetro afered on ``last_aferition_on`` charges on ``at`` and the correction table that
    converts its reading (Art. 45, §3-§5, Art. 47, §2; :func:`taxilaw.taximeters.meter_regime`)."""
    from taxilaw import taximeters

    day = _day(at)
    tables = [t.to_law() for t in CorrectionTable.objects.select_related("tariff")]
    grace = int(current_parameters().as_of("taximeter_aferition_grace_days", day))
    return taximeters.meter_regime(law_tariffs(), tables, last_aferition_on, day, grace)
