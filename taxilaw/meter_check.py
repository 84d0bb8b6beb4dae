"""The server's check of a trip: re-running the meter on the uploaded trace (:func:`recompute`), the trip's
size, and comparing the phone's total with the server's (Art. 43, Art. 45, §5), holding the fare when they
disagree. No Django, Kivy or Shapely here.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Collection, Iterable, Optional

from .decision import Decision, Reason
from .i18n import gettext_noop as _
from .meter import Meter, _dt
from .meter_data import DEFAULT_METER_PARAMS, Fix, MeterParams, MeterReading
from .tariffs import Tariff


def recompute(trace: Iterable[Fix], tariff: Tariff, municipal_holidays: Collection[date] = (),
              params: MeterParams = DEFAULT_METER_PARAMS, *, started_at: Optional[datetime] = None,
              stopped_at: Optional[datetime] = None) -> MeterReading:
    """Server side: run the same meter over an uploaded trace (Art. 43).

    Start defaults to the first fix's time, stop to the last fix's time."""
    fixes = list(trace)
    if started_at is None:
        if not fixes:
            raise ValueError("empty trace and no start")
        started_at = min(f.t for f in fixes)
    meter = Meter(tariff, municipal_holidays, params)
    meter.start(started_at)
    meter.feed_many(fixes)
    if stopped_at is None:
        stopped_at = _dt(meter._charged_until())
    return meter.stop(stopped_at)


def trip_span(trace: Collection[Fix], started_at: Optional[datetime] = None,
              stopped_at: Optional[datetime] = None) -> tuple[datetime, datetime]:
    """The interval :func:`recompute` charges: from the start (default: the first fix) to the latest of the
    stop and the fixes (a later fix is charged before the meter stops)."""
    times = [f.t for f in trace]
    start = started_at if started_at is not None else min(times)
    return start, max([start, *times, *([stopped_at] if stopped_at is not None else [])])


def check_trip_size(trace: Collection[Fix], started_at: Optional[datetime], stopped_at: Optional[datetime],
                    *, max_hours: int, max_fixes: int) -> tuple[Decision, str]:
    """May the server recompute this trip (Art. 43)? Its work is bounded by the dated parameters
    ``meter_max_trace_fixes`` and ``meter_max_trip_hours`` (docs/readings-tariffs.md).

    Returns the decision and the field it is about (``trace`` or ``stopped_at``)."""
    if len(trace) > max_fixes:
        return Decision.refuse(Reason("Art. 43", "trace_too_long",
                                      _("O trajeto tem {count} pontos; o máximo é {max_fixes}."),
                                      {"count": len(trace), "max_fixes": max_fixes})), "trace"
    if not trace and started_at is None:
        return Decision.allow("Art. 43"), "trace"
    start, end = trip_span(trace, started_at, stopped_at)
    if (end - start).total_seconds() > max_hours * 3600:
        return Decision.refuse(Reason("Art. 43", "trip_too_long",
                                      _("A corrida duraria mais de {max_hours} horas, do início ao fim ou ao último "
                                        "ponto do trajeto; confira o relógio do aparelho."),
                                      {"max_hours": max_hours})), "stopped_at"
    return Decision.allow("Art. 43"), "stopped_at"


def compare(phone_total: Decimal, server_total: Decimal, tolerance: Decimal = Decimal("0.50")) -> Decision:
    """Does the phone's fare agree with the server's recomputation? (Art. 43, Art. 45, §5).

    Allowed within ``tolerance`` (BRL, inclusive).  Otherwise refused with
    ``meter_overcharge`` (the phone shows more) or ``meter_undercharge``.
    """
    phone, server, tol = Decimal(str(phone_total)), Decimal(str(server_total)), Decimal(str(tolerance))
    diff = phone - server
    if abs(diff) <= tol:
        return Decision.allow("Art. 43", "Art. 45, §5")
    code = "meter_overcharge" if diff > 0 else "meter_undercharge"
    template = (_("O taxímetro do aplicativo registrou R$ {phone}, R$ {diff} acima do recálculo do servidor (R$ {server}).")
                if diff > 0 else
                _("O taxímetro do aplicativo registrou R$ {phone}, R$ {diff} abaixo do recálculo do servidor (R$ {server})."))
    return Decision.refuse(Reason("Art. 43", code, template,
                                  {"phone": str(phone), "server": str(server), "diff": str(abs(diff)),
                                   "tolerance": str(tol)}), articles=("Art. 45, §5",))


def fare_hold(phone_total: Decimal, server_total: Decimal, *, ratio: Decimal, tolerance: Decimal) -> Decision:
    """May the meter's total enter a weekly statement at once, or must DIMUTRAN review it first? (Art. 43, Art. 45, §5).

    Art. 43 makes the meter's total the fare, so a disagreement alone is only recorded. But a total beyond
    ``server_total`` × ``ratio`` + ``tolerance`` (dated parameters ``meter_hold_ratio`` and
    ``meter_compare_tolerance_brl``; docs/readings-tariffs.md) is implausible for the trace the phone sent:
    it is held (refused here with ``fare_held``) until DIMUTRAN releases it. An undercharge is never held.
    """
    phone, server = Decimal(str(phone_total)), Decimal(str(server_total))
    bound = server * Decimal(str(ratio)) + Decimal(str(tolerance))
    if phone <= bound:
        return Decision.allow("Art. 43")
    return Decision.refuse(Reason(
        "Art. 43", "fare_held",
        _("O total do taxímetro (R$ {phone}) passa de {ratio} vezes o recálculo do servidor (R$ {server}) "
          "mais a tolerância; a corrida fica retida para conferência da DIMUTRAN e só entra no extrato depois."),
        {"phone": str(phone), "server": str(server), "ratio": str(ratio)}), articles=("Art. 45, §5",))
