"""Money: what the fleet grossed per week (the fares the statements count, Art. 42-43) and the meter totals held
for DIMUTRAN's review (Art. 43). Decimal to the centavo, summed by the database."""

from __future__ import annotations

from decimal import Decimal

from django.db.models import Count, Min, Q, Sum

from backend.trips.models import Ride, RideStatus

from .periods import Period, bucket, bucket_key, fill

CENTAVO = Decimal("0.01")


def _brl(value) -> Decimal:
    return Decimal(value or 0).quantize(CENTAVO)


def gross_by_week(period: Period) -> list[dict]:
    """Per local week (Monday first, ``key``): the completed rides whose fare counts (not held for review, as
    ``backend.statements`` counts them), their gross, and the meter disagreements among the completed rides."""
    completed = Ride.objects.filter(status=RideStatus.COMPLETED, **period.window("completed_at"))
    rows = (completed.annotate(key=bucket("week", "completed_at")).order_by().values("key").annotate(
        rides=Count("pk", filter=Q(fare_held=False, fare__isnull=False)),
        gross=Sum("fare", filter=Q(fare_held=False)),
        disagreements=Count("pk", filter=Q(meter_disagreement=True)),
    ))
    found = {bucket_key(row.pop("key")): row for row in rows}
    return [{"key": key, "rides": row["rides"], "gross": _brl(row["gross"]), "disagreements": row["disagreements"]}
            for key, row in fill("week", period, found, lambda: {"rides": 0, "gross": None, "disagreements": 0})]


def held_fares() -> dict:
    """The completed rides whose meter total waits for DIMUTRAN now (``Ride.fare_held``): how many, how much, since."""
    held = Ride.objects.filter(status=RideStatus.COMPLETED, fare_held=True).aggregate(
        rides=Count("pk"), total=Sum("fare"), oldest=Min("completed_at"))
    return {"rides": held["rides"], "total": _brl(held["total"]), "oldest": held["oldest"]}
