"""DIMUTRAN's report of ratings per permit and driver: how many, the average, how many of 1-2 stars.

A report to read, never a penalty (penalties come only from an auto's procedure, Art. 60-63)."""

from datetime import datetime

from django.db.models import Avg, Count, Q

from .models import RideRating

LOW = 2  # stars at or below this count as a poor rating


def rating_report(since: datetime | None = None, until: datetime | None = None) -> list[dict]:
    rows = RideRating.objects.all()
    if since:
        rows = rows.filter(rated_at__gte=since)
    if until:
        rows = rows.filter(rated_at__lt=until)
    grouped = (rows.values("permit__number", "driver__full_name", "permit_id", "driver_id")
               .annotate(ratings=Count("id"), average=Avg("stars"), low=Count("id", filter=Q(stars__lte=LOW)))
               .order_by("average", "-ratings"))
    return [{"permit": r["permit__number"], "permit_id": r["permit_id"], "driver": r["driver__full_name"],
             "driver_id": r["driver_id"], "ratings": r["ratings"], "average": round(float(r["average"]), 2),
             "low": r["low"]} for r in grouped]
