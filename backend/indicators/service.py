"""The service as passengers get it: requests, served, unanswered, cancelled (by whom), waits and no-shows.

Each indicator is defined once here (docs/indicators.md) and computed by the database: one grouped query per
call (``annotate``), never a loop over rides. Rides are attributed to the local moment they were requested.
"""

from __future__ import annotations

from datetime import date, timedelta

from django.db.models import Count, DurationField, ExpressionWrapper, F, Q, Sum
from django.db.models.functions import Round

from backend.trips.models import Ride, RideStatus

from .bairros import bairro_at
from .models import RolledDay, ServiceBairroRollup, ServiceHourRollup
from .periods import Period, bucket, bucket_key, fill, monday_of

# Who created a ride that a passenger asked for (dispatch.rides.offers, backend.bookings); "street" and "rank" are trips
# that started at the kerb, not requests.
REQUEST_ORIGINS = ("passenger", "operator")
# Ride.cancelled_by values (dispatch.rides.ride_steps, dispatch.rides.give_up): the cancellation's author.
CANCELLED_BY = ("passenger", "operator", "driver", "no_cab")
NO_SHOW_REASON = "passenger_absent"  # taxilaw.cancellation.CancelReason.PASSENGER_ABSENT


def _seconds(later: str, earlier: str):
    return ExpressionWrapper(F(later) - F(earlier), output_field=DurationField())


def _cancelled(by: str) -> Q:
    return Q(status=RideStatus.CANCELLED, cancelled_by=by)


# The counts and sums every grouping shares; averages are derived from sums so that groups can be merged (bairros).
_MEASURES = {
    "requests": Count("pk"),
    "served": Count("pk", filter=Q(on_board_at__isnull=False)),
    "escalated": Count("pk", filter=Q(escalated=True)),
    "unanswered": Count("pk", filter=_cancelled("no_cab")),
    **{f"cancelled_{by}": Count("pk", filter=_cancelled(by)) for by in ("passenger", "operator", "driver")},
    "no_shows": Count("pk", filter=_cancelled("driver") & Q(cancel_reason=NO_SHOW_REASON)),
    "offer_wait_total": Sum(_seconds("offered_at", "requested_at"), filter=Q(offered_at__isnull=False)),
    "offer_wait_n": Count("offered_at"),
    "pickup_wait_total": Sum(_seconds("arriving_at", "requested_at"), filter=Q(arriving_at__isnull=False)),
    "pickup_wait_n": Count("arriving_at"),
}
COUNTS = ("requests", "served", "escalated", "unanswered", "cancelled_passenger", "cancelled_operator",
          "cancelled_driver", "no_shows")


def requests(period: Period):
    """The rides passengers asked for (by app, by phone through an operator, or booked) in the period."""
    return Ride.objects.filter(created_by__in=REQUEST_ORIGINS, **period.window("requested_at"))


# -- the nightly rollup (rollup.py) holds the closed days; the rest is counted live ---------------------------


def rolled_days(period: Period) -> set[date]:
    """The period's days whose indicators the rollup holds (``RolledDay``)."""
    return set(RolledDay.objects.filter(day__range=(period.first, period.last)).values_list("day", flat=True))


def live_filter(field: str, period: Period, rolled: set[date]) -> Q | None:
    """``field`` within the period's days the rollup does not hold (runs of consecutive days), None if none."""
    q, start = None, None
    days = period.buckets("day")
    for i, day in enumerate(days):
        if day not in rolled and start is None:
            start = day
        if start is not None and (i + 1 == len(days) or days[i + 1] in rolled) and day not in rolled:
            window = Q(**Period(start, day).window(field))
            q, start = (window if q is None else q | window), None
    return q


def live_requests(period: Period, rolled: set[date]):
    q = live_filter("requested_at", period, rolled)
    return Ride.objects.none() if q is None else Ride.objects.filter(q, created_by__in=REQUEST_ORIGINS)


ROLLED_MEASURES = {name: Sum(name) for name in (*COUNTS, "offer_wait_total", "offer_wait_n", "pickup_wait_total",
                                                 "pickup_wait_n")}


def _rollup(period: Period, model=ServiceHourRollup):
    """The period's rolled rows: per day and hour (totals, days, weeks, months, hours), or per day and bairro."""
    return model.objects.filter(day__range=(period.first, period.last)).order_by()


