"""Art. 45, II with a municipal calendar that ends: past its horizon no municipal holiday is guessed.

The reading (docs/readings-tariffs.md): in doubt, the consumer's favour (CDC art. 47), so a day the phone's
calendar does not cover is charged as no municipal holiday; national holidays, Sundays, hours and the 10th km
are certain and still give Bandeira II."""

from dataclasses import replace
from datetime import date, datetime

import pytest

from taxilaw.flags import DEFAULT_FLAG_PARAMS, MURIAE_TZ, Flag, flag_for, municipal_calendar_known

HORIZON = date(2027, 12, 31)
PATRON_2027 = date(2027, 6, 29)  # Tuesday: a municipal holiday the table gave
PATRON_2028 = date(2028, 6, 29)  # Thursday: past the horizon, a guess if the phone assumed it


def at(day, hour=12):
    return datetime(day.year, day.month, day.day, hour, tzinfo=MURIAE_TZ)


@pytest.mark.article("Art. 45, II")
def test_a_municipal_holiday_inside_the_horizon_is_bandeira_ii():
    d = flag_for(at(PATRON_2027), 0.0, {PATRON_2027}, municipal_until=HORIZON)
    assert d.flag == Flag.II and d.code == "holiday" and d.holiday_name == "feriado municipal"


@pytest.mark.article("Art. 45, I")
def test_past_the_horizon_a_municipal_date_is_not_guessed_bandeira_i():
    d = flag_for(at(PATRON_2028), 0.0, {PATRON_2027, PATRON_2028}, municipal_until=HORIZON)
    assert d.flag == Flag.I and d.code == "day" and d.article == "Art. 45, I"
    assert not municipal_calendar_known(PATRON_2028, HORIZON) and municipal_calendar_known(HORIZON, HORIZON)


@pytest.mark.article("Art. 45, II")
def test_past_the_horizon_what_is_certain_still_gives_bandeira_ii():
    tiradentes = date(2028, 4, 21)  # national: certain whatever the municipal calendar says
    national = flag_for(at(tiradentes), 0.0, (), municipal_until=HORIZON)
    assert national.flag == Flag.II and national.code == "holiday" and "Tiradentes" in national.holiday_name
    assert flag_for(at(date(2028, 7, 2)), municipal_until=HORIZON).code == "sunday"
    assert flag_for(at(PATRON_2028, 23), municipal_until=HORIZON).code == "night"
    assert flag_for(at(PATRON_2028), 9000.0, municipal_until=HORIZON).code == "tenth_km"


@pytest.mark.article("Art. 45, I")
def test_no_calendar_at_all_guesses_nothing():
    d = flag_for(at(PATRON_2027), 0.0, {PATRON_2027}, municipal_until=date.min)
    assert d.flag == Flag.I and d.code == "day"


@pytest.mark.article("Art. 45, II")
def test_the_server_table_has_no_horizon():
    assert municipal_calendar_known(date(2099, 1, 1), None)
    assert flag_for(at(PATRON_2028), 0.0, {PATRON_2028}).flag == Flag.II


@pytest.mark.article("Art. 45, II")
def test_the_other_reading_is_a_named_parameter():
    driver_favour = replace(DEFAULT_FLAG_PARAMS, unknown_municipal_day_is_holiday=True)
    d = flag_for(at(PATRON_2028), 0.0, (), driver_favour, municipal_until=HORIZON)
    assert d.flag == Flag.II and d.holiday_name == "feriado municipal (calendário desatualizado)"
    assert DEFAULT_FLAG_PARAMS.unknown_municipal_day_is_holiday is False  # the consumer's favour by default
