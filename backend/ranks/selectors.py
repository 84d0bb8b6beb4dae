"""Reads of zones, ranks and contests, shaped as the law core's facts."""

from __future__ import annotations

import calendar
import json
from datetime import date, datetime, time
from functools import lru_cache

from django.db import transaction
from django.utils import timezone

from backend.registry.models import Permit
from backend.registry.selectors import LIVE_STATUSES
from taxilaw import rank_attendance
from taxilaw import ranks as law
from taxilaw.contest_scoring import Candidate as LawCandidate
from zones import Zone, ZoneClassifier, load_municipality, load_polygon_geojson
from zones.geojson import BOUNDARY_FILE, CENTRAL_ZONE_FILE

from .models import AbsenceJustification, CentralZone, Rank, RankAssignment, RankCheckIn, RankObservation

SEED_SOURCE = "zones/data/central_zone.geojson (aproximação da Lei 1.242/1987, Art. 24)"
SEED_EFFECTIVE_FROM = date(1987, 12, 28)


# --- central zone (Art. 24) ------------------------------------------------------------------


def current_central_zone(on: date | None = None) -> CentralZone:
    """The central zone in force on ``on``: the latest effective; seeded from zones/data on first use."""
    on = on or timezone.localdate()
    zone = CentralZone.objects.filter(effective_from__lte=on).order_by("-effective_from", "-uploaded_at", "-id").first()
    if zone is None:
        with transaction.atomic():
            zone = CentralZone.objects.filter(source=SEED_SOURCE).first() or CentralZone.objects.create(
                geojson=CENTRAL_ZONE_FILE.read_text("utf-8"), effective_from=SEED_EFFECTIVE_FROM, source=SEED_SOURCE
            )
    return zone


@lru_cache(maxsize=8)
def _classifier(zone_pk: int, geojson: str) -> ZoneClassifier:
    municipality = load_municipality()
    return ZoneClassifier(load_polygon_geojson(geojson, municipality), municipality)


def classifier(on: date | None = None) -> ZoneClassifier:
    zone = current_central_zone(on)
    return _classifier(zone.pk, zone.geojson)


def classify(lon: float, lat: float, on: date | None = None) -> Zone:
    """Zone of a point (Art. 24 central, Art. 25 peripheral, or outside the municipality)."""
    return classifier(on).classify(lon, lat)


def _feature_collection(features, **extra) -> dict:
    return {"type": "FeatureCollection", **extra, "features": list(features)}


def central_zone_geojson(on: date | None = None) -> dict:
    zone = current_central_zone(on)
    polygon = load_polygon_geojson(zone.geojson, load_municipality())
    feature = {
        "type": "Feature",
        "geometry": polygon.__geo_interface__,
        "properties": {
            "name": "Zona central (Art. 24)",
            "article": "Art. 24",
            "effective_from": zone.effective_from.isoformat(),
            "source": zone.source,
            "uploaded_at": zone.uploaded_at.isoformat(),
        },
    }
    return _feature_collection([feature])


@lru_cache(maxsize=1)
def boundary_geojson() -> dict:
    data = json.loads(BOUNDARY_FILE.read_text("utf-8"))
    feature = {
        "type": "Feature",
        "geometry": load_municipality().__geo_interface__,
        "properties": {"name": "Muriaé", "ibge_code": "3143906", "article": "Art. 25", "source": (data.get("features") or [{}])[0].get("properties", {}).get("source", "IBGE")},
    }
    return _feature_collection([feature])


def ranks_geojson(on: date | None = None) -> dict:
    on = on or timezone.localdate()
    features = []
    for rank in Rank.objects.filter(active=True):
        facts = rank_facts(rank)
        features.append(
            {
                "type": "Feature",
                "id": rank.pk,
                "geometry": {"type": "Point", "coordinates": [rank.lon, rank.lat]},
                "properties": {
                    "id": rank.pk,
                    "name": rank.name,
                    "category": rank.category,
                    "category_label": str(rank.get_category_display()),
                    "zone": rank.zone,
                    "zone_label": str(rank.get_zone_display()),
                    "temporary": rank.temporary,
                    "opens_on": rank.opens_on.isoformat() if rank.opens_on else None,
                    "closes_on": rank.closes_on.isoformat() if rank.closes_on else None,
                    "open_today": law.rank_is_open(facts, on).allowed,
                    "titulars": facts.titular_count,
                },
            }
        )
    return _feature_collection(features)


# --- ranks ---------------------------------------------------------------------------------------


