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
  Nor is an auxiliary's employed under the CTPS (Art. 1, §6).
* A closed statement is never rewritten; a week is closed once.
* Each completed ride is counted once (``StatementRide``). A ride completed
  in a week already closed but recorded afterwards (a late sync) is a *late
  ride*: the next closing carries it as an adjustment line of the driver's
  statement of the week being closed, naming the original week, split with
  that week's terms by ``taxilaw.split.split_late_rides``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils import timezone

from backend.api_errors import require
from backend.registry.models import Auxiliary, Permit, Person
from backend.trips.models import Ride, RideStatus
from taxilaw import split as split_law
from taxilaw.settlement import METHOD_UNRECORDED, PARTY_AUXILIARY, PARTY_HOLDER
from taxilaw.split import (
    LAW_SPLIT,
    SplitAgreement,
    check_regime,
    split_gross,
    split_late_rides,
    validate_agreement,
    week_bounds,
    week_start,
)

from .models import StatementAdjustment, StatementRide, WeekClosure, WeeklyStatement

ZERO = Decimal("0.00")
CENT = Decimal("0.01")
ORIGIN_OF_CREATOR = {"street": StatementRide.Origin.STREET, "rank": StatementRide.Origin.RANK}  # Ride.created_by (dispatch/rides/street_trips.py)


@dataclass(frozen=True)
class Terms:
    """How one driver's week on one permit is split (Art. 1, §3 and Art. 1, §6)."""

    role: str
    agreement: str
    auxiliary_percent: Decimal
    contract_reference: str = ""
    contract_signed_on: date | None = None
    contract_witnesses: tuple[str, ...] = ()
    ctps_number: str = ""
    ctps_series: str = ""

    @property
    def splits(self) -> bool:
        """A partnership split: an auxiliary under the law or a written contract, not the holder nor a CTPS employee."""
        return self.role == WeeklyStatement.Role.AUXILIARY and self.agreement != WeeklyStatement.Agreement.CTPS

    def split(self, gross: Decimal) -> tuple[Decimal, Decimal]:
        """(auxiliary, holder) of a week's gross; without a split the whole gross is the holder's (Art. 1, §3; §6)."""
        return split_gross(gross, self.auxiliary_percent) if self.splits else (ZERO, gross)

    def split_late(self, settled_gross: Decimal, late_gross: Decimal) -> tuple[Decimal, Decimal]:
        """(auxiliary, holder) of late rides of a week of which ``settled_gross`` was already split (Art. 1, §3)."""
        return split_late_rides(settled_gross, late_gross, self.auxiliary_percent) if self.splits else (ZERO, late_gross)

    @classmethod
    def of(cls, row: WeeklyStatement | StatementAdjustment) -> "Terms":
        """The terms a stored statement (or adjustment) was split with."""
        return cls(row.role, row.agreement, row.auxiliary_percent,
                   getattr(row, "contract_reference", ""), getattr(row, "contract_signed_on", None),
                   tuple(getattr(row, "contract_witnesses", ()) or ()),
                   getattr(row, "ctps_number", ""), getattr(row, "ctps_series", ""))


HOLDER_TERMS = Terms(WeeklyStatement.Role.HOLDER, WeeklyStatement.Agreement.OWN, Decimal("0.00"))
LAW_TERMS = Terms(WeeklyStatement.Role.AUXILIARY, WeeklyStatement.Agreement.LAW, LAW_SPLIT.percent.quantize(CENT))


