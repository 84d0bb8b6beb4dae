"""The fare estimate a passenger sees before asking for a taxi (a courtesy, not a price).

What the passenger pays is what the meter shows at the end (Art. 43, Art. 45, §5);
this only forecasts it from the tariff in force when the ride is asked for
(Art. 45), the flag of that instant (Bandeira I/II by hour, Sunday and holiday,
Art. 45, I-II; the 10th km switches to Bandeira II as the meter does) and the road
distance, guessed as the straight line times a detour factor.  The factor is a
dated parameter pair (``fare_estimate_detour_low``/``_high``), so the answer is a
range; docs/fare-estimate.md gives its measured accuracy.  Waiting time is not
forecast (a trip without traffic charges none).

No Django here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import ROUND_FLOOR, Decimal
from typing import Collection

from .flags import DEFAULT_FLAG_PARAMS, Flag, FlagDecision, FlagParams, decide, time_regime
from .geodesy import distance_m
from .tariffs import Tariff

ARTICLES = ("Art. 43", "Art. 45")


@dataclass(frozen=True)
class DetourFactors:
    """Road distance / straight-line distance: the low and high ends of the range."""

    low: Decimal
    high: Decimal

    def __post_init__(self) -> None:
        if not Decimal("1") <= self.low <= self.high:
            raise ValueError("detour factors must satisfy 1 <= low <= high")


DEFAULT_DETOUR = DetourFactors(Decimal("1.20"), Decimal("1.55"))


@dataclass(frozen=True)
class FareEstimate:
    """A range of meter totals (BRL) and what it assumed."""

    low: Decimal
    high: Decimal
    straight_m: float
    low_m: float
    high_m: float
    flag: FlagDecision  # the flag at the start of the ride (before the 10th km)
    tariff: Tariff
    articles: tuple[str, ...] = ARTICLES

    def to_dict(self) -> dict:
        return {
            "low": str(self.low), "high": str(self.high),
            "straight_m": round(self.straight_m), "low_m": round(self.low_m), "high_m": round(self.high_m),
            "flag": int(self.flag.flag), "flag_reason": self.flag.code, "flag_label": self.flag.label,
            "holiday_name": self.flag.holiday_name,
            "tariff_decree": self.tariff.decree, "articles": list(self.articles),
        }


def detour_from_table(table, on: date, base: DetourFactors = DEFAULT_DETOUR) -> DetourFactors:
    """The factors in force on ``on`` from a :class:`taxilaw.parameters.Parameters`; missing ones keep ``base``."""
    def read(name: str, default: Decimal) -> Decimal:
        try:
            return Decimal(str(table.as_of(name, on)))
        except LookupError:
            return default
    return DetourFactors(read("fare_estimate_detour_low", base.low), read("fare_estimate_detour_high", base.high))


def meter_total_for(tariff: Tariff, start_flag: Flag, road_m: float, *, fraction: Decimal = Decimal("0.10"),
                    flags: FlagParams = DEFAULT_FLAG_PARAMS) -> Decimal:
    """What the meter would show after ``road_m`` metres without waiting (Art. 43, Art. 45, I-II).

    Bandeira I charges until the 10th km begins, then Bandeira II (Art. 45, II); a
    trip that starts in Bandeira II is charged in it throughout.  Shown as the meter
    shows it: the bandeirada plus whole fractions, never rounded up (Art. 1, VII)."""
    b1_m = 0.0 if start_flag == Flag.II else min(road_m, flags.tenth_km_from_m)
    b2_m = road_m - b1_m
    raw = Decimal(b1_m) * tariff.price_km_b1 / 1000 + Decimal(b2_m) * tariff.price_km_b2 / 1000
    steps = (raw / fraction).to_integral_value(rounding=ROUND_FLOOR)
    return (tariff.bandeirada + steps * fraction).quantize(Decimal("0.01"))


def estimate_fare(tariff: Tariff, at: datetime, origin: tuple[float, float], destination: tuple[float, float], *,
                  detour: DetourFactors = DEFAULT_DETOUR, municipal_holidays: Collection[date] = (),
                  fraction: Decimal = Decimal("0.10"), flags: FlagParams = DEFAULT_FLAG_PARAMS) -> FareEstimate:
    """The range of fares for a ride asked for at ``at`` (aware) from ``origin`` to ``destination`` (lat, lon).

    ``tariff`` must be the one in force at ``at`` (Art. 45); the flag is the one of
    that instant in Muriaé's time (Art. 45, I-II)."""
    straight = distance_m(origin[0], origin[1], destination[0], destination[1])
    flag = decide(time_regime(at, municipal_holidays, flags), 0.0, flags)
    low_m, high_m = straight * float(detour.low), straight * float(detour.high)
    return FareEstimate(
        low=meter_total_for(tariff, flag.flag, low_m, fraction=fraction, flags=flags),
        high=meter_total_for(tariff, flag.flag, high_m, fraction=fraction, flags=flags),
        straight_m=straight, low_m=low_m, high_m=high_m, flag=flag, tariff=tariff,
    )
