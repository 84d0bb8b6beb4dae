"""The service as passengers get it: requests, served, unanswered, cancelled (by whom), waits and no-shows.

Each indicator is defined once here (docs/indicators.md) and computed by the database: one grouped query per
call (``annotate``), never a loop over rides. Rides are attributed to the local moment they were requested.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Count, DurationField, ExpressionWrapper, F, Q, Sum
from django.db.models.functions import Round

from backend.trips.models import Ride, RideStatus

from .bairros import bairro_at
from .periods import Period, bucket, bucket_key, fill

# Who created a ride that a passenger asked for (dispatch.offers, backend.bookings); "street" and "rank" are trips
# that started at the kerb, not requests.
REQUEST_ORIGINS = ("passenger", "operator")
# Ride.cancelled_by values (dispatch.rides, dispatch.give_up): the cancellation's author.
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


def _zero() -> dict:
    return {name: 0 for name in COUNTS} | {"offer_wait_total": timedelta(0), "offer_wait_n": 0,
                                           "pickup_wait_total": timedelta(0), "pickup_wait_n": 0}


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


def service(period: Period, grain: str) -> list[dict]:
    """The service indicators per day, week, month (``key``: its first local day) or hour of day (``key``: 0-23)."""
    rows = (requests(period).annotate(key=bucket(grain, "requested_at")).order_by().values("key")
            .annotate(**_MEASURES))
    found = {bucket_key(row.pop("key")): _clean(row) for row in rows}
    return [{"key": key, **_finish(row)} for key, row in fill(grain, period, found, _zero)]


def service_total(period: Period) -> dict:
    """The service indicators over the whole period."""
    return _finish(_clean(requests(period).aggregate(**_MEASURES)))


# -- by bairro ------------------------------------------------------------------------------------------------

CELLS_PER_DEGREE = 1000  # pickups grouped in cells of 0.001° (~110 m x 100 m at Muriaé) before naming the bairro


def pickup_cells(queryset):
    """Rides grouped by the cell of their pickup, measures per cell: the database does the counting."""
    return (queryset.annotate(cy=Round(F("pickup_lat") * CELLS_PER_DEGREE), cx=Round(F("pickup_lon") * CELLS_PER_DEGREE))
            .order_by().values("cy", "cx"))


def service_by_bairro(period: Period) -> list[dict]:
    """The service indicators per bairro of the pickup (the gazetteer's), most requests first.

    The database groups rides by cell; each distinct cell is named once (:func:`bairro_of_cell`, cached), so the
    Python work is bounded by the town's cells, not by the rides."""
    merged: dict[str, dict] = {}
    for row in pickup_cells(requests(period)).annotate(**_MEASURES):
        name = bairro_of_cell(int(row.pop("cy")), int(row.pop("cx")))
        into = merged.setdefault(name, _zero())
        for measure, value in _clean(row).items():
            into[measure] += value
    out = [{"bairro": name, **_finish(row)} for name, row in merged.items()]
    return sorted(out, key=lambda r: (-r["requests"], r["bairro"]))


def bairro_of_cell(cy: int, cx: int) -> str:
    return bairro_at(cy / CELLS_PER_DEGREE, cx / CELLS_PER_DEGREE)
