"""Weekly statements: the 25/75 split, §6 contracts, week bounds, immutability (Lei 1.242/1987, Art. 1, §2-§6)."""

from datetime import datetime, time, timedelta
from decimal import Decimal

import pytest
from django.core.management import call_command

from backend.api_errors import LawViolation
from backend.registry.services import auxiliaries
from backend.statements import services
from backend.statements.models import StatementImmutable, WeekClosure, WeeklyStatement

from .statements_helpers import (  # noqa: F401 (fixture)
    AFTER_WEEK,
    AUTHORIZED_ON,
    MONDAY,
    NEXT_MONDAY,
    SIGNED_ON,
    SP,
    cab_with_aux,
    local,
    ride,
    statement,
)


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_default_split_is_25_75_of_the_weeks_gross(cab_with_aux):
    permit, holder, aux = cab_with_aux
    ride(permit, aux, "30.00", local(MONDAY, 8))
    ride(permit, aux, "70.00", local(MONDAY + timedelta(days=3), 21))
    ride(permit, aux, "999.00", local(MONDAY, 9), status="cancelled")  # not a completed ride: not in the gross
    services.close_week(MONDAY, now=AFTER_WEEK)
    s = statement(permit, aux)
    assert (s.gross, s.auxiliary_part, s.holder_part) == (Decimal("100.00"), Decimal("25.00"), Decimal("75.00"))
    assert s.role == "auxiliar" and s.agreement == "law" and s.auxiliary_percent == Decimal("25.00")
    assert s.rides == 2 and s.holder == holder and s.week_end == MONDAY + timedelta(days=6)
    assert s.closed_at == AFTER_WEEK


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_split_is_per_week_and_the_odd_centavo_goes_to_the_auxiliary(cab_with_aux):
    permit, _, aux = cab_with_aux
    # Per fare: 25% of 5,03 = 1,2575 -> 1,26 twice = 2,52; per week: 25% of 10,06 = 2,515 -> 2,52 (half-up).
    # With three fares of 0,01: per fare 0,00 each, per week 25% of 0,03 = 0,0075 -> 0,01.
    for fare in ("5.03", "5.03", "0.01", "0.01", "0.01"):
        ride(permit, aux, fare, local(MONDAY + timedelta(days=1), 10))
    services.close_week(MONDAY, now=AFTER_WEEK)
    s = statement(permit, aux)
    assert s.gross == Decimal("10.09")
    assert s.auxiliary_part == Decimal("2.52")  # 2,5225 -> 2,52
    assert s.holder_part == Decimal("7.57")
    assert s.auxiliary_part + s.holder_part == s.gross


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_half_centavo_rounds_up_for_the_auxiliary_and_parts_sum_exactly(cab_with_aux):
    permit, _, aux = cab_with_aux
    ride(permit, aux, "10.06", local(MONDAY, 10))  # 25% = 2,515
    running = services.running_statement(permit, aux, now=local(MONDAY, 23))
    assert (running.auxiliary_part, running.holder_part) == (Decimal("2.52"), Decimal("7.54"))
    assert running.auxiliary_part + running.holder_part == running.gross == Decimal("10.06")


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §6")
def test_written_contract_replaces_the_25_75(working_cab, make_person):
    permit = working_cab(signed_on=SIGNED_ON)
    aux = make_person()
    auxiliaries.authorize_auxiliary(permit=permit, person=aux, on=AUTHORIZED_ON, contract_auxiliary_percent=Decimal("40"),
                                    contract_reference="Contrato 12/2026, duas testemunhas")
    ride(permit, aux, "100.01", local(MONDAY, 15))
    services.close_week(MONDAY, now=AFTER_WEEK)
    s = statement(permit, aux)
    assert s.agreement == "contract" and s.auxiliary_percent == Decimal("40.00")
    assert (s.auxiliary_part, s.holder_part) == (Decimal("40.00"), Decimal("60.01"))  # 40,004 -> 40,00
    assert s.contract_reference.startswith("Contrato 12/2026")


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_the_holders_own_driving_is_not_split(cab_with_aux):
    permit, holder, aux = cab_with_aux
    ride(permit, holder, "80.00", local(MONDAY, 7))
    ride(permit, aux, "40.00", local(MONDAY, 8))
    closure = services.close_week(MONDAY, now=AFTER_WEEK)
    assert closure.statements == 2
    own = statement(permit, holder)
    assert own.role == "permissionario" and own.agreement == "own"
    assert (own.gross, own.auxiliary_part, own.holder_part) == (Decimal("80.00"), Decimal("0.00"), Decimal("80.00"))
    assert statement(permit, aux).auxiliary_part == Decimal("10.00")


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_week_bounds_are_monday_00_00_sao_paulo(cab_with_aux):
    permit, _, aux = cab_with_aux
    sunday = NEXT_MONDAY - timedelta(days=1)
    ride(permit, aux, "11.00", local(sunday, 23, 59, 59))  # 02:59:59 UTC on Monday: still the week of 16/11
    ride(permit, aux, "22.00", local(NEXT_MONDAY, 0, 0, 0))  # Monday 00:00 local: the next week
    ride(permit, aux, "33.00", local(MONDAY, 0, 0, 0))  # first instant of the week
    services.close_week(MONDAY, now=AFTER_WEEK)
    assert statement(permit, aux).gross == Decimal("44.00")
    services.close_week(NEXT_MONDAY, now=datetime.combine(NEXT_MONDAY + timedelta(days=7), time(0), SP))
    assert statement(permit, aux, NEXT_MONDAY).gross == Decimal("22.00")


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_a_week_is_closed_only_after_it_ends(cab_with_aux):
    permit, _, aux = cab_with_aux
    ride(permit, aux, "10.00", local(MONDAY, 10))
    just_before = datetime.combine(NEXT_MONDAY, time(0), SP) - timedelta(seconds=1)
    with pytest.raises(LawViolation) as exc:
        services.close_week(MONDAY, now=just_before)
    assert exc.value.reasons[0]["code"] == "statement_week_open"
    assert not WeeklyStatement.objects.exists() and not WeekClosure.objects.exists()
    with pytest.raises(LawViolation):
        services.close_week(MONDAY + timedelta(days=1), now=AFTER_WEEK)  # not a Monday


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_closed_statement_is_immutable_and_a_week_is_never_reclosed(cab_with_aux):
    permit, _, aux = cab_with_aux
    ride(permit, aux, "10.00", local(MONDAY, 10))
    services.close_week(MONDAY, now=AFTER_WEEK)
    s = statement(permit, aux)
    ride(permit, aux, "50.00", local(MONDAY, 11))  # a late ride after closing does not rewrite the statement
    with pytest.raises(LawViolation) as exc:
        services.close_week(MONDAY, now=AFTER_WEEK + timedelta(days=1))
    assert exc.value.reasons[0]["code"] == "statement_week_closed"
    s.gross = Decimal("60.00")
    with pytest.raises(StatementImmutable):
        s.save()
    with pytest.raises(StatementImmutable):
        s.delete()
    s.refresh_from_db()
    assert s.gross == Decimal("10.00") and WeeklyStatement.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_running_statement_is_computed_not_stored(cab_with_aux):
    permit, _, aux = cab_with_aux
    ride(permit, aux, "12.34", local(MONDAY, 10))
    running = services.running_statement(permit, aux, now=local(MONDAY + timedelta(days=2), 9))
    assert running.pk is None and running.closed_at is None and running.gross == Decimal("12.34") and running.rides == 1
    assert not WeeklyStatement.objects.exists()
    rows = services.running_statements_for_permit(permit, now=local(MONDAY + timedelta(days=2), 9))
    assert [r.role for r in rows] == ["permissionario", "auxiliar"]


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_close_weeks_command_closes_every_ended_week_once(cab_with_aux):
    from django.utils import timezone

    permit, holder, aux = cab_with_aux
    ride(permit, aux, "10.00", local(MONDAY - timedelta(days=14), 10))
    ride(permit, holder, "20.00", local(MONDAY, 10))
    ride(permit, aux, "30.00", timezone.now())  # the running week stays open
    call_command("close_weeks", verbosity=0)
    current = services.monday_of(timezone.now())
    closed = set(WeekClosure.objects.values_list("week_start", flat=True))
    assert MONDAY - timedelta(days=14) in closed and MONDAY - timedelta(days=7) in closed and MONDAY in closed
    assert current not in closed and max(closed) == current - timedelta(days=7)
    count = WeeklyStatement.objects.count()
    call_command("close_weeks", verbosity=0)  # idempotent: nothing left to close
    assert WeeklyStatement.objects.count() == count and WeekClosure.objects.count() == len(closed)
