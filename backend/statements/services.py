"""Closing weeks and computing the running week (Lei 1.242/1987, Art. 1, §2-§6).

Readings (docs/readings-statements.md):

* The split is made once per week on the week's summed gross (Art. 1, §3,
  "apurado semanalmente"), per (permit, driver): the gross of a driver on a
  permit is the sum of the fares of the completed rides they drove on that
  permit whose ``completed_at`` falls in [Monday 00:00, next Monday 00:00)
  America/Sao_Paulo (``taxilaw.split.week_bounds``).
* The odd centavo follows ``taxilaw.split.split_gross``: the auxiliary's
  part is rounded half-up, the permit holder gets the exact remainder.
* The permit holder's own driving is not split: the whole gross is theirs.
* A closed statement is never rewritten; a week is closed once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from backend.api_errors import refuse, require
from backend.registry.models import Auxiliary, Permit, Person
from dispatch.models import Ride, RideStatus
from taxilaw.split import LAW_SPLIT, SplitAgreement, split_gross, validate_agreement, week_bounds, week_start

from .models import WeekClosure, WeeklyStatement

ZERO = Decimal("0.00")


@dataclass(frozen=True)
class Terms:
    """How one driver's week on one permit is split (Art. 1, §3 and Art. 1, §6)."""

    role: str
    agreement: str
    auxiliary_percent: Decimal
    contract_reference: str = ""


HOLDER_TERMS = Terms(WeeklyStatement.Role.HOLDER, WeeklyStatement.Agreement.OWN, Decimal("0.00"))


def monday_of(day: date | datetime) -> date:
    """The Monday (local date) of the week containing ``day`` (Art. 1, §3)."""
    return week_start(day)


def week_has_ended(monday: date, now: datetime | None = None) -> bool:
    """A week may be closed from the next Monday 00:00 America/Sao_Paulo on (Art. 1, §3)."""
    return (now or timezone.now()) >= week_bounds(monday)[1]


def auxiliary_role(permit: Permit, driver: Person, monday: date) -> Auxiliary | None:
    """The auxiliary authorization of ``driver`` on ``permit`` that covered the week (Art. 1, IV; Art. 1, §6).

    The authorization must start on or before the week's Sunday and not be
    cancelled before its Monday; the most recent one wins.
    """
    sunday = monday + timedelta(days=6)
    candidates = Auxiliary.objects.filter(permit=permit, person=driver, authorized_on__lte=sunday).order_by("-authorized_on", "-pk")
    for aux in candidates:
        if aux.cancelled_on is None or aux.cancelled_on >= monday:
            return aux
    # Rides with no authorization covering the week (a data slip): the latest authorization on the permit.
    return Auxiliary.objects.filter(permit=permit, person=driver).order_by("-authorized_on", "-pk").first()


def terms_for(permit: Permit, driver: Person, monday: date, holder: Person | None = None) -> Terms:
    """The split terms of a driver's week on a permit (Art. 1, §3; Art. 1, §6).

    The permit holder driving their own taxi: no split. An auxiliary with a
    §6 contract percentage: that percentage. Otherwise the law's 25/75.
    """
    holder_id = holder.pk if holder is not None else permit.holder_id
    if holder_id is not None and driver.pk == holder_id:
        return HOLDER_TERMS
    aux = auxiliary_role(permit, driver, monday)
    if aux is not None and aux.contract_auxiliary_percent is not None:
        # The registry only accepts a percentage together with the written
        # contract (authorize_auxiliary); its two witnesses are checked there.
        agreement = SplitAgreement("contract", Decimal(aux.contract_auxiliary_percent), witnesses=2,
                                   reference=aux.contract_reference)
        require(validate_agreement(agreement))
        return Terms(WeeklyStatement.Role.AUXILIARY, WeeklyStatement.Agreement.CONTRACT,
                     agreement.percent.quantize(Decimal("0.01")), aux.contract_reference)
    return Terms(WeeklyStatement.Role.AUXILIARY, WeeklyStatement.Agreement.LAW, LAW_SPLIT.percent.quantize(Decimal("0.01")))


def build_statement(*, permit: Permit, driver: Person, monday: date, gross: Decimal, rides: int,
                    holder: Person | None = None) -> WeeklyStatement:
    """An unsaved statement: the week's gross split by the terms in force (Art. 1, §3; Art. 1, §6)."""
    holder = holder if holder is not None else permit.holder
    terms = terms_for(permit, driver, monday, holder)
    if terms.role == WeeklyStatement.Role.HOLDER:
        aux_part, holder_part = ZERO, gross
    else:
        aux_part, holder_part = split_gross(gross, terms.auxiliary_percent)
    assert aux_part + holder_part == gross
    return WeeklyStatement(
        permit=permit, driver=driver, holder=holder, role=terms.role,
        week_start=monday, week_end=monday + timedelta(days=6),
        gross=gross, auxiliary_part=aux_part, holder_part=holder_part,
        auxiliary_percent=terms.auxiliary_percent, agreement=terms.agreement,
        contract_reference=terms.contract_reference, rides=rides,
    )


