"""Helpers for the statements tests: permits with auxiliaries, completed rides written with the ORM."""

from datetime import date, datetime, time
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from backend.registry.services import auxiliaries
from backend.statements.models import WeeklyStatement
from backend.trips.models import Ride
from dispatch.models import Cab

SP = ZoneInfo("America/Sao_Paulo")
SIGNED_ON = date(2026, 1, 5)
AUTHORIZED_ON = date(2026, 1, 12)
# A closed week for the tests: Monday 16/11/2026 to Sunday 22/11/2026.
MONDAY = date(2026, 11, 16)
NEXT_MONDAY = date(2026, 11, 23)
AFTER_WEEK = datetime.combine(NEXT_MONDAY, time(0, 5), SP)


def local(day: date, hh=12, mm=0, ss=0) -> datetime:
    return datetime(day.year, day.month, day.day, hh, mm, ss, tzinfo=SP)


def ride(permit, driver, fare, at, status="completed"):
    Cab.objects.get_or_create(permit=permit)
    return Ride.objects.create(
        status=status, permit=permit, driver=driver, fare=Decimal(fare), completed_at=at if status == "completed" else None,
        pickup_lat=-21.13, pickup_lon=-42.37,
    )


@pytest.fixture
def cab_with_aux(working_cab, make_person):
    """A permit whose holder has authorized an auxiliar: (permit, holder, auxiliar)."""
    permit = working_cab(signed_on=SIGNED_ON)
    aux = make_person()
    auxiliaries.authorize_auxiliary(permit=permit, person=aux, on=AUTHORIZED_ON)
    return permit, permit.holder, aux


def statement(permit, driver, monday=MONDAY):
    return WeeklyStatement.objects.get(permit=permit, driver=driver, week_start=monday)


def set_regime(auxiliary, **fields):
    """Record the split regime of an authorization as DIMUTRAN does in the admin: checked by ``Auxiliary.clean``."""
    for name, value in fields.items():
        setattr(auxiliary, name, value)
    auxiliary.full_clean()
    auxiliary.save()
    return auxiliary
