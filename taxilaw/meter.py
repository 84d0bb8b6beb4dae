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
from datetime import date, datetime, timezone
from decimal import Decimal
from typing import Any, Collection, Iterable, Mapping, Optional

from .flags import Flag, FlagDecision, TimeRegime, decide, time_regime
from .geodesy import segment_distance_m
from .meter_data import DEFAULT_METER_PARAMS, Fix, MeterParams, MeterReading
from .tariffs import Tariff


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