@dataclass(frozen=True)
class RideRow:
    """A completed ride as the statements count it."""

    pk: int
    permit_id: int
    driver_id: int
    fare: Decimal
    completed_at: datetime
    method: str = METHOD_UNRECORDED
    collector: str = ""
    origin: str = StatementRide.Origin.DISPATCHED
    server_total: Decimal | None = None
    meter_disagreement: bool = False

    def entry(self, role: str, **links) -> StatementRide:
        """The ledger line of this ride as counted (Art. 1, §3): fare, payment and who received it, origin, and
        any meter disagreement (Art. 43). A payment never recorded is the driver's, in hand."""
        holder_drove = role == WeeklyStatement.Role.HOLDER
        collector = PARTY_HOLDER if holder_drove else (self.collector or PARTY_AUXILIARY)
        return StatementRide(ride_id=self.pk, fare=self.fare, completed_at=self.completed_at, method=self.method,
                             collector=collector,
                             origin=self.origin, server_total=self.server_total,
                             meter_disagreement=self.meter_disagreement, **links)


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

    The permit holder driving their own taxi: no split. An auxiliary employed
    under the CTPS: no split (Art. 1, §6). An auxiliary with a written
    contract signed on or before the week's Sunday: the agreed percentage.
    Otherwise the law's 25/75.
    """
    holder_id = holder.pk if holder is not None else permit.holder_id
    if holder_id is not None and driver.pk == holder_id:
        return HOLDER_TERMS
    aux = auxiliary_role(permit, driver, monday)
    if aux is None:
        return LAW_TERMS
    regime = aux.regime
    if regime == Auxiliary.SplitRegime.CTPS:
        return Terms(WeeklyStatement.Role.AUXILIARY, WeeklyStatement.Agreement.CTPS, ZERO,
                     ctps_number=aux.ctps_number, ctps_series=aux.ctps_series)
    if regime == Auxiliary.SplitRegime.CONTRACT:
        if aux.contract_auxiliary_percent is None:
            require(check_regime(regime, signed_on=aux.contract_signed_on,
                                 witnesses=(aux.contract_witness_1, aux.contract_witness_2)))
        if aux.contract_signed_on is not None and aux.contract_signed_on > monday + timedelta(days=6):
            return LAW_TERMS  # the week was over before the contract was signed
        names = tuple(n.strip() for n in (aux.contract_witness_1, aux.contract_witness_2) if n.strip())
        # Witnesses named on the authorization are checked here (two distinct people); a percentage registered
        # with only the contract's reference (authorize_auxiliary) was accepted by DIMUTRAN with its witnesses.
        agreement = SplitAgreement("contract", Decimal(aux.contract_auxiliary_percent), witnesses=0 if names else 2,
                                   reference=aux.contract_reference, signed_on=aux.contract_signed_on,
                                   witness_names=names)
        require(validate_agreement(agreement))
        return Terms(WeeklyStatement.Role.AUXILIARY, WeeklyStatement.Agreement.CONTRACT,
                     agreement.percent.quantize(CENT), aux.contract_reference, aux.contract_signed_on, names)
    return LAW_TERMS


def _check_adds_up(auxiliary_part: Decimal, holder_part: Decimal, gross: Decimal) -> None:
    """The parts of a split are the gross to the centavo (Art. 1, §3): a statement that does not add up is never
    written (an error, not an ``assert`` that ``python -O`` would drop)."""
    if auxiliary_part + holder_part != gross:
        raise ArithmeticError(f"split of {gross} does not add up: {auxiliary_part} + {holder_part}")


def build_statement(*, permit: Permit, driver: Person, monday: date, gross: Decimal, rides: int,
                    holder: Person | None = None) -> WeeklyStatement:
    """An unsaved statement: the week's gross split by the terms in force (Art. 1, §3; Art. 1, §6)."""
    holder = holder if holder is not None else permit.holder
    terms = terms_for(permit, driver, monday, holder)
    aux_part, holder_part = terms.split(gross)
    _check_adds_up(aux_part, holder_part, gross)
    return WeeklyStatement(
        permit=permit, driver=driver, holder=holder, role=terms.role,
        week_start=monday, week_end=monday + timedelta(days=6),
        gross=gross, auxiliary_part=aux_part, holder_part=holder_part,
        auxiliary_percent=terms.auxiliary_percent, agreement=terms.agreement,
        contract_reference=terms.contract_reference, contract_signed_on=terms.contract_signed_on,
        contract_witnesses=list(terms.contract_witnesses), ctps_number=terms.ctps_number,
        ctps_series=terms.ctps_series, rides=rides,
    )


def build_adjustment(*, permit: Permit, driver: Person, original_monday: date, late: list[RideRow]) -> StatementAdjustment:
    """An unsaved adjustment line for rides of a closed week recorded after its closing (Art. 1, §3).

    The split uses the terms of the original week: those of its closed
    statement, else of an earlier adjustment for that week, else the terms in
    force then (``terms_for``). The parts are the difference between one
    split of the week's whole gross and what was already split for it
    (``taxilaw.split.split_late_rides``), so nothing drifts by a centavo.
    """
    original = WeeklyStatement.objects.filter(permit=permit, driver=driver, week_start=original_monday).first()
    earlier = list(StatementAdjustment.objects.filter(
        statement__permit=permit, statement__driver=driver, original_week_start=original_monday).order_by("pk"))
    if original is not None:
        terms, holder = Terms.of(original), original.holder
    elif earlier:
        terms, holder = Terms.of(earlier[0]), earlier[0].holder
    else:
        holder = permit.holder
        terms = terms_for(permit, driver, original_monday, holder)
    settled = (original.gross if original is not None else ZERO) + sum((a.gross for a in earlier), ZERO)
    gross = sum((r.fare for r in late), ZERO)
    aux_part, holder_part = terms.split_late(settled, gross)
    _check_adds_up(aux_part, holder_part, gross)
    adjustment = StatementAdjustment(
        original_week_start=original_monday, original_week_end=original_monday + timedelta(days=6),
        original_statement=original, holder=holder, role=terms.role, agreement=terms.agreement,
        auxiliary_percent=terms.auxiliary_percent, settled_gross=settled, rides=len(late), gross=gross,
        auxiliary_part=aux_part, holder_part=holder_part,
    )
    adjustment.pending_rides = [r.entry(terms.role) for r in late]
    for entry in adjustment.pending_rides:
        entry.pending = True
    return adjustment


