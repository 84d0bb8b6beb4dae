"""Writing the trip record: one way to record a finished trip, dispatched or hailed in the street."""

from datetime import datetime
from decimal import Decimal

from backend.tariffs.services import recompute_trip
from taxilaw.meter import Fix

from .models import Ride, RideStatus


def record_finished_trip(ride: Ride, *, meter_total: Decimal, trace: list[dict], stopped_at: datetime) -> Ride:
    """Complete ``ride`` (new, or locked by the caller) with the meter's fare and the server's check beside it.

    The fare is what the phone's meter showed (Art. 43); the server re-runs the meter over the trace from
    ``ride.on_board_at`` under the tariff in force then (Art. 45, §5) and keeps its total, its distance and
    whether the two disagree. A trace the meter cannot read raises :class:`~backend.api_errors.LawViolation`
    before anything is written. The caller announces the ride (after the commit).
    """
    fixes = [Fix(f["t"], f["lat"], f["lon"], f.get("accuracy_m")) for f in trace]
    check = recompute_trip(fixes, meter_total, started_at=ride.on_board_at, stopped_at=stopped_at)
    changes = {
        "status": RideStatus.COMPLETED, "completed_at": stopped_at,
        "fare": meter_total, "server_total": check.reading.total, "meter_disagreement": not check.decision.allowed,
        "distance_m": check.reading.distance_m,
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
