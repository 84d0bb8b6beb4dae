"""Writes of the tariff tables. Each service is one transaction and asks the law core first."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Iterable, Mapping, Sequence

from django.db import transaction
from django.utils import timezone

from backend.api_errors import require
from backend.parameters.selectors import current_parameters
from taxilaw import meter_check, meter_data, tariff_acts
from taxilaw import tariff_study as study_law
from taxilaw import tariffs as law
from taxilaw.decision import Decision
from taxilaw.parameters import ParameterMissing
from taxilaw.taximeters import MeterRegime

from . import selectors
from .models import CorrectionTable, TariffDecree, TariffStudy, TariffStudyItem

TARIFF_FIELDS = ("effective_from", "bandeirada", "price_km_b1", "price_km_b2", "price_hour_waiting", "decree")


def _law_tariff(data: Mapping) -> law.Tariff:
    return law.Tariff(**{name: data[name] for name in TARIFF_FIELDS})


def check_tariff(data: Mapping, *, instance: TariffDecree | None = None) -> Decision:
    """Prices positive, in cents, B2 >= B1, decree named, one tariff per date (Art. 42, 44, 45)."""
    tariff = _law_tariff(data)
    others = [t.to_law() for t in TariffDecree.objects.exclude(pk=getattr(instance, "pk", None))]
    return law.validate_schedule([*others, tariff])


def _require_not_in_force(instance: TariffDecree, field: str | None = None) -> None:
    require(tariff_acts.tariff_not_in_force(instance.effective_from, timezone.localdate()), field)


@transaction.atomic
def decree_tariff(**data) -> TariffDecree:
    """Register a decreed tariff (Art. 44) after the law core validates it (Art. 42, Art. 45, I-II)."""
    require(check_tariff(data))
    return TariffDecree.objects.create(**{name: data[name] for name in TARIFF_FIELDS})


@transaction.atomic
def amend_tariff(instance: TariffDecree, **data) -> TariffDecree:
    """Correct a decree not yet in force; one in force is immutable (Art. 44)."""
    instance = TariffDecree.objects.select_for_update().get(pk=instance.pk)
    _require_not_in_force(instance)
    merged = {name: data.get(name, getattr(instance, name)) for name in TARIFF_FIELDS}
    require(tariff_acts.may_amend_to(merged["effective_from"], timezone.localdate()), "effective_from")
    require(check_tariff(merged, instance=instance))
    for name, value in merged.items():
        setattr(instance, name, value)
    instance.save()
    return instance


@transaction.atomic
def revoke_tariff(instance: TariffDecree) -> None:
    """Delete a decree registered by mistake, only before it takes effect (Art. 44)."""
    instance = TariffDecree.objects.select_for_update().get(pk=instance.pk)
    _require_not_in_force(instance)
    require(tariff_acts.may_revoke(instance.correction_tables.exists()))
    instance.delete()


CORRECTION_FIELDS = ("tariff", "factor", "authorization", "authorized_on", "valid_from", "valid_until")


def check_correction_table(data: Mapping) -> Decision:
    """Mayor's prior authorization, after the decree, at most 30 days (Art. 45, §3-§4)."""
    return law.validate_correction_table(law.CorrectionTable(
        tariff=data["tariff"].to_law(), factor=data["factor"], authorization=data["authorization"],
        authorized_on=data["authorized_on"], valid_from=data["valid_from"], valid_until=data["valid_until"],
    ))


@transaction.atomic
def authorize_correction_table(**data) -> CorrectionTable:
    """Register a correction table the Mayor authorized (Art. 45, §3-§4)."""
    require(check_correction_table(data))
    return CorrectionTable.objects.create(**{name: data[name] for name in CORRECTION_FIELDS})


# --- tariff study (Art. 42) -------------------------------------------------------------

STUDY_FIELDS = ("reference", "effective_from", "vehicle_description", "vehicle_value", "km_per_month",
                "paid_km_ratio", "average_trip_km", "bandeirada_share", "b2_ratio", "waiting_equivalent_kmh")


def _run(study: TariffStudy, items: Sequence[study_law.CostItem]) -> study_law.TariffStudy:
    try:
        return study_law.study(
            items, study.vehicle(), effective_from=study.effective_from,
            bandeirada_share=study.bandeirada_share, b2_ratio=study.b2_ratio,
            waiting_equivalent_kmh=study.waiting_equivalent_kmh, reference=study.reference,
        )
    except (ValueError, ArithmeticError) as exc:
        require(study_law.study_failed(str(exc)))
        raise  # pragma: no cover - require raised


def _store_result(study: TariffStudy, result: study_law.TariffStudy) -> None:
    from django.utils.translation import gettext

    study.cost_per_km = result.cost_per_km
    study.cost_per_paid_km = result.cost_per_paid_km
    study.proposed_bandeirada = result.proposed.bandeirada
    study.proposed_km_b1 = result.proposed.price_km_b1
    study.proposed_km_b2 = result.proposed.price_km_b2
    study.proposed_hour_waiting = result.proposed.price_hour_waiting
    study.capital_capped = result.capital_capped
    study.lines = [{"label": line.label, "value": str(line.value), "unit": line.unit, "article": line.article}
                   for line in result.lines]
    study.warnings = [r.as_dict(gettext) for r in result.warnings]