def _week_gross(monday: date, **filters) -> dict[tuple[int, int], tuple[Decimal, int]]:
    """(permit_id, driver_id) -> (gross, completed rides) of the week, summed exactly in Decimal (Art. 1, §3)."""
    start, end = week_bounds(monday)
    rows = Ride.objects.filter(
        status=RideStatus.COMPLETED, completed_at__gte=start, completed_at__lt=end,
        permit__isnull=False, driver__isnull=False, **filters,
    ).values_list("permit_id", "driver_id", "fare")
    out: dict[tuple[int, int], tuple[Decimal, int]] = {}
    for permit_id, driver_id, fare in rows:
        gross, count = out.get((permit_id, driver_id), (ZERO, 0))
        out[(permit_id, driver_id)] = (gross + (Decimal(fare) if fare is not None else ZERO), count + 1)
    return out


def _refuse(code: str, template: str, **params):
    refuse("Art. 1, §3", code, template, **params)


def close_week(monday: date, now: datetime | None = None) -> WeekClosure:
    """Compute and store every statement of an ended week, once (Art. 1, §3; Art. 1, §6; Art. 1, §2 note).

    Refuses a week that has not ended yet and a week already closed; a
    closed statement is never rewritten.
    """
    now = now or timezone.now()
    if monday.weekday() != 0:
        _refuse("statement_not_monday", gettext_noop("A semana começa na segunda-feira ({day} não é)."), day=monday)
    if not week_has_ended(monday, now):
        _refuse("statement_week_open",
                gettext_noop("A semana de {day} ainda não terminou: só pode ser fechada a partir da segunda-feira seguinte."),
                day=monday)
    try:
        with transaction.atomic():
            if WeekClosure.objects.filter(week_start=monday).exists():
                raise IntegrityError("week already closed")
            closure = WeekClosure.objects.create(week_start=monday, week_end=monday + timedelta(days=6), closed_at=now)
            totals = _week_gross(monday)
            permits = Permit.objects.in_bulk({p for p, _ in totals})
            people = Person.objects.in_bulk({d for _, d in totals})
            rows = []
            for (permit_id, driver_id), (gross, rides) in sorted(totals.items()):
                statement = build_statement(permit=permits[permit_id], driver=people[driver_id], monday=monday,
                                            gross=gross, rides=rides)
                statement.closure = closure
                statement.closed_at = now
                rows.append(statement)
            WeeklyStatement.objects.bulk_create(rows)
            WeekClosure.objects.filter(pk=closure.pk).update(statements=len(rows))
            closure.statements = len(rows)
            return closure
    except IntegrityError:
        _refuse("statement_week_closed",
                gettext_noop("A semana de {day} já foi fechada; um extrato fechado nunca é refeito."), day=monday)


def weeks_to_close(now: datetime | None = None) -> list[date]:
    """Every ended week from the first completed ride on that is not closed yet (Art. 1, §3)."""
    now = now or timezone.now()
    first = (Ride.objects.filter(status=RideStatus.COMPLETED, completed_at__isnull=False)
             .order_by("completed_at").values_list("completed_at", flat=True).first())
    if first is None:
        return []
    closed = set(WeekClosure.objects.values_list("week_start", flat=True))
    monday, current = monday_of(first), monday_of(now)
    weeks = []
    while monday < current:
        if monday not in closed:
            weeks.append(monday)
        monday += timedelta(days=7)
    return weeks


def close_ended_weeks(now: datetime | None = None) -> list[WeekClosure]:
    """Close every ended week not yet closed, oldest first (Art. 1, §3); the cron entry point."""
    return [close_week(monday, now) for monday in weeks_to_close(now)]


def running_statement(permit: Permit, driver: Person, now: datetime | None = None) -> WeeklyStatement:
    """The current week of ``driver`` on ``permit`` so far, computed on the fly and not stored (Art. 1, §3)."""
    monday = monday_of(now or timezone.now())
    gross, rides = _week_gross(monday, permit=permit, driver=driver).get((permit.pk, driver.pk), (ZERO, 0))
    return build_statement(permit=permit, driver=driver, monday=monday, gross=gross, rides=rides)


def running_statements_for_permit(permit: Permit, now: datetime | None = None) -> list[WeeklyStatement]:
    """The current week of the holder, each active auxiliary and anyone else who drove the permit (Art. 1, §3)."""
    monday = monday_of(now or timezone.now())
    totals = _week_gross(monday, permit=permit)
    driver_ids = [d for (_, d) in totals]
    if permit.holder_id:
        driver_ids.append(permit.holder_id)
    driver_ids += list(permit.auxiliaries.filter(status=Auxiliary.Status.ACTIVE).values_list("person_id", flat=True))
    people = Person.objects.in_bulk(set(driver_ids))
    out = []
    for driver_id in dict.fromkeys(driver_ids):
        gross, rides = totals.get((permit.pk, driver_id), (ZERO, 0))
        out.append(build_statement(permit=permit, driver=people[driver_id], monday=monday, gross=gross, rides=rides))
    out.sort(key=lambda s: (s.role != WeeklyStatement.Role.HOLDER, s.driver.full_name))
    return out
