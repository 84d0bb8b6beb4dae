"""Writes on zones, ranks and contests: one transaction each, the law core first."""

from __future__ import annotations

import json
from datetime import date, datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from backend.api_errors import require
from backend.parameters.selectors import current_parameters
from backend.registry.models import Permit, Person
from backend.registry.selectors import vehicle_in_service
from taxilaw import contests as contest_law
from taxilaw import ranks as law
from taxilaw.decision import Decision, Reason
from taxilaw.geodesy import distance_m
from taxilaw.i18n import gettext_noop as _
from zones import Zone, ZoneFileError, load_municipality, load_polygon_geojson

from . import selectors
from .models import (
    AbsenceJustification,
    Candidate,
    CentralZone,
    CommissionMember,
    Contest,
    ContestDraw,
    ContestRank,
    Rank,
    RankAssignment,
    RankCheckIn,
    RankObservation,
    SwapRequest,
)
from .nearby import stand_decision

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
    require(law.may_locate_rank(zone is not Zone.OUTSIDE, lat, lon), "location")
    return zone


def _check_rank_shape(category: str, temporary: bool, opens_on, closes_on) -> None:
    decision = law.check_rank_shape(law.RankCategory(category), temporary, opens_on, closes_on)
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
    require(law.may_keep_titulars(law.RankCategory(rank.category), selectors.current_assignments(rank).exists()), "category")
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
    require(law.permit_may_act(permit.status == Permit.Status.ACTIVE, permit.number, str(permit.get_status_display()), article),
            "permit")


@transaction.atomic
def assign_rank(*, permit: Permit, rank: Rank, since: date) -> RankAssignment:
    """Designate a permit to a private rank (Art. 22, I); it leaves its previous rank."""
    permit = Permit.objects.select_for_update().get(pk=permit.pk)
    rank = Rank.objects.select_for_update().get(pk=rank.pk)
    _require_active(permit, "Art. 22, I")
    require(law.may_designate(law.RankCategory(rank.category), rank.name), "rank")
    require(law.rank_in_operation(rank.active, rank.name), "rank")
    RankAssignment.objects.filter(permit=permit, ended_on__isnull=True).update(ended_on=since)
    return RankAssignment.objects.create(permit=permit, rank=rank, since=since)


# --- check-in (Art. 22, Art. 27, §3, Art. 9, V) ---------------------------------------------------


@transaction.atomic
def check_in(*, permit: Permit, rank: Rank, at: datetime | None = None, position: tuple[float, float] | None = None,
             recorded_by_inspector: bool = False) -> RankCheckIn:
    """A cab arrives at a rank, where its GPS ``position`` (lat, lon) shows it (Art. 9, V); a non-titular at a private
    rank is a visitor (Art. 27, §3). A DIMUTRAN inspector on the spot may record it without a position."""
    at = at or timezone.now()
    if not recorded_by_inspector:
        distance = distance_m(position[0], position[1], rank.lat, rank.lon) if position else None
        radius = current_parameters().as_of("rank_checkin_radius_m", timezone.localtime(at).date())
        require(law.may_check_in_at(distance, float(radius)), "position")
    rank = Rank.objects.select_for_update().get(pk=rank.pk)  # serialize arrivals at the rank
    permit = Permit.objects.select_for_update().get(pk=permit.pk)
    _require_active(permit, "Art. 22")
    require(law.rank_in_operation(rank.active, rank.name), "rank")
    require(law.may_check_in(RankCheckIn.objects.filter(permit=permit, checked_out_at__isnull=True).exists(), permit.number), "permit")
    standing, is_titular = stand_decision(permit, rank, timezone.localtime(at).date())
    require(standing, "rank")
    return RankCheckIn.objects.create(
        permit=permit, vehicle=vehicle_in_service(permit), rank=rank,
        visitor=rank.category == Rank.Category.PRIVATE and not is_titular, checked_in_at=at,
        lat=position[0] if position else None, lon=position[1] if position else None,
    )