def _zero() -> dict:
    return {name: 0 for name in COUNTS} | {"offer_wait_total": timedelta(0), "offer_wait_n": 0,
                                           "pickup_wait_total": timedelta(0), "pickup_wait_n": 0}


def _add(into: dict, row: dict) -> dict:
    for measure, value in _clean(row).items():
        if value:
            into[measure] += value
    return into


def _mean_s(total, n) -> float | None:
    if not n:
        return None
    total = total if isinstance(total, timedelta) else timedelta(microseconds=total or 0)
    return round(total.total_seconds() / n, 1)


def _finish(row: dict) -> dict:
    """The published row: the counts and the mean waits in seconds (None where nothing was waited for)."""
    out = {name: row[name] for name in COUNTS}
    out["offer_wait_s"] = _mean_s(row["offer_wait_total"], row["offer_wait_n"])
    out["pickup_wait_s"] = _mean_s(row["pickup_wait_total"], row["pickup_wait_n"])
    return out


def _clean(row: dict) -> dict:
    row = dict(row)
    for name in ("offer_wait_total", "pickup_wait_total"):
        if row[name] is None:
            row[name] = timedelta(0)
        elif not isinstance(row[name], timedelta):
            row[name] = timedelta(microseconds=row[name])
    return row


def _grain_key(grain: str, day: date) -> date:
    return {"day": day, "week": monday_of(day), "month": day.replace(day=1)}[grain]


def service(period: Period, grain: str) -> list[dict]:
    """The service indicators per day, week, month (``key``: its first local day) or hour of day (``key``: 0-23)."""
    rolled = rolled_days(period)
    field = "hour" if grain == "hour" else "day"
    live = (live_requests(period, rolled).annotate(key=bucket(field, "requested_at")).order_by().values("key")
            .annotate(**_MEASURES))
    stored = _rollup(period).values(key=F(field)).annotate(**ROLLED_MEASURES)
    found: dict = {}
    for row in [*live, *stored]:
        key = bucket_key(row.pop("key"))
        _add(found.setdefault(key if grain == "hour" else _grain_key(grain, key), _zero()), row)
    return [{"key": key, **_finish(row)} for key, row in fill(grain, period, found, _zero)]


def service_total(period: Period) -> dict:
    """The service indicators over the whole period."""
    rolled = rolled_days(period)
    total = _add(_zero(), live_requests(period, rolled).aggregate(**_MEASURES))
    return _finish(_add(total, _rollup(period).aggregate(**ROLLED_MEASURES)))


# -- by bairro ------------------------------------------------------------------------------------------------

CELLS_PER_DEGREE = 1000  # pickups grouped in cells of 0.001° (~110 m x 100 m at Muriaé) before naming the bairro


def pickup_cells(queryset):
    """Rides grouped by the cell of their pickup, measures per cell: the database does the counting."""
    return (queryset.annotate(cy=Round(F("pickup_lat") * CELLS_PER_DEGREE), cx=Round(F("pickup_lon") * CELLS_PER_DEGREE))
            .order_by().values("cy", "cx"))


def service_by_bairro(period: Period) -> list[dict]:
    """The service indicators per bairro of the pickup (the gazetteer's), most requests first.

    The database groups rides by cell; each distinct cell is named once (:func:`bairro_of_cell`, cached), so the
    Python work is bounded by the town's cells, not by the rides. Rolled-up days come named already."""
    merged: dict[str, dict] = {}
    rolled = rolled_days(period)
    for row in pickup_cells(live_requests(period, rolled)).annotate(**_MEASURES):
        _add(merged.setdefault(bairro_of_cell(int(row.pop("cy")), int(row.pop("cx"))), _zero()), row)
    for row in _rollup(period, ServiceBairroRollup).values("bairro").annotate(**ROLLED_MEASURES):
        _add(merged.setdefault(row.pop("bairro"), _zero()), row)
    out = [{"bairro": name, **_finish(row)} for name, row in merged.items()]
    return sorted(out, key=lambda r: (-r["requests"], r["bairro"]))


def bairro_of_cell(cy: int, cx: int) -> str:
    return bairro_at(cy / CELLS_PER_DEGREE, cx / CELLS_PER_DEGREE)
