"""A ride's receipt as plain data: times, route, the cab's CVI and the driver's CMT (Art. 32), the meter's breakdown.

The breakdown re-runs the meter over the stored trace (backend.tariffs.services.recompute_trip, bounded by
the trace the ride kept) and splits its total with :func:`taxilaw.receipt.fare_breakdown`; the lines sum
exactly to the fare paid (Art. 43).
"""

from __future__ import annotations

import math

from django.core.exceptions import ObjectDoesNotExist
from django.utils import timezone
from django.utils.translation import gettext as _

from backend.api_errors import LawViolation
from backend.payments.snapshot import fare_review
from backend.trips.receipt_links import SALT, link_days, link_token, linkable, links, ride_id_from  # noqa: F401 (the receipt's public names)
from taxilaw import receipt as law
from taxilaw.brazil import br_number, brl
from taxilaw.i18n import gettext_noop
from taxilaw.meter_data import Fix


def _when(value):
    return {"at": value.isoformat(), "display": f"{timezone.localtime(value):%d/%m/%Y %H:%M}"} if value else None


def _place(lat, lon, address):
    if lat is None:
        return None
    return {"lat": lat, "lon": lon, "address": address or f"{lat:.5f}, {lon:.5f}"}


def breakdown(ride) -> tuple[list[law.ReceiptLine], object | None]:
    """The meter's lines for a completed ride with a trace, and the tariff; ``([], None)`` when there is none."""
    from backend.registry.selectors import vehicle_in_service
    from backend.registry.services.taximeters import cab_meter_regime
    from backend.tariffs.services import recompute_trip

    if ride.fare is None or not ride.trace or ride.on_board_at is None:
        return [], None
    reading = ride.meter_reading if ride.meter_reading is not None else ride.fare
    vehicle = vehicle_in_service(ride.permit) if ride.permit_id else None
    try:
        fixes = [Fix.from_dict(f) for f in ride.trace]
        check = recompute_trip(fixes, reading, started_at=ride.on_board_at, stopped_at=ride.completed_at,
                               regime=cab_meter_regime(vehicle, ride.on_board_at) if vehicle is not None else None)
    except (LawViolation, KeyError, TypeError, ValueError):  # no tariff in force then, a trace edited by hand:
        return [], None  # the receipt still shows the fare paid
    lines = law.fare_breakdown(check.reading, check.tariff, reading)
    if ride.fare != reading:  # the taxímetro awaited its aferição: the correction table converted its reading
        lines.append(law.ReceiptLine("correction", gettext_noop("Tabela de correção autorizada pelo Prefeito"),
                                     f"× {ride.correction_factor}", ride.fare - reading, "Art. 45, §3"))
    return lines, check.tariff


def _paid(ride) -> dict | None:
    """``{method, method_display, receiver}`` of the ride's recorded payment, or ``None`` (not paid yet, held)."""
    try:
        paid = ride.payment
    except ObjectDoesNotExist:
        return None
    return {"method": paid.method, "method_display": str(paid.get_method_display()), "receiver": paid.receiver.full_name}


def receipt(ride) -> dict:
    """Everything the receipt shows, formatted for a Brazilian reader."""
    lines, tariff = breakdown(ride)
    creds = ride.credentials or {}
    trace = ride.trace if lines else []  # a trace the meter could read
    summary = law.trace_summary(trace, ride.distance_m)
    return {
        "ride_id": ride.pk,
        "status": ride.status,
        "status_label": str(ride.get_status_display()),
        "times": {name: _when(getattr(ride, f"{name}_at")) for name in
                  ("requested", "accepted", "arriving", "on_board", "completed", "cancelled")},
        "pickup": _place(ride.pickup_lat, ride.pickup_lon, ride.pickup_address),
        "destination": _place(ride.destination_lat, ride.destination_lon, ride.destination_address),
        "permit": creds.get("permit") or "",
        "cvi": creds.get("cvi"),
        "driver": creds.get("driver"),
        "fare": str(ride.fare) if ride.fare is not None else None,
        "fare_display": brl(ride.fare),
        "fare_review": fare_review(ride),
        "payment": _paid(ride),  # how it was paid (issue #30 item 7)  # held for DIMUTRAN's review: not charged yet (taxilaw.settlement.check_charge)
        "meter_disagreement": ride.meter_disagreement,
        "lines": [dict(line.to_dict(), label=_(line.label), amount_display=brl(line.amount)) for line in lines],
        "tariff_decree": tariff.decree if tariff else "",
        "route": {"fixes": summary.fixes, "minutes": int(summary.duration_s // 60),
                  "km": round(summary.km, 2), "km_display": br_number(summary.km, 2),
                  "sketch": sketch(trace)},
        "links": links(ride) if linkable(ride) else None,
    }


def sketch(trace, width: int = 300, height: int = 160, most: int = 400) -> str:
    """The trace as SVG polyline points in a ``width`` x ``height`` box (north up), at most ``most`` points."""
    if len(trace) < 2:
        return ""
    step = max(1, len(trace) // most)
    shrink = math.cos(math.radians(trace[0]["lat"]))  # a degree of longitude is shorter than one of latitude
    pts = [(f["lon"] * shrink, f["lat"]) for f in [*trace[::step], trace[-1]]]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    span = max(max(xs) - min(xs), max(ys) - min(ys), 1e-6)
    scale = min(width, height) * 0.9 / span
    ox = (width - (max(xs) - min(xs)) * scale) / 2
    oy = (height - (max(ys) - min(ys)) * scale) / 2
    return " ".join(f"{ox + (x - min(xs)) * scale:.1f},{height - oy - (y - min(ys)) * scale:.1f}" for x, y in pts)