@transaction.atomic
def check_out(*, checkin: RankCheckIn, at: datetime | None = None) -> RankCheckIn:
    checkin = RankCheckIn.objects.select_for_update().get(pk=checkin.pk)
    at = at or timezone.now()
    decision = law.may_check_out(checkin.checked_out_at is not None, checkin.checked_in_at, at)
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
    require(law.may_record_observation(start, end), "end")
    if empty is None:
        empty = selectors.rank_was_empty(rank, start, end)
    return RankObservation.objects.create(rank=rank, start=start, end=end, empty=empty, notes=notes)


# --- swaps (Art. 26) ---------------------------------------------------------------------------------


def _swap_assignments(permit_a: Permit, permit_b: Permit, pending: bool = False):
    a = selectors.current_assignment(permit_a)
    b = selectors.current_assignment(permit_b)
    designated = a is not None and b is not None and a.rank_id != b.rank_id
    require(law.may_request_swap(permit_a.pk == permit_b.pk, designated, pending), "permit_b")
    return a, b


def _tenure_only(decision: Decision) -> Decision:
    reasons = [r for r in decision.reasons if r.code != "swap_unauthorized"]
    return Decision.refuse(*reasons, articles=("Art. 26",)) if reasons else Decision.allow("Art. 26, §3")


@transaction.atomic
def request_swap(*, permit_a: Permit, permit_b: Permit, requested_on: date) -> SwapRequest:
    """Ask for the prior authorization of a swap (Art. 26); refused while either holder has 2 years or less at the rank (§3)."""
    require(law.may_request_swap(permit_a.pk == permit_b.pk, True, False), "permit_b")
    for p in (permit_a, permit_b):
        _require_active(Permit.objects.select_for_update().get(pk=p.pk), "Art. 26")
    pending = SwapRequest.objects.filter(
        Q(permit_a__in=[permit_a, permit_b]) | Q(permit_b__in=[permit_a, permit_b]), status=SwapRequest.Status.PENDING
    ).exists()
    a, b = _swap_assignments(permit_a, permit_b, pending)
    require(_tenure_only(law.may_swap(a.since, b.since, False, requested_on)), "permit_a")
    return SwapRequest.objects.create(permit_a=permit_a, permit_b=permit_b, rank_a=a.rank, rank_b=b.rank, requested_on=requested_on)


def _pending(swap: SwapRequest) -> SwapRequest:
    swap = SwapRequest.objects.select_for_update().get(pk=swap.pk)
    require(law.may_decide_swap(swap.status == SwapRequest.Status.PENDING))
    return swap


@transaction.atomic
def authorize_swap(*, swap: SwapRequest, on: date) -> SwapRequest:
    """Authorize, expressly and in advance, and carry out the swap (Art. 26, Art. 26, §2, Art. 26, §3)."""
    swap = _pending(swap)
    a, b = _swap_assignments(swap.permit_a, swap.permit_b)
    require(law.may_decide_swap(True, (a.rank_id, b.rank_id) == (swap.rank_a_id, swap.rank_b_id)))
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


# --- contests (Art. 15-21, 27, 41) -------------------------------------------------------------------


@transaction.atomic
def publish_contest(*, title: str, publication_dates: list[date], contest_date: date, vacancies: list[tuple[Rank, int]],
                    commission: list[tuple[str, str]], promotion: bool = False, on: date | None = None) -> Contest:
    """Publish an edital (Art. 16-18); new permits only below the fleet cap (Art. 41, §2); promotion for central ranks (Art. 27)."""
    on = on or timezone.localdate()
    ranks = [r for r, _n in vacancies]
    edital = contest_law.check_edital([r.pk for r in ranks], promotion, [r.name for r in ranks if r.zone != Rank.Zone.CENTRAL])
    if not edital and "promotion_peripheral_rank" not in edital.codes:
        require(edital, "vacancies")
    decisions = [
        edital,
        contest_law.may_schedule_contest(publication_dates, contest_date),
        contest_law.check_commission(contest_law.CommissionMember(n, contest_law.CommissionBody(b)) for n, b in commission),
    ]
    if not promotion:
        decisions.append(contest_law.may_open_contest(selectors.active_fleet(), current_parameters(), on, sum(n for _r, n in vacancies)))
    require(Decision.all_of(*decisions))
    contest = Contest.objects.create(
        title=title, publication_dates=[d.isoformat() for d in sorted(publication_dates)], contest_date=contest_date, promotion=promotion
    )
    ContestRank.objects.bulk_create(ContestRank(contest=contest, rank=r, permits=n, order=i) for i, (r, n) in enumerate(vacancies))
    CommissionMember.objects.bulk_create(CommissionMember(contest=contest, name=n, body=b) for n, b in commission)
    return contest


