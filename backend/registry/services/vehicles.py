"""Vehicles and inspections (Art. 14, 28, 34-40)."""

from __future__ import annotations

from datetime import date
from typing import Mapping

from django.db import transaction
from django.utils import timezone

from backend.api_errors import require
from backend.parameters.selectors import current_parameters, municipal_holidays
from taxilaw import clock, documents
from taxilaw import inspection_items as items
from taxilaw import permits as permit_law
from taxilaw import vehicles as law

from ..models import Inspection, Permit, Vehicle
from ..selectors import vehicle_in_service


def check_vehicle_data(permit: Permit, data: dict, on: date) -> dict:
    """Normalize and check a vehicle's data against Art. 14 and Art. 28; used by the services and the admin's forms."""
    data = dict(data)
    data["plate"] = documents.normalize_plate(data["plate"])
    data["renavam"] = documents.normalize_renavam(data["renavam"])
    require(documents.validate_plate(data["plate"]), "plate")
    require(documents.validate_renavam(data["renavam"]), "renavam")
    require(law.may_admit_vehicle(data["model_year"], on), "model_year")
    require(permit_law.may_register_owners(data.get("owner_count", 1), permit.co_owned_grandfathered), "owner_count")
    require(law.model_year_matches(data["manufacture_year"], data["model_year"]), "model_year")
    return data


@transaction.atomic
def register_vehicle(*, permit: Permit, on: date, **data) -> Vehicle:
    """Put the permit's taxi in service: one per permit (Art. 1, III), at most 10 years old (Art. 28), no co-ownership (Art. 14),
    not older than the model year the contest's proposal declared (Art. 20, §2)."""
    permit = Permit.objects.select_for_update().get(pk=permit.pk)
    require(law.one_taxi_per_permit(vehicle_in_service(permit) is not None, permit.number))
    data = check_vehicle_data(permit, data, on)
    require(law.may_register_for_permit(data["model_year"], permit.contest_model_year, on), "model_year")
    return Vehicle.objects.create(permit=permit, in_service_since=on, **data)


@transaction.atomic
def replace_vehicle(*, permit: Permit, on: date, justified: bool = False, **data) -> Vehicle:
    """Swap the taxi (Art. 34, I, Art. 34, II, a-b); the new one meets Art. 28 and Art. 14."""
    permit = Permit.objects.select_for_update().get(pk=permit.pk)
    old = vehicle_in_service(permit)
    data = check_vehicle_data(permit, data, on)
    permit.vehicle_tolerance_until = None  # a conforming taxi ends any Art. 34, § único tolerance
    permit.save(update_fields=["vehicle_tolerance_until"])
    if old is not None:
        require(law.may_replace_vehicle(old.model_year, data["model_year"], justified, permit.contest_model_year, on), "model_year")
        old.in_service = False
        old.removed_on = on
        old.save(update_fields=["in_service", "removed_on"])
    return Vehicle.objects.create(permit=permit, in_service_since=on, **data)


@transaction.atomic
def record_inspection(
    *,
    vehicle: Vehicle,
    inspected_on: date,
    result: str,
    kind: str = Inspection.Kind.ANNUAL,
    seal_number: str = "",
    notes: str = "",
    checklist: Mapping[str, bool] | None = None,
    documents: Mapping[str, bool] | None = None,
) -> Inspection:
    """Record a vistoria (Art. 35-36); a pass gets the seal (Art. 37) for a year; the fee is 0,30 UPFM (Art. 40).
    Never dated ahead of today: a future vistoria would keep a cab legal past its year (Art. 35). It records its
    planilha and the documents presented; a pass needs every item (roof light, Art. 29; visual communication,
    Art. 31, Art. 33; Art. 36) and every document (Art. 39), and the first pass after the term is the start of
    service (Art. 13, III)."""
    require(clock.not_in_future(inspected_on, timezone.localdate(), "Art. 35", "vistoria"), "inspected_on")
    passed = result == Inspection.Result.PASSED
    checklist, documents = dict(checklist or {}), dict(documents or {})
    require(items.known_items(checklist, documents), "checklist")
    if passed:
        require(items.judge_inspection(checklist, documents), "checklist")
    require(law.seal_given(passed, seal_number), "seal_number")
    extraordinary = kind == Inspection.Kind.EXTRAORDINARY
    inspection = Inspection.objects.create(
        vehicle=vehicle,
        kind=kind,
        inspected_on=inspected_on,
        result=result,
        seal_number=seal_number if passed else "",
        valid_until=law.inspection_due(inspected_on) if passed else None,
        fee_brl=law.inspection_fee(current_parameters(), inspected_on),
        fee_due_on=law.inspection_fee_due(inspected_on, extraordinary, municipal_holidays()),
        notes=notes,
        checklist=checklist,
        documents=documents,
    )
    if passed:
        # The first approved vistoria after the term is the start of service (Art. 13, III; Art. 31).
        Permit.objects.filter(pk=vehicle.permit_id, service_started_on__isnull=True, term_signed_on__isnull=False,
                              term_signed_on__lte=inspected_on).update(service_started_on=inspected_on)
    return inspection


@transaction.atomic
def pay_inspection_fee(*, inspection: Inspection, paid_on: date) -> Inspection:
    """Record the payment of the inspection fee (Art. 40)."""
    inspection = Inspection.objects.select_for_update().get(pk=inspection.pk)
    inspection.fee_paid_on = paid_on
    inspection.save(update_fields=["fee_paid_on"])
    return inspection


@transaction.atomic
def tolerate_vehicle(*, permit: Permit, case: str, started_on: date) -> Permit:
    """DIMUTRAN tolerates, for 1 or 3 months, not operating or a stand-in vehicle (Art. 34, § único);
    the scheduler opens the revocation inquiry when the tolerance ends without a conforming taxi. One period,
    never dated ahead of today nor granted on top of a running one (``taxilaw.vehicles.may_grant_tolerance``)."""
    permit = Permit.objects.select_for_update().get(pk=permit.pk)
    require(law.may_grant_tolerance(started_on, permit.vehicle_tolerance_until, timezone.localdate()), "started_on")
    permit.vehicle_tolerance_until = law.tolerance_ends(started_on, law.ToleranceCase(case))
    permit.save(update_fields=["vehicle_tolerance_until"])
    return permit
