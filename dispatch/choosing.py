"""Choosing the cab a ride is offered to (Art. 66): the rank queue at the pickup first, then the nearest free cabs.

Choosing locks nothing (``dispatch.offers`` writes the offer and lets the database settle a race);
every candidate considered is kept for DIMUTRAN's audit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import timedelta

from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext as _

from backend.ranks.models import Rank, RankCheckIn
from backend.registry.models import Permit, Person
from taxilaw.geodesy import distance_m
from zones import Zone

from . import grid
from .compliance import may_work
from .models import Cab, CabStatus, OfferStatus

RANK_RADIUS_M = 250  # a pickup this close to a rank is served from the rank's queue first
MAX_RINGS = 12  # ~6.5 km around the pickup; beyond, operators are asked
SEARCH_RADII = (1, 3, 6, MAX_RINGS)  # squares searched in turn: one query each, most requests stop at the first
CANDIDATES_PER_OFFER = 8
POSITION_FRESH = timedelta(minutes=2)
OUTSIDE = Zone.OUTSIDE.value  # Cab.zone of a cab last seen outside the municipality


@dataclass
class Candidate:
    cab: Cab
    distance_m: float
    source: str  # "rank" or "nearest"
    queue_position: int | None = None
    rank: str | None = None

    def audit(self, allowed: bool, reasons: list[str]) -> dict:
        return {
            "permit": self.cab.permit.number,
            "cab_id": self.cab.pk,
            "source": self.source,
            "rank": self.rank,
            "queue_position": self.queue_position,
            "distance_m": round(self.distance_m),
            "allowed": allowed,
            "reasons": reasons,
        }


@dataclass
class Choice:
    """The cab a ride is offered to, why, and every candidate considered, for DIMUTRAN's audit (Art. 66)."""

    cab: Cab
    reason: str
    audit: list[dict]
    distance_m: float | None


# Free cabs, as one statement written by hand: the ORM spent more time building, compiling and
# instantiating this query (~7 ms: every column of the cab, its permit and its driver) than the
# database spent answering it (~1 ms), and it runs for every offer. A candidate needs the cab's
# columns, its permit's number and its driver's name; any other field of the permit or the person
# is loaded only if read (deferred fields), as when the compliance facts must be read again.
# The nearest few are picked before the joins: joining every free cab of the squares doubled the
# statement's time.
_FREE_CABS = """
SELECT c.*, p.number AS permit_number, d.full_name AS driver_name FROM (
  SELECT c.id, c.permit_id, c.driver_id, c.status, c.online, c.lat, c.lon, c.cell, c.zone, c.position_at,
         c.compliance_facts, c.facts_epoch,
         (c.lat - %s) * (c.lat - %s) + (c.lon - %s) * (c.lon - %s) * %s AS flat2
  FROM dispatch_cab c
  WHERE c.status = %s AND c.online = %s AND c.position_at >= %s AND c.zone <> %s AND {where}
    AND NOT EXISTS (SELECT 1 FROM dispatch_offer o WHERE o.cab_id = c.id AND o.status = %s){exclude}
  ORDER BY flat2, c.id LIMIT %s
) c
JOIN registry_permit p ON p.id = c.permit_id
JOIN registry_person d ON d.id = c.driver_id
ORDER BY c.flat2, c.id
"""


def _placeholders(values) -> str:
    return ", ".join(["%s"] * len(values))


def _free_cabs(lat: float, lon: float, column: str, among: list, exclude: set[int], limit: int) -> list[Cab]:
    """The ``limit`` nearest connected, free, recently seen cabs with no offer pending whose ``column`` is ``among``.

    Ordered by a flat-earth approximation of the distance to (lat, lon), exact enough to rank cabs
    a few km apart; each cab carries it squared, in degrees of latitude, as ``flat2``.
    """
    if not among:
        return []
    fresh = connection.ops.adapt_datetimefield_value(timezone.now() - POSITION_FRESH)
    sql = _FREE_CABS.format(
        where=f"c.{column} IN ({_placeholders(among)})",
        exclude=f" AND c.id NOT IN ({_placeholders(exclude)})" if exclude else "",
    )
    shrink2 = math.cos(math.radians(lat)) ** 2
    # a cab last seen outside the municipality is kept on the map but is never a candidate (Art. 25)
    params = [lat, lat, lon, lon, shrink2, CabStatus.FREE, True, fresh, OUTSIDE, *among, OfferStatus.PENDING, *exclude, limit]
    cabs = list(Cab.objects.raw(sql, params))
    for cab in cabs:
        cab.permit = Permit.from_db(cab._state.db, ["id", "number"], [cab.permit_id, cab.permit_number])
        cab.driver = Person.from_db(cab._state.db, ["id", "full_name"], [cab.driver_id, cab.driver_name])
    return cabs


