"""The phone's municipal calendar has a horizon (Art. 45, II; docs/readings-tariffs.md): the server says which period
its holidays cover, the phone keeps it, asks again at login and each new day, and past it guesses no municipal
holiday (Bandeira I unless something certain says II) and tells the driver."""

from datetime import date, datetime, timedelta

import pytest

from driver_app.clients import FakeClock, FakeTariffs
from driver_app.session import build_session
from taxilaw.flags import MURIAE_TZ, Flag
from taxilaw.tariffs import MURIAE_DEMO_TARIFF

PATRON_2026 = date(2026, 6, 29)  # Monday: São Paulo Apóstolo, in the seed and in DIMUTRAN's table
PATRON_2028 = date(2028, 6, 29)  # Thursday: past the horizon below
ANSWER = {"holidays": [PATRON_2026.isoformat(), PATRON_2028.isoformat()], "holidays_from": "2025-01-01",
          "holidays_until": "2027-12-31"}
NOTICE = "Calendário de feriados municipais desatualizado"


def noon(day):
    return datetime(day.year, day.month, day.day, 12, tzinfo=MURIAE_TZ)


class CountingTariffs(FakeTariffs):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.calls = 0

    def current(self, token):
        self.calls += 1
        return super().current(token)


def session(tmp_path, clock):
    s = build_session(tmp_path / "app", demo=True, clock=clock)
    s.login.login("demo", "demo")
    s.after_login()
    s.tariffs = CountingTariffs(tariff=MURIAE_DEMO_TARIFF.to_dict(), meter=dict(ANSWER))
    s.load_tariff()
    return s


@pytest.mark.article("Art. 45, II")
def test_before_the_server_answers_the_phone_guesses_no_municipal_holiday(tmp_path):
    clock = FakeClock(noon(PATRON_2026))
    s = build_session(tmp_path / "app", api="http://127.0.0.1:9", clock=clock)
    assert s.flag.municipal_holidays == frozenset() and s.meter.municipal_holidays == frozenset()
    d = s.flag.flag_now()
    assert d.flag == Flag.I and d.code == "day"  # the seed's 29 June is not assumed
    assert s.flag.calendar_notice.startswith(NOTICE)


@pytest.mark.article("Art. 45, II")
def test_the_servers_calendar_applies_inside_its_horizon_and_is_kept_offline(tmp_path):
    clock = FakeClock(noon(PATRON_2026))
    s = session(tmp_path, clock)
    assert s.flag.municipal_until == date(2027, 12, 31)
    assert s.flag.municipal_holidays == {PATRON_2026} == s.meter.municipal_holidays  # 2028 is past the horizon
    assert s.flag.flag_now().flag == Flag.II and s.flag.calendar_notice == ""
    s.flag.go_free()
    assert s.flag.reason == "Corrida agora: Bandeira II (feriado: feriado municipal)"
    s.tariffs.online = False
    s.load_tariff()  # offline: the cached answer, horizon included
    assert s.flag.municipal_until == date(2027, 12, 31) and s.store.load("tariff")["meter"]["holidays_until"] == "2027-12-31"


@pytest.mark.article("Art. 45, I")
def test_past_the_horizon_the_flag_is_what_is_certain_and_the_driver_is_told(tmp_path):
    clock = FakeClock(noon(PATRON_2026))
    s = session(tmp_path, clock)
    s.tariffs.online = False  # no new answer: the horizon does not move
    clock.now = noon(PATRON_2028)
    assert s.flag.flag_now().flag == Flag.I
    s.flag.go_free()
    assert s.flag.reason.startswith("Corrida agora: Bandeira I (") and NOTICE in s.flag.reason
    clock.now = noon(date(2028, 4, 21))  # Tiradentes, national: certain
    assert s.flag.flag_now().flag == Flag.II and "Tiradentes" in s.flag.reason


def test_the_calendar_is_asked_again_each_new_day_but_not_during_a_trip(tmp_path):
    clock = FakeClock(noon(PATRON_2026))
    s = session(tmp_path, clock)
    assert s.tariffs.calls == 1
    s.tick()
    assert s.tariffs.calls == 1  # same day: nothing asked
    assert s.start_trip()
    clock.now += timedelta(days=1)
    s.tick()
    assert s.tariffs.calls == 1  # the running trip keeps its own
    s.stop_trip()
    s.tick()
    s.tick()
    assert s.tariffs.calls == 2 and s.tariff_asked_on == date(2026, 6, 30)
