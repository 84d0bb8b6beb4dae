"""Writes on the central zone, ranks, their assignments, check-ins, observations, swaps and force majeure."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime
from typing import Callable

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from backend.api_errors import require
from backend.parameters.selectors import current_parameters
from backend.registry.models import Permit
from backend.registry.selectors import vehicle_in_service
from taxilaw import clock, rank_acts
from taxilaw import ranks as law
from taxilaw.decision import Decision
from taxilaw.geodesy import distance_m
from zones import Zone, ZoneFileError, load_municipality, load_polygon_geojson

from .. import selectors
from ..models import (
    AbsenceJustification,
    Candidate,
    CentralZone,
    Contest,
    Rank,
    RankAssignment,
    RankCheckIn,
    RankObservation,
    SwapRequest,
)
from ..nearby import stand_decision

# --- central zone (Art. 24) ------------------------------------------------------------------


@transaction.atomic
def upload_central_zone(*, geojson, effective_from: date, source: str) -> CentralZone:
    """Store a new dated central-zone polygon, validated (Art. 24); ranks are re-zoned when it is in force."""
    text = geojson if isinstance(geojson, (str, bytes)) else json.dumps(geojson, ensure_ascii=False)
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    try:
        load_polygon_geojson(text, load_municipality())
    except ZoneFileError as exc:
        require(Decision.refuse(exc.reason), "geojson")
    zone = CentralZone.objects.create(geojson=text, effective_from=effective_from, source=source)
    if effective_from <= timezone.localdate():
        rezone_ranks()
    return zone


def rezone_ranks() -> None:
    """Recompute the stored zone of every rank against the central zone in force (Art. 24, Art. 25)."""
    clf = selectors.classifier()
    for rank in Rank.objects.select_for_update():
        zone = clf.classify(rank.lon, rank.lat)
        if zone is not Zone.OUTSIDE and zone.value != rank.zone:
            rank.zone = zone.value
            rank.save(update_fields=["zone"])


# --- ranks (Art. 22-23) ------------------------------------------------------------------------


def _zone_of(lon: float, lat: float) -> Zone:
    zone = selectors.classify(lon, lat)
    require(rank_acts.may_locate_rank(zone is not Zone.OUTSIDE, lat, lon), "location")
    return zone


def _check_rank_shape(category: str, temporary: bool, opens_on, closes_on) -> None:
    decision = rank_acts.check_rank_shape(law.RankCategory(category), temporary, opens_on, closes_on)
    require(decision, "closes_on" if "temporary_rank_bad_duration" in decision.codes else "temporary")


@transaction.atomic
def create_rank(*, name: str, lon: float, lat: float, category: str, temporary: bool = False,
                opens_on: date | None = None, closes_on: date | None = None) -> Rank:
    """Locate a rank (Art. 22, Art. 23); its zone comes from the central zone in force (Art. 24/25)."""
    zone = _zone_of(lon, lat)
    _check_rank_shape(category, temporary, opens_on, closes_on)
    return Rank.objects.create(
        name=name, lon=lon, lat=lat, category=category, zone=zone.value, temporary=temporary,
        opens_on=opens_on if temporary else None, closes_on=closes_on if temporary else None,
    )


@transaction.atomic
def update_rank(rank: Rank, **changes) -> Rank:
    rank = Rank.objects.select_for_update().get(pk=rank.pk)
    for key, value in changes.items():
        setattr(rank, key, value)
    rank.zone = _zone_of(rank.lon, rank.lat).value
    _check_rank_shape(rank.category, rank.temporary, rank.opens_on, rank.closes_on)
    require(rank_acts.may_keep_titulars(law.RankCategory(rank.category), selectors.current_assignments(rank).exists()), "category")
    if not rank.temporary:
        rank.opens_on = rank.closes_on = None
    rank.save()
    return rank


@transaction.atomic
def cancel_rank(rank: Rank, on: date) -> Rank:
    """Cancel a rank (Art. 23; Art. 27, §2): it stops operating, its designations end."""
    rank = Rank.objects.select_for_update().get(pk=rank.pk)
    rank.active = False
    rank.cancelled_on = on
    rank.save(update_fields=["active", "cancelled_on"])
    selectors.current_assignments(rank).update(ended_on=on)
    return rank


def _require_active(permit: Permit, article: str) -> None:
    require(rank_acts.permit_may_act(permit.status == Permit.Status.ACTIVE, permit.number, str(permit.get_status_display()), article),
            "permit")


@transaction.atomic
def assign_rank(*, permit: Permit, rank: Rank, since: date) -> RankAssignment:
    """Designate a permit to a private rank (Art. 22, I); it leaves its previous rank."""
    permit = Permit.objects.select_for_update().get(pk=permit.pk)
    rank = Rank.objects.select_for_update().get(pk=rank.pk)
    _require_active(permit, "Art. 22, I")
    require(rank_acts.may_designate(law.RankCategory(rank.category), rank.name), "rank")
    require(rank_acts.rank_in_operation(rank.active, rank.name), "rank")
    RankAssignment.objects.filter(permit=permit, ended_on__isnull=True).update(ended_on=since)
    return RankAssignment.objects.create(permit=permit, rank=rank, since=since)


@transaction.atomic
def designate_titular(*, permit: Permit, rank: Rank, since: date) -> RankAssignment:
    """DIMUTRAN designates a permit to a private rank (Art. 22, I): at a central-zone rank only the winner of a
    contest for it, or a permit already designated in the central zone (Art. 27; Art. 27, §1)."""
    current = RankAssignment.objects.filter(permit=permit, ended_on__isnull=True).select_related("rank").first()
    won = Candidate.objects.filter(
        Q(permit=permit) | Q(person=permit.holder_id, contest__promotion=True),
        allocated_rank=rank, contest__status=Contest.Status.GRANTED,
    ).exists()
    require(rank_acts.may_designate_in_zone(
        law.RankZone(rank.zone), law.RankZone(current.rank.zone) if current else None, won, rank.name), "rank")
    return assign_rank(permit=permit, rank=rank, since=since)


# --- check-in (Art. 22, Art. 27, §3, Art. 9, V) ---------------------------------------------------


@dataclass(frozen=True)
class CabSeen:
    """What the server knows of a permit's cab: its last flushed position (lat, lon) and whether it serves a ride."""

    position: tuple[float, float] | None
    serving_ride: bool


