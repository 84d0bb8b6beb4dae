"""The taximeter engine shared by the driver app (phone) and the server.

Fed GPS fixes, it accumulates the distance (WGS-84: the geodesic, or for a
short segment the ellipsoid's flat-earth formula within 0.1 mm of it,
:func:`taxilaw.geodesy.segment_distance_m`), charges time below the crossover speed and distance above it
(INMETRO single mode, "modo S": ``crossover = price_hour_waiting / price_km``),
switches Bandeira I/II by :mod:`taxilaw.flags` (Art. 45, I-II) and shows the
running total as a Brazilian taximeter does: the bandeirada at the start
(Art. 1, VII), then whole fractions (R$ 0,10 by default), never rounded up,
never going down.  What it shows at the end is what the passenger pays
(Art. 43, Art. 45, §5); it never adds luggage or return surcharges
(Art. 45, §1 and Art. 45, §2).

GPS noise (bad accuracy, duplicates, time going backwards, teleports) is
rejected and counted without losing the trip.  All state is plain data
(:meth:`Meter.to_dict` / :meth:`Meter.from_dict`) so the app survives a
restart mid-trip, and the server re-runs the same code on the uploaded trace
(:func:`recompute`) and compares (:func:`compare`).

No Django, Kivy or Shapely here.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace
from datetime import date, datetime, timezone
from decimal import Decimal
from typing import Any, Collection, Iterable, Mapping, Optional

from .decision import Decision, Reason
from .flags import DEFAULT_FLAG_PARAMS, Flag, FlagDecision, FlagParams, TimeRegime, decide, time_regime
from .geodesy import segment_distance_m
from .i18n import gettext_noop as _
from .tariffs import Tariff

REJECTION_CODES = ("inaccurate", "invalid_position", "before_start", "duplicate", "backwards", "teleport", "after_stop")


@dataclass(frozen=True)
class Fix:
    """One GPS fix: aware time, WGS-84 position, horizontal accuracy (m, None = unknown)."""

    t: datetime
    lat: float
    lon: float
    accuracy_m: Optional[float] = None

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.t.isoformat(), "lat": self.lat, "lon": self.lon, "accuracy_m": self.accuracy_m}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Fix":
        t = data["t"]
        return cls(t if isinstance(t, datetime) else datetime.fromisoformat(t),
                   float(data["lat"]), float(data["lon"]),
                   None if data.get("accuracy_m") is None else float(data["accuracy_m"]))


@dataclass(frozen=True)
class MeterParams:
    """Engine settings (docs/meter.md).

    ``fraction``: the meter advances in whole fractions of this value, never
    rounding up.  ``max_accuracy_m``: fixes less accurate are rejected.
    ``max_speed_kmh``: a fix implying a faster move is a teleport.
    ``min_move_m``: displacements smaller than this (from the last counted
    position) are GPS jitter: time passes, distance does not.
    ``reanchor_after``: after this many consecutive, mutually consistent
    teleport rejections the meter trusts them (the earlier anchor was the
    outlier); the jump is charged as waiting time only.
    ``accept_unknown_accuracy``: fixes without accuracy are accepted.
    """

    fraction: Decimal = Decimal("0.10")
    max_accuracy_m: float = 50.0
    max_speed_kmh: float = 180.0
    min_move_m: float = 5.0
    reanchor_after: int = 5
    accept_unknown_accuracy: bool = True
    flags: FlagParams = DEFAULT_FLAG_PARAMS

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["fraction"] = str(self.fraction)
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "MeterParams":
        d = dict(data)
        d["fraction"] = Decimal(str(d.get("fraction", "0.10")))
        d["flags"] = FlagParams(**d.get("flags", {}))
        return cls(**d)


DEFAULT_METER_PARAMS = MeterParams()


def meter_params_from_table(table: Any, on: date, base: MeterParams = DEFAULT_METER_PARAMS) -> MeterParams:
    """``base`` with the fraction read from the dated parameter table (Art. 43).

    ``table`` is a :class:`taxilaw.parameters.Parameters`; a missing
    ``meter_fraction_brl`` keeps ``base.fraction``."""
    try:
        fraction = Decimal(str(table.as_of("meter_fraction_brl", on)))
    except LookupError:
        return base
    return replace(base, fraction=fraction)


@dataclass(frozen=True)
class MeterReading:
    """What the meter shows (Art. 43): total in BRL and how it was reached."""

    total: Decimal
    distance_m: float
    waiting_s: float
    flag: Flag
    flag_reason: str
    flag_label: str
    rejected_fixes: int
    rejections: Mapping[str, int] = field(default_factory=dict)
    accepted_fixes: int = 0
    charged_m_b1: float = 0.0
    charged_m_b2: float = 0.0
    elapsed_s: float = 0.0
    running: bool = True

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["total"] = str(self.total)
        d["flag"] = int(self.flag)
        d["rejections"] = dict(self.rejections)
        return d


def _ts(t: datetime) -> float:
    if t.tzinfo is None or t.utcoffset() is None:
        raise ValueError("the meter needs aware datetimes")
    return t.timestamp()


def _dt(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, timezone.utc)


class MeterStateError(RuntimeError):
    """Feeding a meter that was not started, starting one twice, etc."""


class Meter:
    """Taximeter (Art. 1, VI) charging the decreed tariff (Art. 45, I-II, Art. 43).

    ``Meter(tariff, municipal_holidays, params)``; ``start(at)``;
    ``feed(fix) -> MeterReading``; ``reading()``; ``stop(at) -> MeterReading``.
    Never adds luggage or return surcharges (Art. 45, §1 and Art. 45, §2).
    """

    def __init__(self, tariff: Tariff, municipal_holidays: Collection[date] = (),
                 params: MeterParams = DEFAULT_METER_PARAMS):
        self.tariff = tariff
        self.municipal_holidays = frozenset(municipal_holidays)
        self.params = params
        self._p1_km = float(tariff.price_hour_waiting / tariff.price_km_b1)  # crossover km/h, Bandeira I
        self._p2_km = float(tariff.price_hour_waiting / tariff.price_km_b2)
        self._max_speed_ms = params.max_speed_kmh / 3.6
        self._max_accuracy_m = params.max_accuracy_m
        self._accept_unknown_accuracy = params.accept_unknown_accuracy
        self._min_move_m = params.min_move_m
        # Below both crossovers every piece of a segment is waiting, whatever the flag: no need to cut it.
        self._all_waiting_kmh = min(self._p1_km, self._p2_km)
        self._raw_coef = (float(tariff.bandeirada), float(tariff.price_km_b1) / 1000,
                          float(tariff.price_km_b2) / 1000, float(tariff.price_hour_waiting) / 3600)
        self._fraction_f = float(params.fraction)
        self._recheck_at = -math.inf  # float raw total below which the shown total cannot change
        self._regime: Optional[TimeRegime] = None
        self._regime_until = -math.inf
        # state (serialised)
        self.started_ts: Optional[float] = None
        self.stopped_ts: Optional[float] = None
        self.last_ts: Optional[float] = None  # time up to which the trip is charged
        self.pos: Optional[tuple[float, float]] = None  # last counted position
        self.pos_ts: Optional[float] = None  # when ``pos`` was counted
        self.distance_m = 0.0
        self.charged_m = [0.0, 0.0]  # metres charged in Bandeira I, II
        self.waiting_s = 0.0
        self.accepted = 0
        self.rejections: dict[str, int] = {}
        self.pending: list[tuple[float, float, float]] = []  # consistent teleports (ts, lat, lon)
        self.shown = Decimal(0)

    # -- lifecycle ---------------------------------------------------------------

    def start(self, at: datetime) -> MeterReading:
        """Start a trip: the bandeirada is registered at once (Art. 1, VII)."""
        if self.started_ts is not None:
            raise MeterStateError("meter already started")
        self.started_ts = self.last_ts = _ts(at)
        self.shown = self.tariff.bandeirada
        return self.reading()

    def feed(self, fix: Fix) -> MeterReading:
        """Process one GPS fix (Art. 45, I-II); a rejected fix only bumps a counter."""
        self._feed(fix)
        return self.reading()

    def feed_many(self, fixes: Iterable[Fix]) -> MeterReading:
        """Process fixes in order; same result as feeding them one by one."""
        for fix in fixes:
            self._feed(fix)
        return self.reading()

    def stop(self, at: datetime) -> MeterReading:
        """End the trip: the value shown now is the fare (Art. 43, Art. 45, §5).

        Time since the last fix is charged as waiting (the least the meter
        would have charged for it)."""
        if self.started_ts is None:
            raise MeterStateError("meter not started")
        if self.stopped_ts is None:
            last_ts = self._charged_until()
            ts = max(_ts(at), last_ts)
            if ts > last_ts:
                self._advance(last_ts, ts, 0.0)
                self.last_ts = ts
            self.stopped_ts = ts
            self._refresh_total()
        return self.reading()

    # -- processing -----------------------------------------------------------------

    def _charged_until(self) -> float:
        """The time up to which the trip is charged; set from the start on."""
        if self.last_ts is None:
            raise MeterStateError("meter not started")
        return self.last_ts

    def _reject(self, code: str) -> None:
        self.rejections[code] = self.rejections.get(code, 0) + 1

    # Complexity kept: the meter's hot path: each branch rejects one kind of bad fix (Art. 43); kept inline for speed (docs/meter.md: fixes/s).
    def _feed(self, fix: Fix) -> None:  # noqa: C901
        # The hot path of the server's recomputation: settings are read from attributes set in __init__.
        if self.started_ts is None:
            raise MeterStateError("meter not started")
        t = fix.t
        if t.tzinfo is None or t.utcoffset() is None:
            raise ValueError("the meter needs aware datetimes")
        ts = t.timestamp()
        if self.stopped_ts is not None:
            return self._reject("after_stop")
        lat, lon, acc = fix.lat, fix.lon, fix.accuracy_m
        if not (isinstance(lat, (int, float)) and isinstance(lon, (int, float))
                and -90.0 <= lat <= 90.0 and -180.0 <= lon <= 180.0):
            return self._reject("invalid_position")
        if acc is None:
            if not self._accept_unknown_accuracy:
                return self._reject("inaccurate")
        elif not (0.0 <= acc <= self._max_accuracy_m):  # also catches NaN
            return self._reject("inaccurate")
        if ts < self.started_ts:
            return self._reject("before_start")
        pos, last_ts = self.pos, self._charged_until()
        if pos is None:  # first usable fix: anchor; time since start is waiting
            self._advance(last_ts, ts, 0.0)
            self._anchor(ts, lat, lon)
            return None
        if ts == last_ts:
            return self._reject("duplicate")
        if ts < last_ts:
            return self._reject("backwards")
        d = segment_distance_m(pos[0], pos[1], lat, lon)
        span = ts - (self.pos_ts if self.pos_ts is not None else last_ts)
        if d > self._max_speed_ms * span:
            self._reject("teleport")
            self._consider_reanchor(ts, lat, lon)
            return None
        if self.pending:
            self.pending.clear()
        if d < self._min_move_m:  # jitter: time passes, position stays
            self._advance(last_ts, ts, 0.0, speed_ms=0.0)
            self.last_ts = ts
            self.accepted += 1
            self._refresh_total()
            return None
        self._advance(last_ts, ts, d, speed_ms=d / span)
        self._anchor(ts, lat, lon)
        return None

    def _anchor(self, ts: float, lat: float, lon: float) -> None:
        self.last_ts = ts
        self.pos = (lat, lon)
        self.pos_ts = ts
        self.accepted += 1
        self._refresh_total()

    def _consider_reanchor(self, ts: float, lat: float, lon: float) -> None:
        if self.pending:
            pts, plat, plon = self.pending[-1]
            ok = ts > pts and segment_distance_m(plat, plon, lat, lon) <= self._max_speed_ms * (ts - pts)
            if not ok:
                self.pending.clear()
        self.pending.append((ts, lat, lon))
        if len(self.pending) >= self.params.reanchor_after:
            self.pending.clear()
            # the jump is charged as waiting time only: a lower bound of the fare
            self._advance(self._charged_until(), ts, 0.0, speed_ms=0.0)
            self.rejections["reanchor"] = self.rejections.get("reanchor", 0) + 1
            self._anchor(ts, lat, lon)

    def _time_regime(self, ts: float) -> TimeRegime:
        if self._regime is None or ts >= self._regime_until:
            fp = self.params.flags
            when = ts if fp.switch_at_instant or self.started_ts is None else self.started_ts
            regime = time_regime(_dt(when), self.municipal_holidays, fp)
            self._regime = regime
            until = regime.until.timestamp() if fp.switch_at_instant else math.inf
            self._regime_until = until if until > ts else ts + 1e-6
        return self._regime

    # Complexity kept: the meter's hot path: charging by distance or time across a flag change (Art. 43, 45), inline for speed.
    def _advance(self, t0: float, t1: float, dd: float, speed_ms: Optional[float] = None) -> None:  # noqa: C901
        """Charge a move of ``dd`` metres during [t0, t1] (Art. 45, I-II).

        Single mode: below the crossover speed of the flag in force the time
        is charged, above it the distance.  The segment is cut where the flag
        changes: at local 00:00/06:00/22:00 and where the 10th kilometre
        begins (moving at constant speed inside the segment)."""
        left_t, left_d = t1 - t0, dd
        if left_t <= 0 and left_d <= 0:
            return
        if speed_ms is None:
            speed_ms = left_d / left_t if left_t > 0 else 0.0
        kmh = speed_ms * 3.6
        if kmh < self._all_waiting_kmh:  # waiting under either flag: one interval, however long
            self.waiting_s += left_t
            self.distance_m += left_d
            return
        threshold = self.params.flags.tenth_km_from_m
        cur = t0
        while True:
            regime = self._time_regime(cur)
            second = regime.flag == Flag.II or self.distance_m >= threshold
            frac, crosses_10th = 1.0, False
            if left_t > 0 and self._regime_until < cur + left_t:
                frac = (self._regime_until - cur) / left_t
            if not second and left_d > 0 and self.distance_m + left_d >= threshold:
                f10 = (threshold - self.distance_m) / left_d
                if f10 < frac:
                    frac, crosses_10th = f10, True
            last = frac >= 1.0
            piece_t, piece_d = (left_t, left_d) if last else (left_t * frac, left_d * frac)
            if kmh < (self._p2_km if second else self._p1_km):
                self.waiting_s += piece_t
            else:
                self.charged_m[1 if second else 0] += piece_d
            self.distance_m += piece_d
            if last:
                return
            if crosses_10th and self.distance_m < threshold:
                self.distance_m = threshold  # float safety: the 10th km has begun
            cur += piece_t
            left_t -= piece_t
            left_d = max(left_d - piece_d, 0.0)

    def _raw_total(self) -> Decimal:
        t = self.tariff
        return (t.bandeirada
                + Decimal(self.charged_m[0]) * t.price_km_b1 / 1000
                + Decimal(self.charged_m[1]) * t.price_km_b2 / 1000
                + Decimal(self.waiting_s) * t.price_hour_waiting / 3600)

    def _refresh_total(self) -> None:
        # The fare is Decimal (Art. 43), but most fixes cannot reach the next fraction: a float estimate of
        # the raw total screens them out, and gives the number of whole fractions when it is not within a
        # margin (far above float error) of a step; only there does the exact Decimal computation run.
        b, k1, k2, kw = self._raw_coef
        raw = b + self.charged_m[0] * k1 + self.charged_m[1] * k2 + self.waiting_s * kw
        if raw < self._recheck_at:
            return
        frac = self.params.fraction
        margin = 1e-6 + 1e-12 * raw
        steps_f = (raw - b) / self._fraction_f
        whole = math.floor(steps_f)
        if margin < steps_f - whole < 1.0 - margin:
            steps = Decimal(whole)
        else:
            steps = (self._raw_total() - self.tariff.bandeirada) // frac
        value = (self.tariff.bandeirada + steps * frac).quantize(Decimal("0.01"))
        if value > self.shown:
            self.shown = value
        self._recheck_at = b + float(steps + 1) * self._fraction_f - margin

    # -- reading ------------------------------------------------------------------------

    def current_flag(self) -> FlagDecision:
        """Flag now, with its reason (Art. 45, I and Art. 45, II)."""
        ts = self.last_ts if self.last_ts is not None else None
        if ts is None:
            raise MeterStateError("meter not started")
        return decide(self._time_regime(ts), self.distance_m, self.params.flags)

    def reading(self) -> MeterReading:
        """What the meter shows now (Art. 43)."""
        if self.started_ts is None:
            raise MeterStateError("meter not started")
        flag = self.current_flag()
        return MeterReading(
            total=self.shown,
            distance_m=self.distance_m,
            waiting_s=self.waiting_s,
            flag=flag.flag,
            flag_reason=flag.code,
            flag_label=flag.label,
            rejected_fixes=sum(v for k, v in self.rejections.items() if k != "reanchor"),
            rejections=dict(self.rejections),
            accepted_fixes=self.accepted,
            charged_m_b1=self.charged_m[0],
            charged_m_b2=self.charged_m[1],
            elapsed_s=self._charged_until() - self.started_ts,
            running=self.stopped_ts is None,
        )

    # -- persistence --------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe state; floats round-trip exactly through JSON."""
        return {
            "version": 1,
            "tariff": self.tariff.to_dict(),
            "municipal_holidays": sorted(d.isoformat() for d in self.municipal_holidays),
            "params": self.params.to_dict(),
            "started_ts": self.started_ts,
            "stopped_ts": self.stopped_ts,
            "last_ts": self.last_ts,
            "pos": list(self.pos) if self.pos is not None else None,
            "pos_ts": self.pos_ts,
            "distance_m": self.distance_m,
            "charged_m": list(self.charged_m),
            "waiting_s": self.waiting_s,
            "accepted": self.accepted,
            "rejections": dict(self.rejections),
            "pending": [list(p) for p in self.pending],
            "shown": str(self.shown),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Meter":
        meter = cls(Tariff.from_dict(data["tariff"]),
                    [date.fromisoformat(d) for d in data.get("municipal_holidays", ())],
                    MeterParams.from_dict(data.get("params", {})))
        meter.started_ts = data["started_ts"]
        meter.stopped_ts = data["stopped_ts"]
        meter.last_ts = data["last_ts"]
        meter.pos = tuple(data["pos"]) if data.get("pos") is not None else None
        meter.pos_ts = data["pos_ts"]
        meter.distance_m = data["distance_m"]
        meter.charged_m = list(data["charged_m"])
        meter.waiting_s = data["waiting_s"]
        meter.accepted = data["accepted"]
        meter.rejections = dict(data["rejections"])
        meter.pending = [tuple(p) for p in data.get("pending", ())]
        meter.shown = Decimal(data["shown"])
        return meter


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
