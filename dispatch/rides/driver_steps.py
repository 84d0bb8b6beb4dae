"""The database work of a driver's ride frames, as module-level calls the offering worker runs (dispatch.rides.offer_workers).

Accepting, arriving, boarding and completing are ORM work. On the serving process's threads they held the GIL the
event loop needs for thousands of position frames a second, and made the tail of the request->offer latency
(docs/dispatch-benchmark.md, "Measurements by module"). Each returns what the driver's answer frame carries, read in
the same call. """

from __future__ import annotations

from decimal import Decimal

from dispatch import wire
from dispatch.events import snapshots
from dispatch.rides import offers, ride_steps, street_trips


def accept(offer_id: int, cab_id: int) -> dict:
    return snapshots.for_the_driver(offers.accept_offer(offer_id, cab_id))


def arriving(ride_id: int, cab_id: int, fix: tuple[float, float] | None = None) -> dict:
    return snapshots.for_the_driver(ride_steps.ride_arriving(ride_id, cab_id, fix))


def on_board(ride_id: int, cab_id: int) -> dict:
    return snapshots.for_the_driver(ride_steps.ride_on_board(ride_id, cab_id))


def complete(ride_id: int, cab_id: int, meter_total: Decimal, trace: list[dict]) -> dict:
    ride = ride_steps.ride_complete(ride_id, cab_id, meter_total, trace)
    return wire.RIDE_UPDATED(ride=snapshots.ride(ride), **snapshots.fare_held(ride))  # the driver hears why


def street_trip(cab_id: int, data: dict) -> dict:
    """A street-hail or rank trip: its ``street_trip_recorded`` answer (reads the hold's parameters: same call)."""
    ride, duplicate = street_trips.record_street_trip(
        cab_id, started_at=data["started_at"], stopped_at=data["stopped_at"],
        meter_total=data["meter_total"], trace=data["trace"],
    )
    return street_trips.recorded_frame(data["trip_id"], ride, duplicate)
