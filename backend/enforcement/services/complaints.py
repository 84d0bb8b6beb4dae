"""Passengers' complaints (Art. 60): filed on a ride of theirs, triaged by DIMUTRAN into an auto or archived."""

from __future__ import annotations

from datetime import date
from typing import Sequence

from django.db import transaction
from django.utils import timezone

from backend.api_errors import require
from backend.parameters.selectors import current_parameters
from backend.trips.models import Passenger, Ride, RideStatus
from taxilaw import due_process

from ..models import (
    Complaint,
    InfractionType,
)
from .autos import issue


def _iso(value):
    return value.isoformat() if value else None


def ride_snapshot(ride: Ride) -> dict:
    """The ride's data attached to a complaint: cab, driver, times, fare, trace (the proof of Art. 60)."""
    vehicle = ride.permit.vehicles.filter(in_service=True).first() if ride.permit_id else None
    return {
        "ride_id": ride.pk,
        "permit": ride.permit.number if ride.permit_id else None,
        "cab_id": ride.cab_id,
        "plate": vehicle.plate if vehicle else None,
        "driver_id": ride.driver_id,
        "driver": ride.driver.full_name if ride.driver_id else None,
        "pickup_address": ride.pickup_address,
        "destination_address": ride.destination_address,
        "requested_at": _iso(ride.requested_at),
        "accepted_at": _iso(ride.accepted_at),
        "on_board_at": _iso(ride.on_board_at),
        "completed_at": _iso(ride.completed_at),
        "fare": str(ride.fare) if ride.fare is not None else None,
        "server_total": str(ride.server_total) if ride.server_total is not None else None,
        "meter_disagreement": ride.meter_disagreement,
        "distance_m": ride.distance_m,
        "trace": ride.trace,
    }


@transaction.atomic
def file_complaint(*, passenger: Passenger, ride_id: int, description: str) -> Complaint:
    """A passenger complains about their own ride that a cab took: completed, or abandoned by it (Art. 60, § único)."""
    ride = Ride.objects.select_related("permit", "driver").filter(pk=ride_id).first()
    with_cab = bool(ride and ride.permit_id and ride.driver_id)
    decision = due_process.may_complain(
        own_ride=bool(ride and ride.passenger_id == passenger.pk),
        ride_completed=with_cab and ride.status == RideStatus.COMPLETED,
        cab_abandoned=with_cab and ride.status == RideStatus.CANCELLED and ride.accepted_at is not None,
    )
    require(decision, "ride")
    Passenger.objects.select_for_update().filter(pk=passenger.pk).first()  # one passenger's complaints in turn
    table, on = current_parameters(), timezone.localdate()
    require(due_process.complaint_within_limits(
        filed_on_ride=Complaint.objects.filter(passenger=passenger, ride=ride).count(),
        max_per_ride=int(table.as_of("complaint_max_per_ride", on)),
        chars=len(description), max_chars=int(table.as_of("complaint_max_chars", on)),
    ), "description")
    return Complaint.objects.create(passenger=passenger, ride=ride, description=description, ride_data=ride_snapshot(ride))


@transaction.atomic
def triage_complaint(
    *,
    complaint: Complaint,
    issue_auto: bool,
    reasoning: str,
    on: date,
    infractions: Sequence[InfractionType] = (),
    user=None,
) -> Complaint:
    """DIMUTRAN turns a complaint into an auto, or dismisses it with reasons (Art. 60, § único)."""
    complaint = Complaint.objects.select_for_update().get(pk=complaint.pk)
    require(due_process.may_triage_complaint(complaint.status == Complaint.Status.RECEIVED))
    if issue_auto:
        ride = complaint.ride
        ended_at = ride.completed_at or ride.cancelled_at  # a refusal of service is committed when the cab gave up
        committed_on = timezone.localdate(ended_at) if ended_at else on
        issue(
            permit=ride.permit, person=ride.driver, infractions=infractions, committed_on=committed_on, issued_on=on,
            observation=reasoning or complaint.description, place=ride.pickup_address, inspector=user, complaint=complaint,
        )
        complaint.status = Complaint.Status.AUTO_ISSUED
    else:
        require(due_process.may_dismiss_complaint(reasoning), "reasoning")
        complaint.status = Complaint.Status.DISMISSED
    complaint.triaged_on = on
    complaint.triage_reasoning = reasoning
    complaint.triaged_by = user
    complaint.save(update_fields=["status", "triaged_on", "triage_reasoning", "triaged_by"])
    return complaint
