"""An accepted payment is always in exactly one statement, and every settlement is exact (Art. 1, §3-§6; Art. 43).

Payments are recorded while the week closes: from several threads at once (PostgreSQL: row locks; SQLite: the
database's write lock), and at chosen points inside the closing (a harness over random interleavings, hypothesis).
After every closing and the next one (which carries late rides), each accepted payment appears once, with its
method and collector, in one statement line, and each statement's settlement is recomputed from the payments as
they are now: 25/75 of what the auxiliary's rides grossed, less what each partner collected. docs/security.md,
"Money invariants".
"""

from __future__ import annotations

import itertools
import random
import threading
import time
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal

import pytest
from django.db import connection, connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backend.api_errors import LawViolation
from backend.payments.models import RidePayment
from backend.payments.services import record_payment, register_pix_key
from backend.registry.models import Auxiliary
from backend.registry.services import auxiliaries
from backend.statements import services
from backend.statements.models import StatementAdjustment, StatementRide, WeeklyStatement
from backend.trips.models import Ride

from .statements_helpers import SP, local, ride

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.article("Art. 1, §3", "Art. 43")]

FIRST_MONDAY = date(2026, 2, 2)
_weeks = itertools.count()  # every closing of this module is a new week, in order: none is closed out of order
# (method, card machine) -> who collects when the auxiliary drives and Pix goes to the holder's key
METHODS = {"cash": ("cash", "driver"), "pix": ("pix", "driver"), "card_holder": ("card", "holder"),
           "card_driver": ("card", "driver")}
PHASES = ("before", "closure_created", "rides_locked", "rides_read", "after")


def _next_monday() -> date:
    return FIRST_MONDAY + timedelta(days=7 * next(_weeks))


def _after(monday: date) -> datetime:
    return datetime.combine(monday + timedelta(days=7), datetime.min.time(), SP) + timedelta(minutes=5)


@pytest.fixture
def partners(working_cab, make_person):
    """A permit, its holder (CNPJ key) and an auxiliary under the law's 25/75 whose Pix goes to the holder."""
    permit = working_cab(signed_on=date(2026, 1, 5))
    aux = make_person()
    auxiliaries.authorize_auxiliary(permit=permit, person=aux, on=date(2026, 1, 12))
    Auxiliary.objects.filter(permit=permit, person=aux).update(pix_receiver="holder")
    register_pix_key(permit.holder, "cnpj", "11.222.333/0001-81")
    register_pix_key(aux, "phone", "(32) 99999-1234")
    return permit, permit.holder, aux


def _pay(ride_id: int, driver, choice: str) -> str:
    method, machine = METHODS[choice]
    try:
        record_payment(ride_id, driver, method, card_machine=machine)
        return "recorded"
    except LawViolation as refusal:
        return refusal.reasons[0]["code"]


def _in_thread(target, outcomes: list, pids: dict | None = None, key=None) -> threading.Thread:
    def run():
        try:
            if pids is not None:
                connection.ensure_connection()
                pids[key] = connection.connection.info.backend_pid if connection.vendor == "postgresql" else 0
            outcomes.append(target())
        except BaseException as exc:  # noqa: BLE001 (reported by the test, never lost)
            outcomes.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _half_up(amount: Decimal) -> Decimal:
    return amount.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def assert_money_invariants(permit, holder, aux, ride_ids: list[int]) -> None:
    """Every completed ride and every accepted payment counted once, as paid; every settlement recomputed exactly."""
    payments = {p.ride_id: p for p in RidePayment.objects.filter(ride_id__in=ride_ids)}
    lines = {line.ride_id: line for line in StatementRide.objects.filter(ride_id__in=ride_ids)}
    assert set(lines) == set(ride_ids), "a completed ride missing from the statements"
    for ride_id, paid in payments.items():
        line = lines[ride_id]
        assert (line.method, line.collector) == (paid.method, paid.collector), f"ride {ride_id}: counted unpaid"

    def collector(line) -> str:  # the truth now: the payment if one was accepted, else the driver's hand
        paid = payments.get(line.ride_id)
        return paid.collector if paid else ("holder" if line.statement.driver_id == holder.pk else "auxiliary")

    by_week: dict[date, Decimal] = {}
    for r in Ride.objects.filter(pk__in=ride_ids, driver=aux):
        monday = services.monday_of(r.completed_at)
        by_week[monday] = by_week.get(monday, Decimal("0.00")) + r.fare
    for monday, gross in by_week.items():  # 25% of each week's gross, whether paid on time or as an adjustment
        own = WeeklyStatement.objects.filter(permit=permit, driver=aux, week_start=monday).first()
        adjusted = StatementAdjustment.objects.filter(statement__permit=permit, statement__driver=aux,
                                                      original_week_start=monday)
        parts = (own.auxiliary_part if own else Decimal("0.00")) + sum((a.auxiliary_part for a in adjusted), Decimal("0.00"))
        assert parts == _half_up(gross * Decimal("0.25")), f"week of {monday}: the auxiliary's 25% drifted"

    for statement in WeeklyStatement.objects.filter(pk__in={line.statement_id for line in lines.values()}, driver=aux):
        counted = [line for line in lines.values() if line.statement_id == statement.pk]
        received = sum((line.fare for line in counted if collector(line) == "auxiliary"), Decimal("0.00"))
        assert sum((line.fare for line in counted), Decimal("0.00")) == statement.total_gross
        due = statement.total_auxiliary_part - received  # owed minus received: positive, the holder pays
        s = statement.settlement
        expected = (("holder", due) if due > 0 else ("auxiliary", -due)) if due else (None, Decimal("0.00"))
        assert (s.payer, s.amount) == expected, f"statement {statement.pk}: settlement off"
        assert s.received("auxiliary") == received and s.received("holder") == statement.total_gross - received