def _completed_rides(**filters) -> list[RideRow]:
    """Completed rides with a permit and a driver not counted by any statement yet, fares exact in Decimal.

    A fare held for DIMUTRAN's review (``Ride.fare_held``, Art. 43) waits: once released it is counted by the
    running week's statement, or carried into the next one as a late ride if its own week has closed."""
    rows = (Ride.objects.filter(status=RideStatus.COMPLETED, completed_at__isnull=False, permit__isnull=False, fare_held=False,
                                driver__isnull=False, statement_entry__isnull=True, **filters)
            .order_by("completed_at", "pk").values_list(
                "pk", "permit_id", "driver_id", "fare", "completed_at", "payment__method", "payment__collector",
                "created_by", "server_total", "meter_disagreement"))
    return [RideRow(pk, permit_id, driver_id, Decimal(fare) if fare is not None else ZERO, at,
                    method or METHOD_UNRECORDED, collector or "",
                    ORIGIN_OF_CREATOR.get(created_by, StatementRide.Origin.DISPATCHED),
                    server_total, disagreement)
            for pk, permit_id, driver_id, fare, at, method, collector, created_by, server_total, disagreement in rows]


def _lock_countable(monday: date) -> set[int]:
    """Lock, in id order, every completed ride the closing of ``monday``'s week may count, and return their ids.

    Recording a payment locks its ride (``backend.payments.services.record_payment``) and checks there that no
    statement counted it; the closing takes the same row locks, in the same (id) order, before it reads the
    payments. So a payment either committed before the closing read it (the statement counts it with its
    method), or waits for the closing's commit and is then refused (``payment_week_closed``) or, for a ride the
    closing left out, carried by the next closing as a late ride. The payment reads that follow are new
    statements (READ COMMITTED) and see every payment committed while these locks were waited for. Held fares
    are locked too, so that DIMUTRAN's release (which locks the ride) and the closing also take turns.
    """
    return set(Ride.objects.select_for_update(of=("self",))
               .filter(status=RideStatus.COMPLETED, completed_at__lt=week_bounds(monday)[1], permit__isnull=False,
                       driver__isnull=False, statement_entry__isnull=True)
               .order_by("pk").values_list("pk", flat=True))


def _week_rides(monday: date, locked: set[int] | None = None, **filters) -> dict[tuple[int, int], list[RideRow]]:
    """(permit_id, driver_id) -> the week's completed rides not yet counted (Art. 1, §3).

    With ``locked`` (a closing), only those rides: one completed after the closing locked its rides is a late
    ride of the next closing."""
    start, end = week_bounds(monday)
    out: dict[tuple[int, int], list[RideRow]] = {}
    for row in _completed_rides(completed_at__gte=start, completed_at__lt=end, **filters):
        if locked is None or row.pk in locked:
            out.setdefault((row.permit_id, row.driver_id), []).append(row)
    return out


def _late_rides(monday: date, locked: set[int] | None = None, **filters) -> dict[tuple[int, int, date], list[RideRow]]:
    """(permit_id, driver_id, original Monday) -> rides of weeks closed before ``monday`` that no statement counted.

    Such a ride was completed in a week already closed and recorded after the
    closing; a ride of a week not closed yet is not late (its week's closing
    will count it). ``locked`` as in :func:`_week_rides`.
    """
    closed = set(WeekClosure.objects.filter(week_start__lt=monday).values_list("week_start", flat=True))
    if not closed:
        return {}
    out: dict[tuple[int, int, date], list[RideRow]] = {}
    for row in _completed_rides(completed_at__lt=week_bounds(monday)[0], **filters):
        original = week_start(row.completed_at)
        if original in closed and (locked is None or row.pk in locked):
            out.setdefault((row.permit_id, row.driver_id, original), []).append(row)
    return out


def _gross(rows: list[RideRow]) -> Decimal:
    return sum((r.fare for r in rows), ZERO)