def rank_queue(lat: float, lon: float, exclude: set[int]) -> list[Candidate]:
    """Free cabs checked in at the rank nearest the pickup (within RANK_RADIUS_M), first come first served."""
    nearest, best = None, RANK_RADIUS_M
    box = 0.003
    ranks = Rank.objects.filter(active=True, lat__range=(lat - box, lat + box), lon__range=(lon - box, lon + box))
    for rank in ranks.values_list("pk", "name", "lat", "lon", named=True):  # no model instances: runs per offer
        d = distance_m(lat, lon, rank.lat, rank.lon)
        if d <= best:
            nearest, best = rank, d
    if nearest is None:
        return []
    queued = list(
        RankCheckIn.objects.filter(rank_id=nearest.pk, checked_out_at__isnull=True).order_by("checked_in_at").values_list("permit_id", flat=True)
    )
    free = {c.permit_id: c for c in _free_cabs(lat, lon, "permit_id", queued, exclude, limit=len(queued))}
    queue = []
    for position, permit_id in enumerate(queued, start=1):
        cab = free.get(permit_id)
        if cab is not None:
            queue.append(Candidate(cab, distance_m(lat, lon, cab.lat, cab.lon), "rank", position, nearest.name))
    return queue


def nearest_free(lat: float, lon: float, exclude: set[int], wanted: int = CANDIDATES_PER_OFFER) -> list[Candidate]:
    """Nearest free cabs by geodesic distance, searched over the grid in growing squares (never a scan of every cab).

    A square of radius R cells holds every cab within R cell widths of the pickup, so the
    search stops once the ``wanted`` nearest found are that close. The database returns only
    the square's nearest few; only those get the geodesic distance the offer records (~50 µs a
    call, ``taxilaw.geodesy``).
    """
    shrink = math.cos(math.radians(lat))
    for radius in SEARCH_RADII:
        cabs = _free_cabs(lat, lon, "cell", grid.square(lat, lon, radius), exclude, limit=wanted + 2)
        covered = radius * grid.CELL_DEG * shrink  # in degrees of latitude, like the statement's flat distances
        if len(cabs) >= wanted and cabs[wanted - 1].flat2 <= covered**2:
            break
    nearest = [Candidate(c, distance_m(lat, lon, c.lat, c.lon), "nearest") for c in cabs]
    return sorted(nearest, key=lambda c: c.distance_m)[:wanted]


def choose(lat: float, lon: float, tried: set[int]) -> Choice | None:
    """The rank queue first, then the nearest free cabs; the first the registry allows now, never one ``tried`` (Art. 66)."""
    queue = rank_queue(lat, lon, tried)
    in_queue = {c.cab.pk for c in queue}
    candidates = queue + [c for c in nearest_free(lat, lon, tried) if c.cab.pk not in in_queue]
    audit, chosen = [], None
    for candidate in candidates:
        if chosen is None:
            decision = may_work(candidate.cab)
            audit.append(candidate.audit(decision.allowed, [r.code for r in decision.reasons]))
            if decision:
                chosen = candidate
        else:
            audit.append(candidate.audit(True, ["not_evaluated"]))
    if chosen is None:
        return None
    reason = (
        _("1º livre na fila do ponto %(rank)s (posição %(pos)s)") % {"rank": chosen.rank, "pos": chosen.queue_position}
        if chosen.source == "rank"
        else _("táxi livre mais próximo (%(m)d m)") % {"m": chosen.distance_m}
    )
    return Choice(chosen.cab, reason, audit, chosen.distance_m)

