"""Frames too costly for the event loop, read, checked and served in the offering worker (``dispatch.rides.offer_workers``).

Reading and checking a long trace with DRF takes long enough that, on the serving process's event loop, it held
every other socket of the process (docs/dispatch-benchmark.md, "Measurements by module"). Here the serving process
only hands the text over: a frame longer than ``protocol.INLINE_FRAME_BYTES`` is read here, and a trace frame
(``SERVED``) is also checked and served here, whatever its length, so that only its small answer comes back. The
ride's owner is checked before the trace is read (``ride_steps.check_drivers_ride``): a trace for another cab's ride
costs one indexed read. """

from __future__ import annotations

from dataclasses import dataclass

from backend.api_errors import LawViolation
from dispatch import protocol, wire
from dispatch.errors import DispatchError
from dispatch.rides import driver_steps, ride_steps


@dataclass(frozen=True)
class Served:
    """A frame served entirely here: the answer its sender gets."""

    answer: dict


def serve(role: str, frame: str | dict, cab_id: int | None) -> Served | tuple[str, dict]:
    """``frame`` (its text, or loaded by the serving process when short) served (``Served``) if it carries a trace,
    else read and checked: its ``(type, data)`` for the consumer. A refusal is raised as the consumer would raise it."""
    if isinstance(frame, str):
        frame = protocol.load(frame)
    kind = protocol.kind_of(role, frame)
    handler = SERVED.get((role, kind))
    if handler is None:
        return kind, protocol.validate(role, kind, frame)
    return Served(handler(frame, cab_id))


def _ride_complete(frame: dict, cab_id: int) -> dict:
    ride_id = protocol.validate("driver", "ride_complete", frame, schema=protocol.RideId)["ride_id"]
    ride_steps.check_drivers_ride(ride_id, cab_id)  # before the trace is checked
    data = protocol.validate("driver", "ride_complete", frame)
    return driver_steps.complete(data["ride_id"], cab_id, data["meter_total"], data["trace"])


def _street_trip(frame: dict, cab_id: int) -> dict:
    """A refused street trip names it (``trip_id``), so the app knows which queued trip was refused."""
    data = protocol.validate("driver", "street_trip_complete", frame)
    try:
        return driver_steps.street_trip(cab_id, data)
    except (DispatchError, LawViolation) as exc:
        return wire.error(exc, trip_id=str(data["trip_id"]))


SERVED = {("driver", "ride_complete"): _ride_complete, ("driver", "street_trip_complete"): _street_trip}
