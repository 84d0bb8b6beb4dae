"""The registry's part of ``/api/tariffs/current/``: what the driver's own cab's taxímetro charges (Art. 45, §3-§5, Art. 47);
registered with ``backend.tariffs.api.cab`` in ``RegistryConfig.ready``."""

from __future__ import annotations

from datetime import datetime

from backend.api_errors import decision_payload
from backend.registry.selectors import driven_permit, vehicle_in_service
from backend.registry.services.taximeters import cab_meter_regime


def cab_taximeter_answer(user, at: datetime) -> dict | None:
    """None unless ``user`` drives a cab; else the regime of its taxímetro (kept under ``regime`` for the caller),
    the decision and the correction table the phone applies to the meter's reading at the stop."""
    person = getattr(user, "person", None)
    permit = driven_permit(person)[0] if person is not None else None
    vehicle = vehicle_in_service(permit) if permit is not None else None
    if vehicle is None:
        return None
    regime = cab_meter_regime(vehicle, at)
    table = regime.correction
    return {
        "regime": regime,
        "plate": vehicle.plate,
        "decision": decision_payload(regime.decision),
        "correction": None if table is None else {
            "factor": str(table.factor), "authorization": table.authorization,
            "valid_from": table.valid_from.isoformat(), "valid_until": table.valid_until.isoformat(),
        },
    }