def _open(contest: Contest) -> Contest:
    contest = Contest.objects.select_for_update().get(pk=contest.pk)
    require(contest_law.may_register_proposal(contest.status == Contest.Status.PUBLISHED, False, False, ""))
    return contest


@transaction.atomic
def register_candidate(*, contest: Contest, person: Person, model_year: int, profession_since: date | None = None,
                       no_accident_certificate: bool = False, dependants: int = 0, driver_since: date | None = None,
                       resident_since: date | None = None, preferred_ranks: list[int] | None = None) -> Candidate:
    """Register a proposal (Art. 19, Art. 20); refuse an over-age vehicle (Art. 28) and, in a promotion, a non-holder (Art. 27)."""
    contest = _open(contest)
    decisions = [contest_law.vehicle_admissible(model_year, contest.contest_date)]
    if contest.promotion:
        probe = selectors.law_candidate(Candidate(person=person, model_year=model_year))
        decisions.append(law.may_compete_for_vacancy(law.RankZone.CENTRAL, probe.holds_permit))
    require(Decision.all_of(*decisions), "model_year")
    offered = set(contest.vacancies.values_list("rank_id", flat=True))
    preferred = [int(r) for r in preferred_ranks or []]
    outside = bool(set(preferred) - offered)
    require(contest_law.may_register_proposal(True, outside, False, person.full_name), "preferred_ranks")
    require(contest_law.may_register_proposal(True, False, contest.candidates.filter(person=person).exists(), person.full_name), "person")
    candidate = Candidate.objects.create(
        contest=contest, person=person, model_year=model_year, profession_since=profession_since,
        no_accident_certificate=no_accident_certificate, dependants=dependants, driver_since=driver_since,
        resident_since=resident_since, preferred_ranks=preferred,
    )
    _store_score(candidate, contest)
    return candidate


def _store_score(candidate: Candidate, contest: Contest) -> None:
    s = contest_law.score(selectors.law_candidate(candidate), contest.contest_date)
    candidate.model_year_points, candidate.experience_points, candidate.qualification_points = s.model_year, s.experience, s.qualification
    candidate.total_points = s.total
    candidate.save(update_fields=["model_year_points", "experience_points", "qualification_points", "total_points"])


@transaction.atomic
def classify_contest(*, contest: Contest, published_on: date) -> Contest:
    """Classify the proposals (Art. 19-21) and allocate them to the ranks of the edital (Art. 19); publish the result."""
    from django.utils.translation import gettext

    contest = _open(contest)
    rows = {str(c.pk): c for c in contest.candidates.all()}
    classification = contest_law.classify_candidates(
        [selectors.law_candidate(c) for c in rows.values()], contest.contest_date, promotion=contest.promotion
    )
    vacancies = {str(v.rank_id): v.permits for v in contest.vacancies.order_by("order", "id")}
    allocation = contest_law.allocate(classification, vacancies)
    rank_of = {cid: int(rank) for rank, ids in allocation.by_rank.items() for cid in ids}
    for entry in classification.ranked:
        c = rows[entry.candidate.id]
        s = entry.score
        c.model_year_points, c.experience_points, c.qualification_points, c.total_points = s.model_year, s.experience, s.qualification, s.total
        c.position, c.decided_by, c.needs_draw = entry.position, entry.decided_by or "", entry.needs_draw
        c.allocated_rank_id = rank_of.get(entry.candidate.id)
        c.excluded, c.exclusion_reasons = False, []
        c.save()
    for law_c, decision in classification.excluded:
        c = rows[law_c.id]
        c.position, c.allocated_rank_id, c.excluded = None, None, True
        c.exclusion_reasons = [r.as_dict(gettext) for r in decision.reasons]
        c.save()
    contest.status, contest.result_published_on = Contest.Status.CLASSIFIED, published_on
    contest.save(update_fields=["status", "result_published_on"])
    return contest


