"""Each permit's record over a period: offers and acceptance, driver cancellations, complaints, ratings and rank
absences (Art. 9, V and VII). Names permits and their holders: DIMUTRAN only, never published."""

from __future__ import annotations

from datetime import date

from django.db.models import Avg, Count, Q

from backend.enforcement.models import Complaint
from backend.ranks import selectors as ranks
from backend.ranks.models import Rank
from backend.ratings.models import RideRating
from backend.registry.models import Permit
from backend.registry.selectors import LIVE_STATUSES
from backend.trips.models import DriverCancellation, Ride

from .periods import Period
from .service import NO_SHOW_REASON

# dispatch.models.OfferStatus values (read through the permit's cab: backend never imports dispatch). An offer
# "cancelled" was accepted, then given up by the driver.
ACCEPTED_OFFERS = ("accepted", "cancelled")
DECLINED_OFFERS = ("declined",)
EXPIRED_OFFERS = ("expired",)


def _offers(period: Period) -> dict[int, dict]:
    # filter() before annotate() on the same relation: the counts run over the period's offers only (one join).
    rows = (Permit.objects.filter(**period.window("cab__offers__created_at")).annotate(
        offers=Count("cab__offers"),
        accepted=Count("cab__offers", filter=Q(cab__offers__status__in=ACCEPTED_OFFERS)),
        declined=Count("cab__offers", filter=Q(cab__offers__status__in=DECLINED_OFFERS)),
        expired=Count("cab__offers", filter=Q(cab__offers__status__in=EXPIRED_OFFERS)),
    ).values("pk", "offers", "accepted", "declined", "expired"))
    return {row.pop("pk"): row for row in rows}


def _grouped(queryset, permit_field: str, **measures) -> dict[int, dict]:
    rows = queryset.order_by().values(permit_field).annotate(**measures)
    return {row.pop(permit_field): row for row in rows if row[permit_field] is not None}


def absences(period: Period, today: date) -> dict[int, int]:
    """Unjustified days absent from the assigned private rank (Art. 9, V), as the monthly sweep counts them
    (``backend.ranks.selectors.attendance``), inside the period and up to ``today``."""
    out: dict[int, int] = {}
    months = period.buckets("month")
    for rank in Rank.objects.filter(category=Rank.Category.PRIVATE):
        for month in months:
            for row in ranks.attendance(rank, month.year, month.month, today=today):
                days = [d for d in row["absent_days"] if period.first <= d <= period.last]
                if days:
                    out[row["permit"].pk] = out.get(row["permit"].pk, 0) + len(days)
    return out


def _complaints(period: Period) -> dict[int, dict]:
    """Complaints filed in the period, per permit of their ride. Counted per ride first, then the (few) rides' permits
    read by key: joined in one query, SQLite without statistics walked every ride of the town to find them."""
    per_ride = dict(Complaint.objects.filter(**period.window("filed_at")).order_by()
                    .values("ride").annotate(n=Count("pk")).values_list("ride", "n"))
    out: dict[int, dict] = {}
    for ride, permit in Ride.objects.filter(pk__in=list(per_ride), permit__isnull=False).values_list("pk", "permit"):
        out.setdefault(permit, {"complaints": 0})["complaints"] += per_ride[ride]
    return out


def permit_indicators(period: Period, today: date) -> list[dict]:
    """One row per permit that is live or had any activity in the period, by permit number."""
    offers = _offers(period)
    cancels = _grouped(DriverCancellation.objects.filter(**period.window("at")), "permit",
                       driver_cancellations=Count("pk"), no_shows=Count("pk", filter=Q(reason=NO_SHOW_REASON)))
    complaints = _complaints(period)
    ratings = _grouped(RideRating.objects.filter(**period.window("rated_at")), "permit",
                       ratings=Count("pk"), stars=Avg("stars"))
    absent = absences(period, today)
    ids = set(offers) | set(cancels) | set(complaints) | set(ratings) | set(absent)
    permits = Permit.objects.filter(Q(pk__in=ids) | Q(status__in=LIVE_STATUSES)).select_related("holder").order_by("number")
    rows = []
    for permit in permits:
        o = offers.get(permit.pk, {"offers": 0, "accepted": 0, "declined": 0, "expired": 0})
        c = cancels.get(permit.pk, {"driver_cancellations": 0, "no_shows": 0})
        r = ratings.get(permit.pk, {"ratings": 0, "stars": None})
        rows.append({
            "permit": permit.number, "holder": permit.holder.full_name if permit.holder else "",
            **o, "acceptance": round(o["accepted"] / o["offers"], 3) if o["offers"] else None,
            **c, "complaints": complaints.get(permit.pk, {"complaints": 0})["complaints"],
            "ratings": r["ratings"], "stars": round(r["stars"], 2) if r["stars"] is not None else None,
            "absences": absent.get(permit.pk, 0),
        })
    return rows
