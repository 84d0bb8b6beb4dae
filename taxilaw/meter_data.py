"""The plain data of the taximeter engine (:mod:`taxilaw.meter`): a GPS fix, the meter's parameters
(dated, read from the parameter table) and its reading. No Django, Kivy or Shapely here.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from datetime import date, datetime
from decimal import Decimal
from typing import Any, Mapping, Optional

from .flags import DEFAULT_FLAG_PARAMS, Flag, FlagParams

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