def test_a_week_closed_while_payments_are_recorded_from_several_threads_misses_none(partners):
    permit, holder, aux = partners
    rng = random.Random(27)
    for _run in range(20):
        monday = _next_monday()
        rides = [ride(permit, rng.choice((aux, aux, holder)), f"{rng.randint(500, 9000) / 100:.2f}",
                      local(monday + timedelta(days=rng.randrange(7)), rng.randrange(24), rng.randrange(60)))
                 for _ in range(12)]
        rng.shuffle(rides)
        barrier = threading.Barrier(5)
        outcomes: list = []

        def payer(share, outcomes=outcomes, barrier=barrier):
            barrier.wait()
            return [_pay(r.pk, r.driver, rng.choice(list(METHODS))) for r in share]

        def closer(monday=monday, barrier=barrier):
            barrier.wait()
            return services.close_week(monday, now=_after(monday))

        threads = [_in_thread(lambda share=rides[i::4]: payer(share), outcomes) for i in range(4)]
        threads.append(_in_thread(closer, outcomes))
        for t in threads:
            t.join()
        errors = [o for o in outcomes if isinstance(o, BaseException)]
        assert not errors, errors
        codes = [c for o in outcomes if isinstance(o, list) for c in o]
        assert len(codes) == 12 and set(codes) <= {"recorded", "payment_week_closed"}, codes
        assert codes.count("recorded") == RidePayment.objects.filter(ride__in=rides).count()
        assert_money_invariants(permit, holder, aux, [r.pk for r in rides])  # each week stands alone: no late ride


def _blocked_or_done(thread: threading.Thread, pids: dict, key) -> bool:
    """The payment's thread finished, or (PostgreSQL) waits for a row lock the closing holds."""
    if not thread.is_alive():
        return True
    if connection.vendor != "postgresql" or key not in pids:
        return connection.vendor != "postgresql"  # SQLite: the write lock serializes it behind the closing
    with connection.cursor() as cursor:  # the lock manager, live (pg_stat_activity is a snapshot per transaction)
        cursor.execute("SELECT cardinality(pg_blocking_pids(%s)) > 0", [pids[key]])
        return cursor.fetchone()[0]


OPS = st.lists(st.tuples(st.sampled_from(("aux", "aux", "holder")), st.integers(0, 30000),
                         st.sampled_from(tuple(METHODS) + (None,)), st.sampled_from(PHASES), st.booleans()),
               min_size=1, max_size=8)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_every_payment_accepted_before_or_during_a_closing_is_in_exactly_one_statement(partners, monkeypatch, ops):
    """Each op: a ride of the closing week (fare in centavos), paid by a method or never, at a phase of the closing;
    ``late`` rides are synced (created) at that phase too, as an app that was offline."""
    permit, holder, aux = partners
    monday = _next_monday()
    who = {"aux": aux, "holder": holder}
    when = local(monday + timedelta(days=3), 15)
    made = {i: ride(permit, who[d], f"{c / 100:.2f}", when) for i, (d, c, _m, _p, late) in enumerate(ops) if not late}
    outcomes: list = []
    threads: list[tuple[threading.Thread, object]] = []
    pids: dict = {}
    created: dict[int, int] = {i: r.pk for i, r in made.items()}

    def op(i):
        driver, cents, method, _phase, late = ops[i]
        if late:
            created[i] = ride(permit, who[driver], f"{cents / 100:.2f}", when).pk
        return _pay(created[i], who[driver], method) if method else "unpaid"

    def run_phase(phase):
        started = [(_in_thread(lambda i=i: op(i), outcomes, pids, i), i) for i, o in enumerate(ops) if o[3] == phase]
        threads.extend(started)
        deadline = time.monotonic() + 30
        while not all(_blocked_or_done(t, pids, i) for t, i in started):  # poll: each ran, or waits on the closing
            assert time.monotonic() < deadline, "a payment neither finished nor waited for the closing's lock"
            time.sleep(0.005)

    lock, read = services._lock_countable, services._late_rides

    def lock_checkpointed(*args, **kwargs):
        run_phase("closure_created")
        locked = lock(*args, **kwargs)
        run_phase("rides_locked")
        return locked

    def read_checkpointed(*args, **kwargs):
        rows = read(*args, **kwargs)
        run_phase("rides_read")
        return rows

    for i, o in enumerate(ops):
        if o[3] == "before":
            outcomes.append(op(i))
    monkeypatch.setattr(services, "_lock_countable", lock_checkpointed)
    monkeypatch.setattr(services, "_late_rides", read_checkpointed)
    closing: list = []
    closer = _in_thread(lambda: services.close_week(monday, now=_after(monday)), closing)
    closer.join()
    for t, _i in threads:
        t.join()
    monkeypatch.setattr(services, "_lock_countable", lock)
    monkeypatch.setattr(services, "_late_rides", read)
    for i, o in enumerate(ops):
        if o[3] == "after":
            outcomes.append(op(i))
    assert not [o for o in outcomes + closing if isinstance(o, BaseException)], outcomes + closing
    assert set(outcomes) <= {"recorded", "unpaid", "payment_week_closed", "payment_no_fare"}, outcomes
    nxt = monday + timedelta(days=7)
    next(_weeks)  # the next closing's week is this example's
    services.close_week(nxt, now=_after(nxt))  # carries the rides the closing left out (late) with their payments
    assert_money_invariants(permit, holder, aux, list(created.values()))
