"""Money: what the fleet grossed per week (the fares the statements count, Art. 42-43) and the meter totals held
for DIMUTRAN's review (Art. 43). Decimal to the centavo, summed by the database."""

from __future__ import annotations

from decimal import Decimal

from django.db.models import Count, F, Min, Q, Sum

from backend.trips.models import Ride, RideStatus

from .models import MoneyRollup
from .periods import Period, bucket, bucket_key, fill, monday_of
from .service import live_filter, rolled_days

CENTAVO = Decimal("0.01")


def _brl(value) -> Decimal:
    return Decimal(value or 0).quantize(CENTAVO)


# The completed rides' measures, live and in the nightly rollup (rollup.py).
MONEY_MEASURES = {
    "rides": Count("pk", filter=Q(fare_held=False, fare__isnull=False)),
    "gross": Sum("fare", filter=Q(fare_held=False)),
    "disagreements": Count("pk", filter=Q(meter_disagreement=True)),
}


def completed(q: Q):
    return Ride.objects.filter(q, status=RideStatus.COMPLETED)


def gross_by_week(period: Period) -> list[dict]:
    """Per local week (Monday first, ``key``): the completed rides whose fare counts (not held for review, as
    ``backend.statements`` counts them), their gross, and the meter disagreements among the completed rides.
    Days the nightly rollup holds are read from it; the others are counted live."""
    rolled = rolled_days(period)
    q = live_filter("completed_at", period, rolled)
    live = completed(q).annotate(key=bucket("day", "completed_at")).order_by().values("key").annotate(
        **MONEY_MEASURES) if q is not None else []
    stored = MoneyRollup.objects.filter(day__range=(period.first, period.last)).values(
        "rides", "gross", "disagreements", key=F("day"))
    found: dict = {}
    for row in [*live, *stored]:
        week = found.setdefault(monday_of(bucket_key(row["key"])), {"rides": 0, "gross": Decimal(0), "disagreements": 0})
        week["rides"] += row["rides"]
        week["gross"] += row["gross"] or 0
        week["disagreements"] += row["disagreements"]
    return [{"key": key, "rides": row["rides"], "gross": _brl(row["gross"]), "disagreements": row["disagreements"]}
            for key, row in fill("week", period, found, lambda: {"rides": 0, "gross": None, "disagreements": 0})]


def held_fares() -> dict:
    """The completed rides whose meter total waits for DIMUTRAN now (``Ride.fare_held``): how many, how much, since."""
    held = Ride.objects.filter(status=RideStatus.COMPLETED, fare_held=True).aggregate(  # index: ride_held_fares
        rides=Count("pk"), total=Sum("fare"), oldest=Min("completed_at"))
    return {"rides": held["rides"], "total": _brl(held["total"]), "oldest": held["oldest"]}