def _nothing_seen(permit_id: int) -> CabSeen | None:
    return None


#: Reads :class:`CabSeen` for a permit id. The dispatch app keeps the cabs' positions and installs its reader
#: (``dispatch.apps``): backend never imports dispatch, yet every door to :func:`check_in` is judged on them.
cab_seen: Callable[[int], CabSeen | None] = _nothing_seen


def read_cabs_with(reader: Callable[[int], CabSeen | None]) -> None:
    global cab_seen
    cab_seen = reader


@transaction.atomic
def check_in(*, permit: Permit, rank: Rank, at: datetime | None = None, position: tuple[float, float] | None = None,
             recorded_by_inspector: bool = False, correction_reason: str = "", recorded_by=None) -> RankCheckIn:
    """A cab arrives at a rank, where the server last saw it (Art. 9, V), free (Art. 22); a non-titular at a private
    rank is a visitor (Art. 27, §3). ``position`` is a fix the caller's process received and has not flushed yet (the
    socket's); without one, the cab's last flushed position. What a client merely claims is never a position here.
    A DIMUTRAN inspector records it today and on the same position evidence; a past day only as a justified
    correction (``correction_reason``), kept with ``recorded_by`` (Art. 9, V)."""
    at = at or timezone.now()
    correction = recorded_by_inspector and bool((correction_reason or "").strip())
    seen = cab_seen(permit.pk)
    require(rank_acts.may_queue_at_rank(seen is not None and seen.serving_ride), "permit")
    if not correction:
        position = position or (seen.position if seen else None)
        distance = distance_m(position[0], position[1], rank.lat, rank.lon) if position else None
        radius = current_parameters().as_of("rank_checkin_radius_m", timezone.localtime(at).date())
        require(rank_acts.may_check_in_at(distance, float(radius)), "position")
    rank = Rank.objects.select_for_update().get(pk=rank.pk)  # serialize arrivals at the rank
    permit = Permit.objects.select_for_update().get(pk=permit.pk)
    _require_active(permit, "Art. 22")
    require(rank_acts.rank_in_operation(rank.active, rank.name), "rank")
    require(rank_acts.may_check_in(RankCheckIn.objects.filter(permit=permit, checked_out_at__isnull=True).exists(), permit.number), "permit")
    standing, is_titular = stand_decision(permit, rank, timezone.localtime(at).date())
    require(standing, "rank")
    if recorded_by_inspector:
        require(clock.may_record_staff_checkin(timezone.localtime(at).date(), timezone.localdate(), correction_reason), "at")
    return RankCheckIn.objects.create(
        permit=permit, vehicle=vehicle_in_service(permit), rank=rank,
        visitor=rank.category == Rank.Category.PRIVATE and not is_titular, checked_in_at=at,
        lat=position[0] if position and not correction else None, lon=position[1] if position and not correction else None,
        correction_reason=(correction_reason or "").strip() if correction else "", recorded_by=recorded_by,
    )


