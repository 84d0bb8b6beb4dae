"""Bandeira I / Bandeira II (Art. 45, I and II), in Muriaé's local time.

Art. 45, I: Bandeira I "nos dias úteis, das 06:00 às 22:00 horas".
Art. 45, II: Bandeira II "nos dias úteis, no horário das 22:00 às 06:00 horas
ou a partir do 10º quilômetro ou nos domingos e feriados nacionais e
municipais, em qualquer horário".

Readings (docs/readings-tariffs.md) are the named fields of
:class:`FlagParams`.  Every answer carries the reason code and a short pt-BR
label the driver app shows ("feriado", "domingo", "22:00–06:00", "10º km").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone, tzinfo
from enum import IntEnum
from functools import lru_cache
from typing import Collection, Iterable, Mapping, Optional

from .i18n import gettext_noop as _

try:  # the phone may lack the tz database; Brazil has no DST since 2019
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        MURIAE_TZ: tzinfo = ZoneInfo("America/Sao_Paulo")
    except ZoneInfoNotFoundError:  # pragma: no cover - depends on the device
        MURIAE_TZ = timezone(timedelta(hours=-3), "BRT")
except ImportError:  # pragma: no cover
    MURIAE_TZ = timezone(timedelta(hours=-3), "BRT")


class Flag(IntEnum):
    """The meter's tariff regime (Art. 1, VIII)."""

    I = 1  # noqa: E741 - the law's own name
    II = 2


@dataclass(frozen=True)
class FlagParams:
    """Readings of Art. 45, II (docs/readings-tariffs.md).

    ``tenth_km_from_m``: "a partir do 10º quilômetro" -- the 10th kilometre
    begins when 9 000 m have been run, so Bandeira II applies from 9 000 m on
    (not retroactively).  ``switch_at_instant``: a trip crossing 22:00 or
    06:00 (or midnight into a Sunday/holiday) changes flag at that instant;
    ``False`` keeps the time-based flag of the trip's start for the whole trip
    (the 10th km still switches).  ``include_state_holidays``: MG state
    holidays are not "feriados nacionais e municipais" (False).
    ``saturday_is_working_day``: Saturday is a "dia útil" (True).
    ``unknown_municipal_day_is_holiday``: a day past the municipal calendar's horizon (the last day DIMUTRAN's
    table was answered for) may or may not be a municipal holiday; False charges it as no municipal holiday, so
    only what is certain (national holidays, Sundays, hours, the 10th km) can raise Bandeira II: in doubt, the
    consumer's favour (CDC, Lei 8.078/1990, art. 47).
    """

    tenth_km_from_m: float = 9000.0
    switch_at_instant: bool = True
    include_state_holidays: bool = False
    saturday_is_working_day: bool = True
    unknown_municipal_day_is_holiday: bool = False


DEFAULT_FLAG_PARAMS = FlagParams()


@dataclass(frozen=True)
class FlagReason:
    code: str
    label: str
    article: str


FLAG_REASONS: Mapping[str, FlagReason] = {
    "day": FlagReason("day", _("dia útil, 06:00–22:00"), "Art. 45, I"),
    "night": FlagReason("night", _("22:00–06:00"), "Art. 45, II"),
    "tenth_km": FlagReason("tenth_km", _("10º km"), "Art. 45, II"),
    "sunday": FlagReason("sunday", _("domingo"), "Art. 45, II"),
    "holiday": FlagReason("holiday", _("feriado"), "Art. 45, II"),
    "saturday": FlagReason("saturday", _("sábado (não útil)"), "Art. 45, II"),
}


@dataclass(frozen=True)
class FlagDecision:
    """The flag, why (code, pt-BR label, article) and the holiday's name if any."""

    flag: Flag
    code: str
    label: str
    article: str
    holiday_name: str = ""


@dataclass(frozen=True)
class TimeRegime:
    """The time-based part of the flag and the instant it may next change."""

    flag: Flag
    code: str
    until: datetime
    holiday_name: str = ""


# Seed of Muriaé's municipal holidays (month, day, name, source).  The backend
# keeps a dated table of actual dates; this is only the seed (to be confirmed
# against the municipal laws: see docs/readings-tariffs.md).
MURIAE_MUNICIPAL_HOLIDAYS_SEED: tuple[tuple[int, int, str, str], ...] = (
    (6, 29, _("São Paulo Apóstolo, padroeiro de Muriaé"), "seed: confirm against the municipal holiday law"),
)


def municipal_holiday_dates(years: Iterable[int],
                            seed: Iterable[tuple[int, int, str, str]] = MURIAE_MUNICIPAL_HOLIDAYS_SEED) -> frozenset[date]:
    """Dates of the recurring municipal holidays of ``seed`` in ``years`` (Art. 45, II)."""
    return frozenset(date(y, m, d) for y in years for (m, d, _n, _s) in seed)


def holiday_dates(years: Iterable[int], one_off: Iterable[date] = (), recurring: Iterable[tuple[int, int, int]] = ()) -> frozenset[date]:
    """Municipal holidays in ``years`` (Art. 45, II): the one-off dates of the table plus every
    ``(month, day, since_year)`` that recurs each year from ``since_year`` on. Generated for whatever
    years are asked, never seeded for a fixed horizon."""
    years = tuple(years)
    wanted = set(years)
    return frozenset({d for d in one_off if d.year in wanted}
                     | {date(y, m, d) for (m, d, since) in recurring for y in years if y >= since})