# --- public draw for full ties (Art. 21 exhausted; Art. 18, § único) ----------------------------------

#: ``decided_by`` of a candidate put ahead of the next one by the commission's public draw.
DRAW_DECIDED_BY = "sorteio (Art. 18, § único)"


def tie_groups(contest: Contest) -> list[list[Candidate]]:
    """Runs of consecutive classified candidates that Art. 21 and the registration order left tied."""
    groups: list[list[Candidate]] = []
    current: list[Candidate] = []
    for c in contest.candidates.filter(excluded=False).order_by("position", "id"):
        if current and c.needs_draw and not current[-1].decided_by:
            current.append(c)
            continue
        if len(current) > 1:
            groups.append(current)
        current = [c] if c.needs_draw else []
    if len(current) > 1:
        groups.append(current)
    return groups


def _reallocate(contest: Contest) -> None:
    """Allocate again, in the stored classification order, to the ranks of the edital (Art. 19)."""
    rows = list(contest.candidates.filter(excluded=False).order_by("position", "id"))
    ranked = tuple(
        contest_law.Ranked(c.position, law_c, contest_law.score(law_c, contest.contest_date), c.decided_by or None, c.needs_draw)
        for c, law_c in ((c, selectors.law_candidate(c)) for c in rows)
    )
    vacancies = {str(v.rank_id): v.permits for v in contest.vacancies.order_by("order", "id")}
    allocation = contest_law.allocate(contest_law.Classification(ranked), vacancies)
    rank_of = {cid: int(rank) for rank, ids in allocation.by_rank.items() for cid in ids}
    for c in rows:
        c.allocated_rank_id = rank_of.get(str(c.pk))
        c.save(update_fields=["allocated_rank"])


@transaction.atomic
def record_draw(*, contest: Contest, candidate_ids: list[int], drawn_on: date, minutes_reference: str) -> ContestDraw:
    """Record the public draw of a full tie (Art. 21, I-III and registration order exhausted; Art. 18, § único).

    The candidates, all of one tied group, take the group's positions in the drawn order; the flag
    ``needs_draw`` is cleared and the ranks of the edital are allocated again (Art. 19).
    """
    contest = Contest.objects.select_for_update().get(pk=contest.pk)
    ids = [int(i) for i in candidate_ids]
    group = next((g for g in tie_groups(contest) if {c.pk for c in g} == set(ids)), None)
    decision = contest_law.may_record_draw(contest.status == Contest.Status.CLASSIFIED,
                                           group is not None and len(ids) == len(set(ids)), contest.contest_date, drawn_on)
    require(decision, {"draw_not_a_tie": "candidates", "draw_before_contest": "drawn_on"}.get(next(iter(decision.codes), "")))
    positions = [c.position for c in group]
    last_decided_by = group[-1].decided_by
    by_id = {c.pk: c for c in group}
    for i, cid in enumerate(ids):
        c = by_id[cid]
        c.position = positions[i]
        c.decided_by = DRAW_DECIDED_BY if i + 1 < len(ids) else last_decided_by
        c.needs_draw = False
        c.save(update_fields=["position", "decided_by", "needs_draw"])
    _reallocate(contest)
    return ContestDraw.objects.create(contest=contest, drawn_order=ids, drawn_on=drawn_on, minutes_reference=minutes_reference)