def close_week(monday: date, now: datetime | None = None) -> WeekClosure:
    """Compute and store every statement of an ended week, once (Art. 1, §3; Art. 1, §6; Art. 1, §2 note).

    Refuses a week that has not ended yet and a week already closed; a
    closed statement is never rewritten. Rides of weeks closed earlier that
    were recorded after their closing are carried here as adjustment lines
    (``build_adjustment``), and every ride counted is recorded
    (``StatementRide``) so that it is never counted twice nor missed.
    """
    now = now or timezone.now()
    require(split_law.week_closable(monday, monday.weekday() == 0 and week_has_ended(monday, now)))
    try:
        with transaction.atomic():
            if WeekClosure.objects.filter(week_start=monday).exists():
                raise IntegrityError("week already closed")
            closure = WeekClosure.objects.create(week_start=monday, week_end=monday + timedelta(days=6), closed_at=now)
            locked = _lock_countable(monday)  # the rides' locks first, as record_payment takes them
            own = _week_rides(monday, locked)
            late = _late_rides(monday, locked)
            keys = sorted(set(own) | {(p, d) for p, d, _ in late})
            permits = Permit.objects.select_related("holder").in_bulk({p for p, _ in keys})
            people = Person.objects.in_bulk({d for _, d in keys})
            statements = {}
            for permit_id, driver_id in keys:
                rows = own.get((permit_id, driver_id), [])
                statement = build_statement(permit=permits[permit_id], driver=people[driver_id], monday=monday,
                                            gross=_gross(rows), rides=len(rows))
                statement.closure = closure
                statement.closed_at = now
                statements[(permit_id, driver_id)] = statement
            WeeklyStatement.objects.bulk_create(statements.values())
            adjustments = []
            for (permit_id, driver_id, original), rows in sorted(late.items()):
                adjustment = build_adjustment(permit=permits[permit_id], driver=people[driver_id],
                                              original_monday=original, late=rows)
                adjustment.statement = statements[(permit_id, driver_id)]
                adjustments.append(adjustment)
            StatementAdjustment.objects.bulk_create(adjustments)
            entries = [r.entry(statements[key].role, statement=statements[key])
                       for key, rows in own.items() for r in rows]
            for adjustment in adjustments:
                for entry in adjustment.pending_rides:
                    entry.statement, entry.adjustment = adjustment.statement, adjustment
                    entries.append(entry)
            StatementRide.objects.bulk_create(entries)
            late_count = sum(a.rides for a in adjustments)
            WeekClosure.objects.filter(pk=closure.pk).update(statements=len(statements), late_rides=late_count)
            closure.statements, closure.late_rides = len(statements), late_count
            return closure
    except IntegrityError:
        if not WeekClosure.objects.filter(week_start=monday).exists():
            raise  # not a second closing of the week: a ride counted meanwhile by another closing (a 400 all the same)
        require(split_law.week_not_closed(True, monday))
        raise  # pragma: no cover - require raised


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


def _running(permit: Permit, driver: Person, monday: date, rows: list[RideRow],
             late: dict[tuple[int, int, date], list[RideRow]]) -> WeeklyStatement:
    statement = build_statement(permit=permit, driver=driver, monday=monday, gross=_gross(rows), rides=len(rows))
    statement.pending_entries = [r.entry(statement.role) for r in rows]
    statement.pending_adjustments = [
        build_adjustment(permit=permit, driver=driver, original_monday=original, late=late_rows)
        for (p, d, original), late_rows in sorted(late.items()) if (p, d) == (permit.pk, driver.pk)
    ]
    return statement


def running_statement(permit: Permit, driver: Person, now: datetime | None = None) -> WeeklyStatement:
    """The current week of ``driver`` on ``permit`` so far, computed on the fly and not stored (Art. 1, §3).

    Late rides waiting for the next closing show as pending adjustment lines."""
    monday = monday_of(now or timezone.now())
    rows = _week_rides(monday, permit=permit, driver=driver).get((permit.pk, driver.pk), [])
    return _running(permit, driver, monday, rows, _late_rides(monday, permit=permit, driver=driver))


def running_statements_for_permit(permit: Permit, now: datetime | None = None) -> list[WeeklyStatement]:
    """The current week of the holder, each active auxiliary and anyone else who drove the permit (Art. 1, §3)."""
    monday = monday_of(now or timezone.now())
    totals = _week_rides(monday, permit=permit)
    late = _late_rides(monday, permit=permit)
    driver_ids = [d for (_, d) in totals] + [d for (_, d, _) in late]
    if permit.holder_id:
        driver_ids.append(permit.holder_id)
    driver_ids += list(permit.auxiliaries.filter(status=Auxiliary.Status.ACTIVE).values_list("person_id", flat=True))
    people = Person.objects.in_bulk(set(driver_ids))
    out = []
    for driver_id in dict.fromkeys(driver_ids):
        rows = totals.get((permit.pk, driver_id), [])
        out.append(_running(permit, people[driver_id], monday, rows, late))
    out.sort(key=lambda s: (s.role != WeeklyStatement.Role.HOLDER, s.driver.full_name))
    return out
