"""The nightly rollup: each closed local day's indicators, kept so that the page reads a year in well under a second.

For a day, one grouped query over its requests (by local hour and pickup cell, the cells named as the bairro
indicators name them) and one over its completed rides; the answers replace the day's rows (``ServiceHourRollup``
per hour, ``ServiceBairroRollup`` per bairro, ``MoneyRollup``) and mark it (``RolledDay``). The selectors (``service``, ``money``) read the rolled days from here
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
from .models import MoneyRollup, RolledDay, ServiceBairroRollup, ServiceHourRollup
from .periods import MAX_DAYS, Period, bucket

REBUILD_DAYS = 35  # five weeks: a held fare is usually decided, and a ride long closed, by then
MICRO = 1_000_000


def _micro(value: timedelta) -> int:
    return round(value.total_seconds() * MICRO)


def _stored(measures: dict) -> dict:
    return {**measures, "offer_wait_total": _micro(measures["offer_wait_total"]),
            "pickup_wait_total": _micro(measures["pickup_wait_total"])}


def service_rows(day: date) -> tuple[list[ServiceHourRollup], list[ServiceBairroRollup]]:
    """The day's requests per hour of day and per bairro (one grouped query by hour and cell, merged here)."""
    period = Period(day, day)
    rows = (service.requests(period)
            .annotate(cy=Round(F("pickup_lat") * service.CELLS_PER_DEGREE), cx=Round(F("pickup_lon") * service.CELLS_PER_DEGREE),
                      hour=bucket("hour", "requested_at"))
            .order_by().values("cy", "cx", "hour").annotate(**service._MEASURES))
    hours: dict[int, dict] = {}
    bairros: dict[str, dict] = {}
    for row in rows:
        hour, bairro = row.pop("hour"), service.bairro_of_cell(int(row.pop("cy")), int(row.pop("cx")))
        service._add(hours.setdefault(hour, service._zero()), row)
        service._add(bairros.setdefault(bairro[:120], service._zero()), row)
    return ([ServiceHourRollup(day=day, hour=hour, **_stored(m)) for hour, m in hours.items()],
            [ServiceBairroRollup(day=day, bairro=bairro, **_stored(m)) for bairro, m in bairros.items()])


def roll_up_day(day: date, now: datetime) -> int:
    """Replace ``day``'s rollup with the records as they are now; the number of service rows written."""
    hours, bairros = service_rows(day)
    paid = money.completed(Period(day, day).window_q("completed_at")).aggregate(**money.MONEY_MEASURES)
    with transaction.atomic():
        for model in (ServiceHourRollup, ServiceBairroRollup, MoneyRollup):
            model.objects.filter(day=day).delete()
        ServiceHourRollup.objects.bulk_create(hours)
        ServiceBairroRollup.objects.bulk_create(bairros, batch_size=500)
        if paid["rides"] or paid["disagreements"] or paid["gross"]:
            MoneyRollup.objects.create(day=day, rides=paid["rides"], gross=paid["gross"] or 0,
                                       disagreements=paid["disagreements"])
        RolledDay.objects.update_or_create(day=day, defaults={"built_at": now})
    return len(hours) + len(bairros)


def days_to_roll_up(today: date) -> list[date]:
    """The last ``REBUILD_DAYS`` closed days, and any closed day of the last year not rolled up yet, oldest first."""
    year = [today - timedelta(days=back) for back in range(MAX_DAYS - 1, 0, -1)]
    done = set(RolledDay.objects.filter(day__gte=year[0]).values_list("day", flat=True))
    return [day for day in year if day not in done or (today - day).days <= REBUILD_DAYS]
