"""The nightly rollup: each closed local day's indicators, kept so that the page reads a year in well under a second.

For a day, one grouped query over its requests (by local hour and pickup cell, the cells named as the bairro
indicators name them) and one over its completed rides; the answers replace the day's rows (``ServiceRollup``,
``MoneyRollup``) and mark it (``RolledDay``). The selectors (``service``, ``money``) read the rolled days from here
and count the others live, so a figure is the same either way (tests/backend/test_indicators_rollup.py).

The job (01:30) rebuilds the last ``REBUILD_DAYS`` closed days every night, so that a ride that changed after its
day (ended after midnight, a held fare released, a late cancellation) is counted as it is now; a change older than
that is not seen until the day is rebuilt (``manage.py`` shell: ``roll_up_day``). Aggregates only: no ride, permit
or person is kept here (docs/security.md, retention).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.db import transaction
from django.db.models import F
from django.db.models.functions import Round

from . import money, service
from .models import MoneyRollup, RolledDay, ServiceRollup
from .periods import MAX_DAYS, Period, bucket

REBUILD_DAYS = 35  # five weeks: a held fare is usually decided, and a ride long closed, by then
MICRO = 1_000_000


def _micro(value: timedelta) -> int:
    return round(value.total_seconds() * MICRO)


def service_rows(day: date) -> list[ServiceRollup]:
    period = Period(day, day)
    rows = (service.requests(period)
            .annotate(cy=Round(F("pickup_lat") * service.CELLS_PER_DEGREE), cx=Round(F("pickup_lon") * service.CELLS_PER_DEGREE),
                      hour=bucket("hour", "requested_at"))
            .order_by().values("cy", "cx", "hour").annotate(**service._MEASURES))
    merged: dict[tuple[int, str], dict] = {}
    for row in rows:
        key = (row.pop("hour"), service.bairro_of_cell(int(row.pop("cy")), int(row.pop("cx"))))
        service._add(merged.setdefault(key, service._zero()), row)
    return [ServiceRollup(day=day, hour=hour, bairro=bairro[:120], **{
        **m, "offer_wait_total": _micro(m["offer_wait_total"]), "pickup_wait_total": _micro(m["pickup_wait_total"])})
        for (hour, bairro), m in merged.items()]


def roll_up_day(day: date, now: datetime) -> int:
    """Replace ``day``'s rollup with the records as they are now; the number of service rows written."""
    rows = service_rows(day)
    paid = money.completed(Period(day, day).window_q("completed_at")).aggregate(**money.MONEY_MEASURES)
    with transaction.atomic():
        ServiceRollup.objects.filter(day=day).delete()
        MoneyRollup.objects.filter(day=day).delete()
        ServiceRollup.objects.bulk_create(rows, batch_size=500)
        if paid["rides"] or paid["disagreements"] or paid["gross"]:
            MoneyRollup.objects.create(day=day, rides=paid["rides"], gross=paid["gross"] or 0,
                                       disagreements=paid["disagreements"])
        RolledDay.objects.update_or_create(day=day, defaults={"built_at": now})
    return len(rows)


def days_to_roll_up(today: date) -> list[date]:
    """The last ``REBUILD_DAYS`` closed days, and any closed day of the last year not rolled up yet, oldest first."""
    year = [today - timedelta(days=back) for back in range(MAX_DAYS - 1, 0, -1)]
    done = set(RolledDay.objects.filter(day__gte=year[0]).values_list("day", flat=True))
    return [day for day in year if day not in done or (today - day).days <= REBUILD_DAYS]
