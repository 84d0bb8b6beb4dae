"""The ranks near a cab, as its driver sees them: distance, queue, and what the law answers for this cab now.

Read-only: the answer is the same question :func:`backend.ranks.services.ranks.check_in` asks before it writes
(:func:`stand_decision`: Art. 22, I-II; Art. 23; visitors per Art. 27, §3), plus the check-in radius around
the cab's position (Art. 9, V), so the app shows a refused visitor before the driver tries.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.utils import timezone

from backend.parameters.selectors import current_parameters
from backend.registry.models import Permit
from taxilaw import rank_acts
from taxilaw import ranks as law
from taxilaw.decision import Decision
from taxilaw.geodesy import distance_m

from . import selectors
from .models import Rank, RankCheckIn


@dataclass(frozen=True)
class NearbyRank:
    rank: Rank
    distance_m: float
    queue: int  # cabs standing there now (open check-ins)
    titular: bool  # this permit is designated to the rank (Art. 22, I)
    titular_count: int
    visitor_limit: int | None  # private ranks only (Art. 27, §3)
    decision: Decision  # may this cab check in here now, from where it is?


def stand_decision(permit: Permit, rank: Rank, on: date) -> tuple[Decision, bool]:
    """May ``permit``'s cab stand at ``rank`` on ``on`` (Art. 22; Art. 23; Art. 27, §3)? And is it a titular there?

    The counts are the rank's open check-ins, the permit's own excluded (a cab already there is no newcomer)."""
    titulars = set(selectors.current_assignments(rank).values_list("permit_id", flat=True))
    present = selectors.open_checkins(rank).exclude(permit=permit)
    own = present.filter(permit_id__in=titulars).count()
    visitors = present.exclude(permit_id__in=titulars).count()
    is_titular = permit.pk in titulars
    return law.may_stand_at(selectors.rank_facts(rank), is_titular, on, own, visitors), is_titular


def ranks_near(permit: Permit, lat: float, lon: float, limit: int = 8, at: datetime | None = None) -> list[NearbyRank]:
    """The ``limit`` ranks in operation nearest to (lat, lon), nearest first, each with the law's answer for this
    cab: where it stands (the radius, Art. 9, V) and whether it may stand there (Art. 22; Art. 27, §3)."""
    at = at or timezone.now()
    on = timezone.localtime(at).date()
    radius = float(current_parameters().as_of("rank_checkin_radius_m", on))
    nearest = sorted((distance_m(lat, lon, r.lat, r.lon), r.pk, r) for r in Rank.objects.filter(active=True))[:limit]
    out = []
    for distance, _pk, rank in nearest:
        standing, titular = stand_decision(permit, rank, on)
        facts = selectors.rank_facts(rank)
        out.append(NearbyRank(
            rank=rank, distance_m=distance, queue=selectors.open_checkins(rank).count(), titular=titular,
            titular_count=facts.titular_count,
            visitor_limit=law.visitor_limit(facts.titular_count) if rank.category == Rank.Category.PRIVATE else None,
            decision=Decision.all_of(rank_acts.may_check_in_at(distance, radius), standing),
        ))
    return out


def open_checkin(permit: Permit) -> RankCheckIn | None:
    """Where the cab stands now, with its place in the queue (``queue_position``)."""
    checkin = RankCheckIn.objects.filter(permit=permit, checked_out_at__isnull=True).select_related("rank").first()
    if checkin is not None:
        checkin.queue_position = RankCheckIn.objects.filter(
            rank=checkin.rank, checked_out_at__isnull=True, checked_in_at__lte=checkin.checked_in_at).count()
    return checkin