@transaction.atomic
def check_out(*, checkin: RankCheckIn, at: datetime | None = None) -> RankCheckIn:
    checkin = RankCheckIn.objects.select_for_update().get(pk=checkin.pk)
    at = at or timezone.now()
    decision = rank_acts.may_check_out(checkin.checked_out_at is not None, checkin.checked_in_at, at)
    require(decision, "checked_out_at" if "checkout_before_checkin" in decision.codes else None)
    checkin.checked_out_at = at
    checkin.save(update_fields=["checked_out_at"])
    return checkin


def leave_rank(*, permit_id: int, at: datetime) -> None:
    """The cab took a ride: whatever rank it stood at, it left at ``at`` (Art. 22). One statement, no lock:
    called inside the accepting transaction, which holds the cab."""
    RankCheckIn.objects.filter(permit_id=permit_id, checked_out_at__isnull=True).update(checked_out_at=at)


def leave_rank_for_trip(*, permit_id: int, started_at: datetime) -> bool:
    """A street trip was recorded: was the cab checked in at a rank when it started (the passenger took it at the
    ponto)? If so the cab left the rank then; its check-in ends at ``started_at`` if still open (Art. 22)."""
    checkin = (RankCheckIn.objects.filter(permit_id=permit_id, checked_in_at__lte=started_at)
               .filter(Q(checked_out_at__isnull=True) | Q(checked_out_at__gte=started_at)).first())
    if checkin is None:
        return False
    if checkin.checked_out_at is None:
        checkin.checked_out_at = started_at
        checkin.save(update_fields=["checked_out_at"])
    return True


# --- observations (Art. 27, §2) ---------------------------------------------------------------------


@transaction.atomic
def record_observation(*, rank: Rank, start: datetime, end: datetime, empty: bool | None = None, notes: str = "") -> RankObservation:
    """Record an inspection of the rank; ``empty`` defaults to what the check-in records show (Art. 27, §2)."""
    rank = Rank.objects.select_for_update().get(pk=rank.pk)
    require(rank_acts.may_record_observation(start, end), "end")
    if empty is None:
        empty = selectors.rank_was_empty(rank, start, end)
    return RankObservation.objects.create(rank=rank, start=start, end=end, empty=empty, notes=notes)


# --- swaps (Art. 26) ---------------------------------------------------------------------------------


def _swap_assignments(permit_a: Permit, permit_b: Permit, pending: bool = False):
    a = selectors.current_assignment(permit_a)
    b = selectors.current_assignment(permit_b)
    designated = a is not None and b is not None and a.rank_id != b.rank_id
    require(rank_acts.may_request_swap(permit_a.pk == permit_b.pk, designated, pending), "permit_b")
    return a, b