def local_time(at: datetime) -> datetime:
    """``at`` (aware) in America/Sao_Paulo; naive datetimes are refused."""
    if at.tzinfo is None or at.utcoffset() is None:
        raise ValueError("flag rules need an aware datetime")
    return at.astimezone(MURIAE_TZ)


@lru_cache(maxsize=64)
def _national(year: int, state: bool) -> Mapping[date, str]:
    import holidays

    kwargs = {"subdiv": "MG"} if state else {}
    try:
        cal = holidays.Brazil(years=year, language="pt_BR", **kwargs)
    except Exception:  # pragma: no cover - older holidays without pt_BR
        cal = holidays.Brazil(years=year, **kwargs)
    return dict(cal.items())


def holiday_name(day: date, municipal_holidays: Collection[date] = (),
                 params: FlagParams = DEFAULT_FLAG_PARAMS) -> Optional[str]:
    """Name of the national (or municipal) holiday on ``day``, or None (Art. 45, II)."""
    name = _national(day.year, params.include_state_holidays).get(day)
    if name:
        return name
    if day in municipal_holidays:
        return _("feriado municipal")
    return None


def municipal_calendar_known(day: date, municipal_until: Optional[date]) -> bool:
    """Does the municipal calendar the caller holds cover ``day`` (Art. 45, II)? ``municipal_until`` is its
    horizon: the last day DIMUTRAN's table was answered for; ``None`` means the table itself (the server)."""
    return municipal_until is None or day <= municipal_until


def _day_kind(day: date, municipal_holidays: Collection[date], params: FlagParams,
              municipal_until: Optional[date] = None) -> tuple[Optional[str], str]:
    """(``holiday``/``sunday``/``saturday`` or None for a working day, holiday name). Past the municipal
    calendar's horizon no municipal date is guessed: the reading ``unknown_municipal_day_is_holiday`` decides."""
    if not municipal_calendar_known(day, municipal_until):
        municipal_holidays = ()
        if params.unknown_municipal_day_is_holiday and not _national(day.year, params.include_state_holidays).get(day):
            return "holiday", _("feriado municipal (calendário desatualizado)")
    name = holiday_name(day, municipal_holidays, params)
    if name:
        return "holiday", name
    weekday = day.weekday()
    if weekday == 6:
        return "sunday", ""
    if weekday == 5 and not params.saturday_is_working_day:
        return "saturday", ""
    return None, ""


def time_regime(at: datetime, municipal_holidays: Collection[date] = (),
                params: FlagParams = DEFAULT_FLAG_PARAMS, municipal_until: Optional[date] = None) -> TimeRegime:
    """Time-based flag at ``at`` (Art. 45, I and Art. 45, II) and when it may change.

    Sundays and national/municipal holidays are Bandeira II from 00:00 to
    24:00; on working days (Saturday included) Bandeira I runs from 06:00
    (inclusive) to 22:00 (exclusive), Bandeira II from 22:00 to 06:00.
    ``until`` is the next local 00:00, 06:00 or 22:00 after ``at``. ``municipal_until``: the horizon of the
    caller's municipal calendar (the phone's; :func:`municipal_calendar_known`).
    """
    local = local_time(at)
    day = local.date()
    kind, name = _day_kind(day, municipal_holidays, params, municipal_until)
    clock = local.time()
    if clock < time(6):
        nxt = datetime.combine(day, time(6), MURIAE_TZ)
    elif clock < time(22):
        nxt = datetime.combine(day, time(22), MURIAE_TZ)
    else:
        nxt = datetime.combine(day + timedelta(days=1), time(0), MURIAE_TZ)
    if kind is not None:
        return TimeRegime(Flag.II, kind, nxt, name)
    if time(6) <= clock < time(22):
        return TimeRegime(Flag.I, "day", nxt)
    return TimeRegime(Flag.II, "night", nxt)


def decide(regime: TimeRegime, distance_m: float, params: FlagParams = DEFAULT_FLAG_PARAMS) -> FlagDecision:
    """Combine a time regime with the distance rule "a partir do 10º quilômetro" (Art. 45, II)."""
    if regime.flag == Flag.II:
        reason = FLAG_REASONS[regime.code]
        return FlagDecision(Flag.II, reason.code, reason.label, reason.article, regime.holiday_name)
    if distance_m >= params.tenth_km_from_m:
        reason = FLAG_REASONS["tenth_km"]
        return FlagDecision(Flag.II, reason.code, reason.label, reason.article)
    reason = FLAG_REASONS["day"]
    return FlagDecision(Flag.I, reason.code, reason.label, reason.article)


def flag_for(at: datetime, distance_m: float = 0.0, municipal_holidays: Collection[date] = (),
             params: FlagParams = DEFAULT_FLAG_PARAMS, *, trip_started_at: Optional[datetime] = None,
             municipal_until: Optional[date] = None) -> FlagDecision:
    """The flag due at instant ``at`` after ``distance_m`` of trip (Art. 45, I and Art. 45, II).

    Precedence of the reason shown when several apply: feriado, domingo,
    22:00–06:00, 10º km.  With ``params.switch_at_instant`` False and
    ``trip_started_at`` given, the time-based part is frozen at the start. Past ``municipal_until`` (the
    phone's calendar horizon) no municipal holiday is assumed (:class:`FlagParams`).
    """
    when = at
    if not params.switch_at_instant and trip_started_at is not None:
        when = trip_started_at
    return decide(time_regime(when, municipal_holidays, params, municipal_until), distance_m, params)
