"""Writing the trip record: one way to record a finished trip, dispatched or hailed in the street."""

from datetime import datetime
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from backend.parameters.selectors import current_parameters
from backend.registry.selectors import vehicle_in_service
from backend.registry.services.taximeters import cab_meter_regime
from backend.tariffs import selectors as tariff_selectors
from backend.tariffs.services import recompute_trip
from taxilaw.compliance import local_date
from taxilaw.meter_check import fare_hold
from taxilaw.meter_data import Fix

from .models import Ride, RideStatus


def record_finished_trip(ride: Ride, *, meter_total: Decimal, trace: list[dict], stopped_at: datetime) -> Ride:
    """Complete ``ride`` (new, or locked by the caller) with the meter's fare and the server's check beside it.

    The fare is what the phone's meter showed (Art. 43), converted by the correction table the cab's taxímetro is
    under, if any (Art. 45, §3: ``meter_reading`` keeps the reading, ``correction_factor`` the table's factor); the
    server re-runs the meter over the trace from ``ride.on_board_at`` under the tariff the cab's taxímetro charges then
    (the tariff in force, or the one it was afered for: Art. 45, §5, Art. 47, §2) and keeps its total, its distance and
    whether the two disagree; a total beyond the dated bound of ``taxilaw.meter_check.fare_hold`` is held
    (``fare_held``) and no statement counts it until DIMUTRAN releases it (:func:`release_fare`). A trace the meter cannot read raises :class:`~backend.api_errors.LawViolation`
    before anything is written. The caller announces the ride (after the commit).
    """
    fixes = [Fix(f["t"], f["lat"], f["lon"], f.get("accuracy_m")) for f in trace]
    started = ride.on_board_at or (min(f.t for f in fixes) if fixes else stopped_at)
    vehicle = vehicle_in_service(ride.permit) if ride.permit_id else None
    check = recompute_trip(fixes, meter_total, started_at=ride.on_board_at, stopped_at=stopped_at,
                           regime=cab_meter_regime(vehicle, started) if vehicle is not None else None)
    changes = {
        "status": RideStatus.COMPLETED, "completed_at": stopped_at,
        "fare": check.fare_due, "meter_reading": meter_total,
        "correction_factor": check.correction.factor if check.correction else None, "server_total": check.reading.total, "meter_disagreement": not check.decision.allowed,
        "fare_held": not check.hold.allowed, "distance_m": check.reading.distance_m,
        "trace": [{"t": f.t.isoformat(), "lat": f.lat, "lon": f.lon, "accuracy_m": f.accuracy_m} for f in fixes],
    }
    if ride.pk is not None:
        changes["version"] = ride.version + 1
    for name, value in changes.items():
        setattr(ride, name, value)
    if ride.pk is None:
        ride.save()
    else:
        ride.save(update_fields=list(changes))
    return ride


@transaction.atomic
def release_fare(ride_id: int, *, by) -> Ride:
    """DIMUTRAN reviewed a held meter total (Art. 43): the next statement counts it. Releasing twice changes nothing."""
    ride = Ride.objects.select_for_update().get(pk=ride_id, status=RideStatus.COMPLETED)
    if ride.fare_held:
        ride.fare_held, ride.fare_released_at, ride.fare_released_by = False, timezone.now(), by
        ride.save(update_fields=["fare_held", "fare_released_at", "fare_released_by"])
    return ride


def fare_hold_reasons(ride: Ride) -> list:
    """Why the ride's fare is held for DIMUTRAN's review (``taxilaw.meter_check.fare_hold``), to tell the driver; empty if not held."""
    if not ride.fare_held or ride.server_total is None:
        return []
    day = local_date(ride.on_board_at or ride.completed_at)
    ratio = current_parameters().as_of("meter_hold_ratio", day)
    return list(fare_hold(ride.fare, ride.server_total, ratio=ratio, tolerance=tariff_selectors.compare_tolerance(day)).reasons)