@transaction.atomic
def request_swap(*, permit_a: Permit, permit_b: Permit, requested_on: date) -> SwapRequest:
    """Ask for the prior authorization of a swap (Art. 26); refused while either holder has 2 years or less at the rank (§3)."""
    require(rank_acts.may_request_swap(permit_a.pk == permit_b.pk, True, False), "permit_b")
    for p in (permit_a, permit_b):
        _require_active(Permit.objects.select_for_update().get(pk=p.pk), "Art. 26")
    pending = SwapRequest.objects.filter(
        Q(permit_a__in=[permit_a, permit_b]) | Q(permit_b__in=[permit_a, permit_b]), status=SwapRequest.Status.PENDING
    ).exists()
    a, b = _swap_assignments(permit_a, permit_b, pending)
    require(rank_acts.may_request_swap_by_tenure(a.since, b.since, requested_on), "permit_a")
    return SwapRequest.objects.create(permit_a=permit_a, permit_b=permit_b, rank_a=a.rank, rank_b=b.rank, requested_on=requested_on)


def _pending(swap: SwapRequest) -> SwapRequest:
    swap = SwapRequest.objects.select_for_update().get(pk=swap.pk)
    require(rank_acts.may_decide_swap(swap.status == SwapRequest.Status.PENDING))
    return swap


@transaction.atomic
def authorize_swap(*, swap: SwapRequest, on: date) -> SwapRequest:
    """Authorize, expressly and in advance, and carry out the swap (Art. 26, Art. 26, §2, Art. 26, §3)."""
    swap = _pending(swap)
    a, b = _swap_assignments(swap.permit_a, swap.permit_b)
    require(rank_acts.may_decide_swap(True, (a.rank_id, b.rank_id) == (swap.rank_a_id, swap.rank_b_id)))
    require(law.may_swap(a.since, b.since, True, on), "on")
    RankAssignment.objects.filter(pk__in=[a.pk, b.pk]).update(ended_on=on)
    RankAssignment.objects.create(permit=swap.permit_a, rank=b.rank, since=on)
    RankAssignment.objects.create(permit=swap.permit_b, rank=a.rank, since=on)
    swap.status, swap.authorized, swap.decided_on = SwapRequest.Status.AUTHORIZED, True, on
    swap.save(update_fields=["status", "authorized", "decided_on"])
    return swap


@transaction.atomic
def refuse_swap(*, swap: SwapRequest, on: date, reason: str = "") -> SwapRequest:
    swap = _pending(swap)
    swap.status, swap.decided_on, swap.decision_text = SwapRequest.Status.REFUSED, on, reason
    swap.save(update_fields=["status", "decided_on", "decision_text"])
    return swap


# --- force majeure (Art. 9, V) ------------------------------------------------------------------------


@transaction.atomic
def file_justification(*, permit: Permit, start: date, end: date, reason: str) -> AbsenceJustification:
    """File a justification of absences from the rank for force majeure (Art. 9, V); DIMUTRAN decides."""
    decision = rank_acts.may_file_justification(start, end, reason)
    require(decision, "end" if "justification_ends_before_start" in decision.codes else "reason")
    return AbsenceJustification.objects.create(permit=permit, start=start, end=end, reason=reason)


@transaction.atomic
def decide_justification(*, justification: AbsenceJustification, accept: bool, on: date, text: str = "") -> AbsenceJustification:
    """DIMUTRAN accepts or refuses the force majeure; only accepted days stop counting as absences (Art. 9, V)."""
    j = AbsenceJustification.objects.select_for_update().get(pk=justification.pk)
    require(rank_acts.may_decide_justification(j.status == AbsenceJustification.Status.PENDING))
    j.status = AbsenceJustification.Status.ACCEPTED if accept else AbsenceJustification.Status.REFUSED
    j.decided_on, j.decision_text = on, text
    j.save(update_fields=["status", "decided_on", "decision_text"])
    return j
