"""Choosing the cab a ride is offered to (Art. 66): the rank queue at the pickup first, then the nearest free cabs.

Choosing locks nothing (``dispatch.rides.offers`` writes the offer and lets the database settle a race);
every candidate considered is kept for DIMUTRAN's audit.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from datetime import timedelta

from django.db import connection, connections
from django.utils import timezone
from django.utils.translation import gettext as _

from backend.ranks.models import Rank, RankCheckIn
from backend.registry.models import Permit, Person, Vehicle
from dispatch.models import Cab, CabStatus, OfferStatus
from dispatch.rides import grid
from dispatch.rides.choice_rule import candidate_order, first_allowed, queue_order, rank_for_pickup
from dispatch.rides.compliance import may_work
from taxilaw import accessibility
from taxilaw.geodesy import DEGREE_SCALE_ERROR, SEGMENT_ERROR_M, degree_m, distance_m, segment_distance_m
from zones import Zone

MAX_RINGS = 12  # ~6.5 km around the pickup; beyond, operators are asked
SEARCH_RADII = (1, 3, 6, MAX_RINGS)  # squares searched in turn after the pickup's 2x2 quadrant, one query each
CANDIDATES_PER_OFFER = 8
POSITION_FRESH = timedelta(minutes=2)
OUTSIDE = Zone.OUTSIDE.value  # Cab.zone of a cab last seen outside the municipality
# A ride that asks for an equipped cab (taxilaw.accessibility) waits for one farther than the nearest-cab search reads:
# there are few such cabs. Beyond this, the operators are asked (the ride escalates with the passenger told why).
EQUIPPED_REACH_M = 10_000


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
# The nearest few are picked before the joins: joining every free cab of the cells doubled the
# statement's time. On PostgreSQL the cells and the excluded cabs are arrays, so the statement's
# text is always the same: it is prepared once per connection and keeps its generic plan
# (config/settings.py); planning it at every call was ~30% of a search at 10,000 cabs.
# The cabs with an offer pending are one uncorrelated subquery (PostgreSQL hashes it once per search),
# not a NOT EXISTS per cab: the generic plan, made while few offers existed, ran that as a scan of the
# whole pending-offer index for each cab read, and the index keeps every offer closed since the last
# vacuum, so a search grew from under 1 to 24 ms over 600 offers (docs/dispatch-benchmark.md).
_CAB_COLUMNS = ("id", "permit_id", "driver_id", "status", "online", "lat", "lon", "cell", "zone", "position_at",
                "compliance_facts", "facts_epoch")
_FREE_CABS = """
SELECT c.*, p.number AS permit_number, d.full_name AS driver_name FROM (
  SELECT {columns},
         (c.lat - %s) * (c.lat - %s) + (c.lon - %s) * (c.lon - %s) * %s AS flat2
  FROM dispatch_cab c
  WHERE c.status = '{free}' AND c.online AND c.position_at >= %s AND c.zone <> %s AND {where}
    AND c.id NOT IN (SELECT o.cab_id FROM dispatch_offer o WHERE o.status = %s){exclude}
  ORDER BY flat2, c.id LIMIT %s
) c
JOIN registry_permit p ON p.id = c.permit_id
JOIN registry_person d ON d.id = c.driver_id
ORDER BY c.flat2, c.id
""".replace("{columns}", ", ".join(f"c.{name}" for name in _CAB_COLUMNS)).replace("{free}", CabStatus.FREE)


def _placeholders(values) -> str:
    return ", ".join(["%s"] * len(values))


def _free_rows(lat: float, lon: float, shrink: float, column: str, among: list, exclude: set[int], limit: int) -> list[tuple]:
    """The ``limit`` (-1: all) nearest connected, free, recently seen cabs with no offer pending whose ``column`` is ``among``.

    Rows of the statement above, ordered by a flat-earth distance to (lat, lon) in degrees of
    latitude with longitudes times ``shrink``, which each row carries squared (``FLAT2``).
    """
    if not among:
        return []
    fresh = timezone.now() - POSITION_FRESH
    head = [lat, lat, lon, lon, shrink * shrink]
    # a cab last seen outside the municipality is kept on the map but is never a candidate (Art. 25)
    if connection.vendor == "postgresql":
        import psycopg

        sql = _FREE_CABS.format(where=f"c.{column} = ANY(%s)", exclude=" AND c.id <> ALL(%s)")
        params = [*head, fresh, OUTSIDE, list(among), OfferStatus.PENDING, sorted(exclude), None if limit < 0 else limit]
        connection.ensure_connection()
        with psycopg.Cursor(connection.connection) as cursor:  # server-side binding: a prepared statement
            return cursor.execute(sql, params, prepare=True).fetchall()
    sql = _FREE_CABS.format(
        where=f"c.{column} IN ({_placeholders(among)})",
        exclude=f" AND c.id NOT IN ({_placeholders(exclude)})" if exclude else "",
    )
    params = [*head, connection.ops.adapt_datetimefield_value(fresh), OUTSIDE, *among, OfferStatus.PENDING, *exclude, limit]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


_LAT, _LON, FLAT2 = _CAB_COLUMNS.index("lat"), _CAB_COLUMNS.index("lon"), len(_CAB_COLUMNS)


@functools.cache
def _converters(alias: str) -> list[tuple[int, list]]:
    """The database's and the fields' converters of each cab column, as a queryset would apply them."""
    found = []
    for i, name in enumerate(_CAB_COLUMNS):
        field = Cab._meta.get_field(name)
        col = field.get_col(Cab._meta.db_table)
        converters = connections[alias].ops.get_db_converters(col) + field.get_db_converters(connections[alias])
        if converters:
            found.append((i, [(converter, col) for converter in converters]))
    return found


def _cab(row) -> Cab:
    """A cab row of the statement above as a model instance with its permit's number and its driver's name,
    related as ``select_related`` relates them."""
    alias = connection.alias
    values = list(row[:FLAT2])
    for i, steps in _converters(alias):
        for converter, col in steps:
            values[i] = converter(values[i], col, connection)
    cab = Cab.from_db(alias, _CAB_COLUMNS, values)
    _PERMIT.set_cached_value(cab, Permit.from_db(alias, ("id", "number"), (cab.permit_id, row[FLAT2 + 1])))
    _DRIVER.set_cached_value(cab, Person.from_db(alias, ("id", "full_name"), (cab.driver_id, row[FLAT2 + 2])))
    return cab


_PERMIT, _DRIVER = Cab._meta.get_field("permit"), Cab._meta.get_field("driver")


def rank_queue(lat: float, lon: float, exclude: set[int]) -> list[Candidate]:
    """Free cabs checked in at the rank nearest the pickup (within RANK_RADIUS_M), first come first served."""
    box = 0.003
    ranks = Rank.objects.filter(active=True, lat__range=(lat - box, lat + box), lon__range=(lon - box, lon + box))
    nearest = rank_for_pickup(lat, lon, ranks.values_list("pk", "name", "lat", "lon", named=True))  # no model instances: runs per offer
    if nearest is None:
        return []
    queued = list(
        RankCheckIn.objects.filter(rank_id=nearest.pk, checked_out_at__isnull=True).order_by("checked_in_at").values_list("permit_id", flat=True)
    )
    free = {cab.permit_id: cab for cab in map(_cab, _free_rows(lat, lon, 1.0, "permit_id", queued, exclude, -1))}
    return [Candidate(cab, distance_m(lat, lon, cab.lat, cab.lon), "rank", position, nearest.name)
            for position, cab in queue_order(queued, free)]


def nearest_free(lat: float, lon: float, exclude: set[int], wanted: int = CANDIDATES_PER_OFFER) -> list[Candidate]:
    """The ``wanted`` nearest free cabs (ties by id), searched over the grid in growing blocks, never a scan of every cab.

    The database returns the nearest few cabs of each block's new cells by the flat distance at the
    pickup's scale; those get the distance the offer records (``taxilaw.geodesy``). The search stops
    when the ``wanted``-th found is nearer than any cab not read can be: one outside the block is beyond
    its reach, one the statement's limit left out is no nearer than the last row it returned. Most
    searches read the pickup's 2x2 quadrant only.
    """
    per_lat, per_lon = degree_m(lat)
    shrink = per_lon / per_lat
    limit = wanted + 2  # the statement ranks by the flat distance, the answer by the geodesic: a little more
    searched, found, unread2 = [], [], math.inf  # unread2: how near (flat, squared) a cab of the cells searched not read may be
    settled = False
    for cells, reach in grid.blocks(lat, lon, shrink, SEARCH_RADII):
        searched += cells
        rows = _free_rows(lat, lon, shrink, "cell", cells, exclude, limit)
        if len(rows) == limit:
            unread2 = min(unread2, rows[-1][FLAT2])
        found = _ranked(lat, lon, found, rows)
        if _settled(found, wanted, reach * reach, per_lat):  # no cab outside the cells searched is nearer
            settled = _settled(found, wanted, min(reach * reach, unread2), per_lat)  # nor one a limit left unread
            break
    if not settled and unread2 < math.inf:
        # only cabs the limit left unread may be nearer (near ties at the cut), or nothing settled within the
        # largest square: then its nearest, so every free cab of the cells searched is read
        found = _ranked(lat, lon, [], _free_rows(lat, lon, shrink, "cell", searched, exclude, -1))
    return [Candidate(_cab(row), d, "nearest") for d, _pk, row in found[:wanted]]


def _ranked(lat: float, lon: float, found: list[tuple], rows: list[tuple]) -> list[tuple]:
    """``found`` and the rows as (distance in metres, id, row), nearest first.

    Within ~2 km (most candidates) the ellipsoid's local flat formula, within 0.1 mm of the geodesic and ~40x
    cheaper: the geodesics were a third of a search; farther cabs get the geodesic itself (taxilaw.geodesy).
    """
    return sorted(found + [(segment_distance_m(lat, lon, row[_LAT], row[_LON]), row[0], row) for row in rows])


def _settled(found: list[tuple], wanted: int, bound2: float, per_lat: float) -> bool:
    """Whether the ``wanted``-th found is nearer than any cab ``sqrt(bound2)`` or more away by the flat distance.

    The flat distance at the pickup's scale is within DEGREE_SCALE_ERROR of the geodesic over the largest
    square, and the distances found within SEGMENT_ERROR_M of it.
    """
    if len(found) < wanted:
        return False
    bound_m = (1 - DEGREE_SCALE_ERROR) * math.sqrt(bound2) * per_lat - SEGMENT_ERROR_M
    return found[wanted - 1][0] < bound_m


def equipped_free(lat: float, lon: float, exclude: set[int], needs: tuple[str, ...],
                  wanted: int = CANDIDATES_PER_OFFER) -> list[Candidate]:
    """The ``wanted`` nearest free cabs whose vehicle in service has every one of ``needs``, within EQUIPPED_REACH_M.

    Few cabs are so equipped: they are read by permit (the registry's vehicles), not searched over the grid.
    """
    permits = list(Vehicle.objects.filter(in_service=True, **{need: True for need in needs}).values_list("permit_id", flat=True))
    per_lat, per_lon = degree_m(lat)
    rows = _free_rows(lat, lon, per_lon / per_lat, "permit_id", permits, exclude, wanted + 2)
    found = _ranked(lat, lon, [], rows)
    return [Candidate(_cab(row), d, "nearest") for d, _pk, row in found[:wanted] if d <= EQUIPPED_REACH_M]


def vehicle_features(permit_ids: list[int]) -> dict[int, dict[str, bool]]:
    """Each permit's vehicle in service: its features (taxilaw.accessibility.FEATURES), by permit id."""
    rows = Vehicle.objects.filter(in_service=True, permit_id__in=permit_ids).values("permit_id", *accessibility.FEATURES)
    return {row.pop("permit_id"): row for row in rows}


def choose(lat: float, lon: float, tried: set[int], needs: tuple[str, ...] = ()) -> Choice | None:
    """The rank queue first, then the nearest free cabs; the first the registry allows now, never one ``tried`` (Art. 66).

    A ride with ``needs`` (a wheelchair, a child seat) is offered only to a cab whose vehicle has them
    (``taxilaw.accessibility``): the nearest so equipped, however many nearer cabs are not; the rank queue's
    cabs without them are passed over, and the audit says why.
    """
    needs = accessibility.known_needs(needs)
    nearest = equipped_free(lat, lon, tried, needs) if needs else nearest_free(lat, lon, tried)
    candidates = candidate_order(rank_queue(lat, lon, tried), nearest, key=lambda c: c.cab.pk)
    features = vehicle_features([c.cab.permit_id for c in candidates]) if needs else {}

    def decide(c: Candidate):
        if needs:
            equipped = accessibility.equipped_for(needs, features.get(c.cab.permit_id, {}))
            if not equipped:
                return equipped
        return may_work(c.cab)

    chosen, decisions = first_allowed(candidates, decide)
    audit = [c.audit(d.allowed, [r.code for r in d.reasons]) for c, d in zip(candidates, decisions)]
    audit += [c.audit(True, ["not_evaluated"]) for c in candidates[len(decisions):]]
    if chosen is None:
        return None
    reason = (
        _("1º livre na fila do ponto %(rank)s (posição %(pos)s)") % {"rank": chosen.rank, "pos": chosen.queue_position}
        if chosen.source == "rank"
        else _("táxi livre mais próximo (%(m)d m)") % {"m": chosen.distance_m}
    )
    if needs:
        reason += " · " + _("veículo %(needs)s") % {"needs": accessibility.describe(needs)}
    return Choice(chosen.cab, reason, audit, chosen.distance_m)
