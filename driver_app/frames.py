"""The pure translation between the dispatch protocol (docs/dispatch-protocol.md) and the app's messages.

No socket, no thread: :mod:`driver_app.ws` moves the frames, this module says what they mean.
"""

from __future__ import annotations

import uuid
from typing import Any, Callable, Optional

MAX_TRACE_FIXES = 9000  # the server accepts 10 000 fixes per ride_complete (dispatch/protocol.py)
#: error codes that mean "this ride_complete will never be accepted": drop the trip.
FINAL_COMPLETE_ERRORS = {"not_your_ride", "wrong_state", "invalid", "law"}
#: error codes that mean "this street_trip_complete will never be accepted": drop the trip.
FINAL_STREET_ERRORS = {"invalid", "law", "cab_busy", "too_large"}
#: errors without a trip_id that still answer the street trip just sent (the frame was refused as a whole)
STREET_FRAME_ERRORS = {"invalid", "too_large", "internal", "unknown_type"}


def to_server(message: dict[str, Any]) -> Optional[dict[str, Any]]:
    """An app message -> the protocol frame (None: nothing to send)."""
    kind = message.get("type")
    if kind == "status":
        state = message.get("state")
        # a_caminho and ocupado are set by the server itself (offer_accept, ride_on_board), except for a
        # street or ponto passenger: then "ocupado" keeps offers away until the trip ends
        if state in ("livre", "fora_de_servico") or (state == "ocupado" and message.get("street")):
            return {"type": "status", "status": state}
        return None
    if kind == "accept":
        return {"type": "offer_accept", "offer_id": message["offer_id"]}
    if kind == "decline":
        return {"type": "offer_decline", "offer_id": message["offer_id"]}
    if kind == "position":
        frame = {"type": "position", "lat": message["lat"], "lon": message["lon"]}
        accuracy = message.get("accuracy_m", message.get("accuracy"))
        if accuracy is not None:
            frame["accuracy"] = accuracy
        return frame
    if kind in ("rank_check_in", "rank_check_out", "ride_arriving", "ride_on_board", "ride_complete", "ping"):
        return dict(message)
    return None


def offer_to_app(offer: dict[str, Any]) -> dict[str, Any]:
    """The protocol's ``offer`` body -> the app's offer message."""
    pickup = dict(offer.get("pickup") or {})
    if not pickup.get("address"):
        pickup["address"] = f"{pickup.get('lat', 0):.5f}, {pickup.get('lon', 0):.5f}"
    return {"type": "offer", "offer_id": offer["id"], "ride_id": offer.get("ride_id"), "pickup": pickup,
            "distance_m": offer.get("distance_m") or 0, "expires_at": offer.get("expires_at"),
            "reason": offer.get("reason", "")}


def to_app(frame: dict[str, Any]) -> list[dict[str, Any]]:
    """A protocol frame -> the app messages it means (a snapshot may also carry an offer)."""
    kind = frame.get("type")
    if kind == "offer":
        return [offer_to_app(frame["offer"])]
    if kind == "offer_closed":
        return [{"type": "offer_cancelled", "offer_id": frame.get("offer_id"), "status": frame.get("status")}]
    if kind == "snapshot":
        out = [frame]
        if frame.get("offer") and frame["offer"].get("status", "pending") == "pending":
            out.append(offer_to_app(frame["offer"]))
        return out
    return [frame]


def ride_complete_frame(trip: dict[str, Any]) -> dict[str, Any]:
    """A finished trip (MeterViewModel's queue item) -> ``ride_complete`` with the meter's total and trace."""
    return {"type": "ride_complete", "ride_id": int(trip["ride_id"]), "meter_total": str(trip["total"]),
            "trace": wire_trace(trip)}


def street_trip_frame(trip: dict[str, Any]) -> dict[str, Any]:
    """A finished trip without a ride (street hail, rank) -> ``street_trip_complete`` (protocol 1.1).

    ``trip_id`` is the phone's UUID of the trip: the server answers with it, and a trip sent twice is
    recorded once."""
    return {"type": "street_trip_complete", "trip_id": str(trip["trip_id"]), "started_at": trip.get("started_at"),
            "stopped_at": trip.get("stopped_at"), "meter_total": str(trip["total"]),
            "trace": wire_trace(trip)}


def wire_trace(trip: dict[str, Any]) -> list[dict[str, Any]]:
    """The trip's fixes as the protocol wants them; a very long trip keeps every k-th fix and the last one
    (the server takes 10 000)."""
    trace = [{"t": f["t"], "lat": f["lat"], "lon": f["lon"], "accuracy_m": f.get("accuracy_m")}
             for f in trip.get("trace", [])]
    if len(trace) > MAX_TRACE_FIXES:
        step = -(-len(trace) // MAX_TRACE_FIXES)
        trace = trace[::step][: MAX_TRACE_FIXES - 1] + [trace[-1]]
    return trace


def same_trip(a: Any, b: Any) -> bool:
    """Two spellings of one trip UUID (hex or with dashes)."""
    try:
        return uuid.UUID(str(a)) == uuid.UUID(str(b))
    except ValueError:
        return str(a) == str(b)


def completes_ride(ride_id: int) -> Callable[[dict[str, Any]], bool]:
    """The frames that answer the ``ride_complete`` of ``ride_id``: ``ride_updated`` (protocol 1.2) or its refusal."""

    def match(frame: dict[str, Any]) -> bool:
        kind = frame.get("type")
        if kind == "ride_updated":
            return (frame.get("ride") or {}).get("id") == ride_id
        return kind == "error" and frame.get("code") in FINAL_COMPLETE_ERRORS | {"internal"}

    return match


def records_street_trip(trip_id: str) -> Callable[[dict[str, Any]], bool]:
    """The frames that answer the ``street_trip_complete`` of ``trip_id``."""

    def match(frame: dict[str, Any]) -> bool:
        kind = frame.get("type")
        if kind == "street_trip_recorded" or (kind == "error" and frame.get("trip_id") is not None):
            return same_trip(frame.get("trip_id"), trip_id)
        return kind == "error" and frame.get("code") in STREET_FRAME_ERRORS

    return match


def error_text(frame: dict[str, Any]) -> str:
    """An ``error`` frame's message with the fields it names ("Mensagem inválida. (trace: …)")."""
    message = str(frame.get("message", ""))
    fields = frame.get("fields")
    if isinstance(fields, dict) and fields:
        parts = []
        for name, errors in fields.items():
            while isinstance(errors, (list, dict)) and errors:
                errors = errors[0] if isinstance(errors, list) else next(iter(errors.values()))
            parts.append(f"{name}: {errors}")
        message = f"{message} ({'; '.join(parts)})"
    return message
