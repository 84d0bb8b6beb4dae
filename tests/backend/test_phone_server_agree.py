"""A year of trips: the phone's meter, configured only from the server's answer, and the server's recomputation
agree to the centavo every day, holidays included (Art. 43, Art. 45, Art. 45, II)."""

from datetime import date, datetime, time, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from backend.parameters.models import DatedParameter
from backend.tariffs import services
from taxilaw.flags import Flag
from taxilaw.meter import Meter
from taxilaw.meter_data import Fix, MeterParams
from taxilaw.tariffs import Tariff

pytestmark = pytest.mark.django_db

YEAR = 2030  # never seeded: the holidays are generated for the year asked


def _trace(day: date) -> list[Fix]:
    """A 4 km drive north from the centre at 10:00, a fix every 20 s, then 3 minutes of waiting."""
    t0 = timezone.make_aware(datetime.combine(day, time(10)))
    fixes = [Fix(t0 + timedelta(seconds=20 * i), -21.1311 + 0.0018 * i, -42.3676, 8.0) for i in range(21)]
    last = fixes[-1]
    return fixes + [Fix(last.t + timedelta(seconds=60 * k), last.lat, last.lon, 8.0) for k in (1, 2, 3)]


def _phone(answer: dict, trace: list[Fix]) -> tuple[Decimal, Flag]:
    """What the app does with ``/api/tariffs/current/`` (``driver_app.session.Session._apply``, ``MeterViewModel.start``)."""
    config = answer["meter"]
    meter = Meter(Tariff.from_dict(answer["tariff"]), frozenset(date.fromisoformat(d) for d in config["holidays"]),
                  MeterParams.from_dict(config["params"]))
    meter.start(trace[0].t)
    for fix in trace:  # the GPS fix at the start too, as MeterViewModel.on_fix receives it
        meter.feed(fix)
    reading = meter.stop(trace[-1].t)
    return reading.total, reading.flag


@pytest.mark.article("Art. 43", "Art. 45", "Art. 45, II")
def test_phone_and_server_agree_every_day_of_a_year(dimutran):
    services.decree_tariff(effective_from=date(YEAR, 3, 1), bandeirada=Decimal("6.50"), price_km_b1=Decimal("3.20"),
                           price_km_b2=Decimal("3.84"), price_hour_waiting=Decimal("15.00"), decree="Decreto 9/2030")
    DatedParameter.objects.create(name="meter_fraction_brl", effective_from=date(YEAR, 7, 1), value=Decimal("0.05"), source="teste")
    totals, flags = {}, {}
    day = date(YEAR, 1, 1)
    while day.year == YEAR:
        trace = _trace(day)
        answer = dimutran.get("/api/tariffs/current/", {"at": trace[0].t.isoformat()}).json()
        phone, flag = _phone(answer, trace)
        server = services.recompute_trip(trace, phone)
        assert server.server_total == phone, day
        totals[day], flags[day] = phone, flag
        day += timedelta(days=1)
    assert flags[date(YEAR, 6, 29)] == Flag.II and flags[date(YEAR, 6, 22)] == Flag.I  # 29 June, municipal, vs a Saturday
    assert flags[date(YEAR, 9, 7)] == Flag.II and flags[date(YEAR, 9, 9)] == Flag.I  # national holiday vs a Monday
    assert totals[date(YEAR, 2, 26)] < totals[date(YEAR, 3, 5)]  # the new decree from 1 March
    assert len(totals) == 365