# --- result: outorga to the registry (Art. 3, Art. 19, Art. 20, §2) or promotion (Art. 27) -----------

#: Number of a permit granted by a contest: ``TX-<year of the result>-<seq>``, the sequence restarting
#: every year, given in classification order.
PERMIT_NUMBER_FORMAT = "TX-{year}-{seq:03d}"


def next_permit_number(year: int) -> str:
    """The next free ``TX-<year>-<seq>`` (``PERMIT_NUMBER_FORMAT``)."""
    prefix = PERMIT_NUMBER_FORMAT.format(year=year, seq=0).rsplit("-", 1)[0] + "-"
    used = [n[len(prefix):] for n in Permit.objects.filter(number__startswith=prefix).values_list("number", flat=True)]
    return PERMIT_NUMBER_FORMAT.format(year=year, seq=max((int(n) for n in used if n.isdigit()), default=0) + 1)


def _winner_reason(c: Candidate) -> Reason:
    return Reason("Art. 19", "contest_winner_refused",
                  _("{position}º classificado, {name}: a outorga não é possível pelos motivos a seguir."),
                  {"position": c.position, "name": c.person.full_name})


@transaction.atomic
def publish_result(*, contest: Contest, result_published_on: date) -> Contest:
    """Publish the contest's result and feed the registry (Art. 3, Art. 19, Art. 27).

    A winner the law core finds ineligible at the grant (Art. 2, Art. 7, Art. 9, § único, Art. 49) is excluded
    with the reasons and the next classified takes the vacancy; a cancelled rank or the fleet cap (Art. 41, §2)
    refuses the whole publication, which then writes nothing.

    Public contest: each allocated candidate, in classification order, is granted a permit awaiting
    the term of commitment (Art. 2, Art. 2, § único, Art. 3, Art. 7; the 30 days of Art. 3, §1 run from
    ``result_published_on``), with the declared model year of the proposal (Art. 20, §2); the designation
    at the allocated private rank (Art. 22, I) starts when the term is signed. Promotion contest
    (Art. 27): the winner's active permit moves to the allocated central rank on ``result_published_on``.
    A tie left for a public draw (Art. 21) blocks the publication.
    """
    contest = Contest.objects.select_for_update().get(pk=contest.pk)
    tied = [c.person.full_name for g in tie_groups(contest) for c in g]
    decision = contest_law.may_publish_result(contest.status, contest.contest_date, result_published_on, tied)
    require(decision, {"result_before_contest": "result_published_on", "draw_pending": "candidates"}.get(next(iter(decision.codes), "")))
    refusals: list[Decision] = []
    while True:
        passed_over = _grant_in_order(contest, result_published_on, refusals)
        if passed_over is None:
            break
        # Art. 2, 7, 9, § único: an ineligible winner is excluded and the next classified takes the vacancy
        _reallocate(contest)
    if refusals:
        require(Decision.all_of(*refusals), "candidates")  # raises: the whole publication is rolled back
    contest.status, contest.result_published_on = Contest.Status.GRANTED, result_published_on
    contest.save(update_fields=["status", "result_published_on"])
    return contest


