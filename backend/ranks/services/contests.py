"""Contests (Art. 15-21, 27, 41): published, candidates registered and classified, ties drawn, results granted."""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.utils import timezone

from backend.api_errors import require
from backend.parameters.selectors import current_parameters
from backend.registry.models import Permit, Person
from taxilaw import contest_scoring, rank_acts
from taxilaw import contests as contest_law
from taxilaw import ranks as law
from taxilaw.decision import Decision, Reason

from .. import selectors
from ..models import (
    Candidate,
    CommissionMember,
    Contest,
    ContestDraw,
    ContestRank,
    Rank,
    RankAssignment,
)
from .ranks import assign_rank

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
    decisions = [contest_scoring.vehicle_admissible(model_year, contest.contest_date)]
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
    s = contest_scoring.score(selectors.law_candidate(candidate), contest.contest_date)
    candidate.model_year_points, candidate.experience_points, candidate.qualification_points = s.model_year, s.experience, s.qualification
    candidate.total_points = s.total
    candidate.save(update_fields=["model_year_points", "experience_points", "qualification_points", "total_points"])


@transaction.atomic
def classify_contest(*, contest: Contest, published_on: date) -> Contest:
    """Classify the proposals (Art. 19-21) and allocate them to the ranks of the edital (Art. 19); publish the result."""
    from django.utils.translation import gettext

    contest = _open(contest)
    rows = {str(c.pk): c for c in contest.candidates.all()}
    classification = contest_scoring.classify_candidates(
        [selectors.law_candidate(c) for c in rows.values()], contest.contest_date, promotion=contest.promotion
    )
    vacancies = {str(v.rank_id): v.permits for v in contest.vacancies.order_by("order", "id")}
    allocation = contest_scoring.allocate(classification, vacancies)
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
        contest_scoring.Ranked(c.position, law_c, contest_scoring.score(law_c, contest.contest_date), c.decided_by or None, c.needs_draw)
        for c, law_c in ((c, selectors.law_candidate(c)) for c in rows)
    )
    vacancies = {str(v.rank_id): v.permits for v in contest.vacancies.order_by("order", "id")}
    allocation = contest_scoring.allocate(contest_scoring.Classification(ranked), vacancies)
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
    return contest_law.winner_refused(c.position, c.person.full_name)


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
        in_operation = rank_acts.rank_in_operation(rank.active, rank.name)
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
    require(rank_acts.may_promote(permit is not None, c.person.full_name), "candidates")
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