@transaction.atomic
def create_study(*, items: Iterable[Mapping], created_by=None, **data) -> TariffStudy:
    """Compute and archive a tariff study (Art. 42; capital remuneration capped, Art. 42, § único)."""
    study = TariffStudy(created_by=created_by, **{k: data[k] for k in STUDY_FIELDS if k in data})
    rows = [TariffStudyItem(item=i["item"], amount=i["amount"], basis=i.get("basis", "month"), note=i.get("note", ""))
            for i in items]
    result = _run(study, [r.to_law() for r in rows])
    _store_result(study, result)
    study.save()
    for row in rows:
        row.study = study
    TariffStudyItem.objects.bulk_create(rows)
    return study


@transaction.atomic
def recompute_study(study: TariffStudy) -> TariffStudy:
    """Recompute the stored results from the study's items (after an edit in the admin)."""
    result = _run(study, [i.to_law() for i in study.items.all()])
    _store_result(study, result)
    study.save()
    return study


# --- meter recomputation (Art. 43) ------------------------------------------------------------


@dataclass(frozen=True)
class Recomputation:
    tariff: law.Tariff
    reading: meter_data.MeterReading
    phone_total: Decimal
    tolerance: Decimal
    decision: Decision
    hold: Decision  # refused: the total is held for DIMUTRAN's review before any statement counts it
    correction: law.CorrectionTable | None = None  # the table converting the meter's reading (Art. 45, §3)

    @property
    def server_total(self) -> Decimal:
        return self.reading.total

    @property
    def fare_due(self) -> Decimal:
        """What the passenger pays for the phone's reading: converted by the correction table, if any (Art. 45, §3 and Art. 45, §5)."""
        return self.phone_total if self.correction is None else self.correction.apply(self.phone_total)


def recompute_trip(trace: Iterable[meter_data.Fix], phone_total: Decimal, started_at: datetime | None = None,
                   stopped_at: datetime | None = None, regime: MeterRegime | None = None) -> Recomputation:
    """Re-run the meter over an uploaded trace and compare with the phone (Art. 43, Art. 45, §5).

    The tariff is the one in force when the trip started (Art. 45) or, given the cab's ``regime`` (allowed), the one
    its taxímetro was afered for, with the correction table that converts its reading (Art. 45, §3, Art. 47, §2); the
    fraction, the tolerance and the trip's bounds (duration, fixes) come from the dated parameters. Nothing is
    stored (the dispatch stores rides). Bad input raises
    :class:`backend.api_errors.LawViolation`."""
    fixes = list(trace)
    instants = [("trace", f.t) for f in fixes] + [("started_at", started_at), ("stopped_at", stopped_at)]
    for field, instant in instants:
        aware = instant is None or (isinstance(instant, datetime) and instant.utcoffset() is not None)
        require(tariff_acts.trace_instant_aware(aware), field)
    require(tariff_acts.trace_has_start(bool(fixes), started_at), "trace")
    if started_at is None:
        started_at = min(f.t for f in fixes)
    day = selectors._day(started_at)
    table = current_parameters()
    try:
        max_hours, max_fixes = table.as_of("meter_max_trip_hours", day), table.as_of("meter_max_trace_fixes", day)
    except ParameterMissing:
        require(tariff_acts.meter_limits_in_force(False, day), "started_at")
        raise  # pragma: no cover - require raised
    require(*meter_check.check_trip_size(fixes, started_at, stopped_at, max_hours=max_hours, max_fixes=max_fixes))
    try:
        tariff = regime.tariff if regime is not None and regime.decision else selectors.tariff_in_force(day)
    except law.NoTariffInForce:
        require(tariff_acts.tariff_found(False, day), "started_at")
        raise  # pragma: no cover - require raised
    config = selectors.meter_config(day)  # what the phone was given (Art. 43)
    params = meter_data.MeterParams.from_dict(config["params"])
    holidays = frozenset(date.fromisoformat(d) for d in config["holidays"])
    try:
        reading = meter_check.recompute(fixes, tariff, holidays, params, started_at=started_at, stopped_at=stopped_at)
    except (ValueError, TypeError, ArithmeticError) as exc:
        require(tariff_acts.trace_readable(str(exc)), "trace")
        raise  # pragma: no cover - require raised
    tolerance = selectors.compare_tolerance(day)
    phone = Decimal(str(phone_total))
    hold = meter_check.fare_hold(phone, reading.total, ratio=Decimal(str(table.as_of("meter_hold_ratio", day))),
                               tolerance=tolerance)
    correction = regime.correction if regime is not None and regime.decision else None
    return Recomputation(tariff, reading, phone, tolerance, meter_check.compare(phone, reading.total, tolerance), hold,
                         correction)