def _grant_in_order(contest: Contest, on: date, refusals: list[Decision]) -> Candidate | None:
    """Grant (or promote) each allocated winner not served yet, in classification order. A public-contest winner
    the law core finds ineligible (Art. 2, Art. 7, Art. 9, § único, Art. 49) is excluded and returned, so that the
    allocation is made again; any other refusal (a cancelled rank, the fleet cap) is collected in ``refusals``."""
    from django.utils.translation import gettext

    from backend.api_errors import LawViolation
    from backend.registry.services.permits import grant_permit

    winners = (contest.candidates.filter(excluded=False, allocated_rank__isnull=False, permit__isnull=True)
               .select_related("person", "allocated_rank").order_by("position", "id"))
    for c in winners:
        rank = Rank.objects.select_for_update().get(pk=c.allocated_rank_id)
        in_operation = law.rank_in_operation(rank.active, rank.name)
        if not in_operation:
            refusals.append(Decision.refuse(_winner_reason(c), *in_operation.reasons))
            continue
        if contest.promotion:
            try:
                with transaction.atomic():
                    c.permit = _promote(c, rank, on)
                    c.save(update_fields=["permit"])
            except LawViolation as exc:
                refusals.append(Decision.refuse(_winner_reason(c), *exc.decision.reasons))
            continue
        cap = contest_law.may_grant_vacancy(selectors.active_fleet(), current_parameters(), on)
        if not cap:
            refusals.append(Decision.refuse(_winner_reason(c), *cap.reasons))
            continue
        try:
            with transaction.atomic():
                c.permit = grant_permit(person=c.person, number=next_permit_number(on.year), result_published_on=on, on=on,
                                        contest_model_year=c.model_year)
                c.save(update_fields=["permit"])
        except LawViolation as exc:
            c.position, c.allocated_rank, c.excluded = None, None, True
            c.exclusion_reasons = [r.as_dict(gettext) for r in exc.decision.reasons]
            c.save(update_fields=["position", "allocated_rank", "excluded", "exclusion_reasons"])
            return c
    return None


def _promote(c: Candidate, rank: Rank, on: date) -> Permit:
    """Art. 27: the holder's active permit leaves its rank for the central rank won in the promotion."""
    permit = Permit.objects.filter(holder=c.person, status=Permit.Status.ACTIVE).first()
    require(law.may_promote(permit is not None, c.person.full_name), "candidates")
    assign_rank(permit=permit, rank=rank, since=on)
    return permit


def designate_on_term(permit: Permit) -> RankAssignment | None:
    """When the term of a contest permit is signed, designate it at the private rank it won (Art. 3, Art. 19, Art. 22, I).

    Called by the ``post_save`` receiver in :mod:`backend.ranks.signals` (the registry signs terms and must not import
    ranks), inside the signature's transaction. Idempotent: a permit with any designation is left alone.
    """
    if permit.status != Permit.Status.ACTIVE or permit.term_signed_on is None:
        return None
    win = Candidate.objects.filter(permit=permit, contest__promotion=False, contest__status=Contest.Status.GRANTED,
                                   allocated_rank__isnull=False).select_related("allocated_rank").first()
    if win is None or RankAssignment.objects.filter(permit=permit).exists():
        return None
    rank = win.allocated_rank
    if rank.category != Rank.Category.PRIVATE or not rank.active:
        return None  # a free rank has no titulars (Art. 22, II); a cancelled one none either (Art. 23)
    return RankAssignment.objects.create(permit=permit, rank=rank, since=permit.term_signed_on)


# --- force majeure (Art. 9, V) ------------------------------------------------------------------------


@transaction.atomic
def file_justification(*, permit: Permit, start: date, end: date, reason: str) -> AbsenceJustification:
    """File a justification of absences from the rank for force majeure (Art. 9, V); DIMUTRAN decides."""
    decision = law.may_file_justification(start, end, reason)
    require(decision, "end" if "justification_ends_before_start" in decision.codes else "reason")
    return AbsenceJustification.objects.create(permit=permit, start=start, end=end, reason=reason)


@transaction.atomic
def decide_justification(*, justification: AbsenceJustification, accept: bool, on: date, text: str = "") -> AbsenceJustification:
    """DIMUTRAN accepts or refuses the force majeure; only accepted days stop counting as absences (Art. 9, V)."""
    j = AbsenceJustification.objects.select_for_update().get(pk=justification.pk)
    require(law.may_decide_justification(j.status == AbsenceJustification.Status.PENDING))
    j.status = AbsenceJustification.Status.ACCEPTED if accept else AbsenceJustification.Status.REFUSED
    j.decided_on, j.decision_text = on, text
    j.save(update_fields=["status", "decided_on", "decision_text"])
    return j
