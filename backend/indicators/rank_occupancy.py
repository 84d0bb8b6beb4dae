"""Rank occupancy by hour of day, from the check-in records (Art. 9, V; Art. 27, §2): which ranks are empty when.

A check-in (``backend.ranks.models.RankCheckIn``) is a cab standing at a rank from ``checked_in_at`` to
``checked_out_at`` (still there when open). For each rank and each local hour of day (0-23) of the period:

* ``occupancy``: the share of that hour's time, over the period's days, during which at least one cab stood at the
  rank (the union of the rank's check-ins), 0 to 1;
* ``cabs``: the mean number of cabs standing there (the sum of the check-ins' time over the same time): above 1, a
  rank over-served at that hour.

The time counted is the period up to now (the future is not empty, it is unknown). Hour boundaries are UTC hour
boundaries too (Brazil's offsets are whole hours), so each piece of an interval is put in the local hour it starts
in, daylight saving time or not. The Python work is bounded by the check-ins of the period, not by the rides.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime, timedelta

from django.db.models import Q
from django.utils import timezone

from backend.ranks.models import Rank, RankCheckIn

from .periods import LOCAL, Period

HOUR = timedelta(hours=1)


def _hour_pieces(start: datetime, end: datetime):
    """``(local hour of day, seconds)`` for each piece of [start, end) cut at the hour boundaries."""
    at = start.astimezone(UTC)
    end = end.astimezone(UTC)
    while at < end:
        boundary = min(at.replace(minute=0, second=0, microsecond=0) + HOUR, end)
        yield at.astimezone(LOCAL).hour, (boundary - at).total_seconds()
        at = boundary


def _merged(intervals: list[tuple[datetime, datetime]]) -> list[tuple[datetime, datetime]]:
    """The union of intervals as disjoint intervals, in order."""
    out: list[list[datetime]] = []
    for start, end in sorted(intervals):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return [(s, e) for s, e in out]


def _per_hour(intervals) -> list[float]:
    seconds = [0.0] * 24
    for start, end in intervals:
        for hour, s in _hour_pieces(start, end):
            seconds[hour] += s
    return seconds


def _intervals_by_rank(start: datetime, end: datetime) -> dict[int, list[tuple[datetime, datetime]]]:
    """Each rank's check-ins clipped to [start, end) (an open one runs to ``end``)."""
    checkins = (RankCheckIn.objects.filter(checked_in_at__lt=end)
                .filter(Q(checked_out_at__isnull=True) | Q(checked_out_at__gt=start))
                .values_list("rank_id", "checked_in_at", "checked_out_at"))
    out: dict[int, list] = defaultdict(list)
    for rank_id, came, left in checkins.iterator():
        came, left = max(came, start), min(left or end, end)
        if came < left:
            out[rank_id].append((came, left))
    return out


def rank_occupancy(period: Period, now: datetime | None = None) -> list[dict]:
    """Per rank (active, or with a check-in in the period): its occupancy and mean cabs per local hour of day.

    ``hours`` has 24 rows ``{"hour", "occupancy", "cabs"}`` (3 decimals; ``None`` for an hour the period has not
    reached yet); ``occupancy`` and ``cabs`` at the rank's level are over the whole period. Busiest first."""
    now = now or timezone.now()
    start, end = period.start, min(period.end, max(now, period.start))
    available = _per_hour([(start, end)])
    by_rank = _intervals_by_rank(start, end)
    ranks = Rank.objects.filter(Q(active=True) | Q(pk__in=list(by_rank))).order_by("name", "pk")
    total = sum(available)
    rows = []
    for rank in ranks:
        intervals = by_rank.get(rank.pk, [])
        present, cab_seconds = _per_hour(_merged(intervals)), _per_hour(intervals)
        rows.append({
            "rank": rank.pk, "name": rank.name, "category": rank.category, "zone": rank.zone,
            "lat": rank.lat, "lon": rank.lon,
            "occupancy": _share(sum(present), total), "cabs": _share(sum(cab_seconds), total),
            "hours": [{"hour": h, "occupancy": _share(present[h], available[h]), "cabs": _share(cab_seconds[h], available[h])}
                      for h in range(24)],
        })
    return sorted(rows, key=lambda r: (-(r["occupancy"] or 0), r["name"]))


def _share(part: float, whole: float) -> float | None:
    return round(part / whole, 3) if whole else None