def current_assignments(rank: Rank):
    return RankAssignment.objects.filter(rank=rank, ended_on__isnull=True)


def current_assignment(permit: Permit) -> RankAssignment | None:
    return RankAssignment.objects.filter(permit=permit, ended_on__isnull=True).select_related("rank").first()


def rank_facts(rank: Rank) -> law.RankFacts:
    return law.RankFacts(
        category=law.RankCategory(rank.category),
        zone=law.RankZone(rank.zone),
        titular_count=current_assignments(rank).count(),
        temporary=rank.temporary,
        opens_on=rank.opens_on,
        closes_on=rank.closes_on,
    )


def open_checkins(rank: Rank):
    return RankCheckIn.objects.filter(rank=rank, checked_out_at__isnull=True)


def observations(rank: Rank) -> list[law.Observation]:
    return [law.Observation(o.start, o.end, o.empty) for o in RankObservation.objects.filter(rank=rank).order_by("start")]


def rank_was_empty(rank: Rank, start: datetime, end: datetime) -> bool:
    """From the check-in records: did no cab stand at the rank at any moment of [start, end]?"""
    from django.db.models import Q

    return not RankCheckIn.objects.filter(rank=rank, checked_in_at__lte=end).filter(
        Q(checked_out_at__isnull=True) | Q(checked_out_at__gte=start)
    ).exists()


def staffing(rank: Rank):
    """Art. 27, §2 on the recorded observations."""
    return law.check_rank_staffing(observations(rank))


def _local_day(value: datetime, tz) -> date:
    return timezone.localtime(value, tz).date()


def attendance(rank: Rank, year: int, month: int, today: date | None = None) -> list[dict]:
    """Art. 9, V for each titular of the rank in the month, from the check-in records."""
    today = today or timezone.localdate()
    tz = timezone.get_current_timezone()
    first = date(year, month, 1)
    last = date(year, month, calendar.monthrange(year, month)[1])
    start = timezone.make_aware(datetime.combine(first, time.min), tz)
    end = timezone.make_aware(datetime.combine(last, time.max), tz)
    rows = []
    assignments = RankAssignment.objects.filter(rank=rank, since__lte=last).exclude(ended_on__lt=first).select_related("permit")
    for a in assignments:
        until = min(last, today, a.ended_on or last)
        checkins = RankCheckIn.objects.filter(permit=a.permit, rank=rank, checked_in_at__range=(start, end))
        days = {_local_day(c.checked_in_at, tz) for c in checkins}
        since = max(a.since, first)
        excused = justified_days(a.permit, first, last)
        decision = rank_attendance.check_rank_attendance(year, month, days, justified_days=excused, until=until, since=since)
        absent = rank_attendance.absent_days(year, month, days, until=until, since=since) if until >= since else []
        rows.append({
            "permit": a.permit, "attended_days": sorted(days),
            "absent_days": [d for d in absent if d not in excused],
            "justified_days": [d for d in absent if d in excused],
            "decision": decision,
        })
    return rows


def justified_days(permit: Permit, first: date, last: date) -> set[date]:
    """Days in [first, last] covered by force majeure accepted by DIMUTRAN (Art. 9, V)."""
    days: set[date] = set()
    accepted = AbsenceJustification.objects.filter(
        permit=permit, status=AbsenceJustification.Status.ACCEPTED, start__lte=last, end__gte=first
    )
    for j in accepted:
        days.update(d for d in j.days() if first <= d <= last)
    return days


# --- contests ------------------------------------------------------------------------------------


def active_fleet() -> int:
    """Registered fleet for Art. 41, §2: every permit that holds a vacancy, the active and those awaiting the term (Art. 15)."""
    return Permit.objects.filter(status__in=LIVE_STATUSES).count()


def law_candidate(c) -> LawCandidate:
    return LawCandidate(
        id=str(c.pk),
        model_year=c.model_year,
        profession_since=c.profession_since,
        no_accident_certificate=c.no_accident_certificate,
        dependants=c.dependants,
        driver_since=c.driver_since,
        resident_since=c.resident_since,
        registered_at=c.registered_at,
        holds_permit=Permit.objects.filter(holder_id=c.person_id, status__in=LIVE_STATUSES).exists(),
        preferred_ranks=tuple(str(r) for r in c.preferred_ranks or ()),
    )


def ranking(contest):
    """Classified candidates in order, then the excluded ones."""
    qs = contest.candidates.select_related("person", "allocated_rank", "permit")
    return list(qs.filter(excluded=False).order_by("position", "id")), list(qs.filter(excluded=True).order_by("id"))
