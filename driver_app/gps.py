"""Where the meter's fixes come from.

:class:`PlyerGps` on Android (``plyer.gps``), :class:`ReplayGps` on the
desktop and in tests (a recorded or generated trace replayed one point per
``step``).  Both stamp each fix with the app's clock and call ``on_fix``.
"""

from __future__ import annotations

import json
import math
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterable, Optional, Protocol, Sequence

from taxilaw.meter_data import Fix

FixCallback = Callable[[Fix], None]
Clock = Callable[[], datetime]

MURIAE_CENTRE = (-21.131, -42.366)


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class GpsSource(Protocol):
    def start(self, on_fix: FixCallback) -> None: ...

    def stop(self) -> None: ...


class ReplayGps:
    """Replays ``points`` (lat, lon, accuracy_m) -- one per :meth:`step`, stamped by ``clock``."""

    def __init__(self, points: Sequence[tuple[float, float, Optional[float]]], clock: Clock = utcnow,
                 loop: bool = False):
        self.points = list(points)
        self.clock = clock
        self.loop = loop
        self.index = 0
        self.on_fix: Optional[FixCallback] = None

    def start(self, on_fix: FixCallback) -> None:
        self.on_fix = on_fix

    def stop(self) -> None:
        self.on_fix = None

    @property
    def running(self) -> bool:
        return self.on_fix is not None

    def step(self) -> Optional[Fix]:
        if self.on_fix is None or not self.points:
            return None
        if self.index >= len(self.points):
            if not self.loop:
                return None
            self.index = 0
        lat, lon, acc = self.points[self.index]
        self.index += 1
        fix = Fix(self.clock(), lat, lon, acc)
        self.on_fix(fix)
        return fix


class PlyerGps:  # pragma: no cover - needs a phone
    """``plyer.gps`` behind the same facade (Android asks ACCESS_FINE_LOCATION first)."""

    def __init__(self, clock: Clock = utcnow, min_time_ms: int = 1000,
                 post: Optional[Callable[[Callable[[], None]], None]] = None):
        self.clock = clock
        self.min_time_ms = min_time_ms
        self.post = post if post is not None else (lambda fn: fn())  # plyer calls back on Android's thread: the fix goes to the UI thread
        self.on_fix: Optional[FixCallback] = None
        self._configured = False

    def _on_location(self, **kw) -> None:
        if self.on_fix is None:
            return
        acc = kw.get("accuracy")
        fix = Fix(self.clock(), float(kw["lat"]), float(kw["lon"]), None if acc is None else float(acc))
        self.post(lambda: self.on_fix(fix) if self.on_fix is not None else None)

    def start(self, on_fix: FixCallback) -> None:
        from plyer import gps

        try:  # Android 6+: ask at run time (buildozer.spec declares the permissions)
            from android.permissions import Permission, request_permissions

            request_permissions([Permission.ACCESS_FINE_LOCATION, Permission.ACCESS_COARSE_LOCATION])
        except ImportError:
            pass
        self.on_fix = on_fix
        if not self._configured:
            gps.configure(on_location=self._on_location)
            self._configured = True
        gps.start(minTime=self.min_time_ms, minDistance=0)

    def stop(self) -> None:
        from plyer import gps

        self.on_fix = None
        gps.stop()


class SharedGps:
    """One GPS for several listeners (the meter, the position reporter): each takes a :meth:`channel`,
    a :class:`GpsSource` of its own; the device runs while any channel listens."""

    def __init__(self, source: GpsSource):
        self.source = source
        self._listeners: dict[int, FixCallback] = {}
        self._running = False

    def channel(self) -> "GpsChannel":
        return GpsChannel(self)

    def _fan_out(self, fix: Fix) -> None:
        for listener in list(self._listeners.values()):
            listener(fix)

    def _update(self) -> None:
        if self._listeners and not self._running:
            self.source.start(self._fan_out)
            self._running = True
        elif not self._listeners and self._running:
            self.source.stop()
            self._running = False

    @property
    def running(self) -> bool:
        return self._running

    def step(self) -> Optional[Fix]:
        """Replay sources: one fix (None on the phone)."""
        step = getattr(self.source, "step", None)
        return step() if step is not None and self._running else None


class GpsChannel:
    def __init__(self, shared: SharedGps):
        self.shared = shared

    def start(self, on_fix: FixCallback) -> None:
        self.shared._listeners[id(self)] = on_fix
        self.shared._update()

    def stop(self) -> None:
        self.shared._listeners.pop(id(self), None)
        self.shared._update()

    @property
    def running(self) -> bool:
        return id(self) in self.shared._listeners


# Streets around Muriaé's centre (approximate waypoints for the demo loop).
DEMO_WAYPOINTS: tuple[tuple[float, float], ...] = (
    (-21.1310, -42.3660), (-21.1302, -42.3632), (-21.1285, -42.3610), (-21.1262, -42.3598),
    (-21.1240, -42.3612), (-21.1228, -42.3640), (-21.1236, -42.3672), (-21.1258, -42.3695),
    (-21.1283, -42.3702), (-21.1305, -42.3688), (-21.1310, -42.3660),
)


def demo_trace(speed_kmh: float = 30.0, step_s: float = 1.0, stop_after: int = 60, stop_s: int = 40,
               waypoints: Iterable[tuple[float, float]] = DEMO_WAYPOINTS, accuracy_m: float = 6.0
               ) -> list[tuple[float, float, Optional[float]]]:
    """A loop around the centre at ``speed_kmh``, one point per ``step_s``, with a ``stop_s`` halt
    (a traffic light: charged as waiting) after ``stop_after`` points."""
    wps = list(waypoints)
    step_m = speed_kmh / 3.6 * step_s
    points: list[tuple[float, float, Optional[float]]] = [(wps[0][0], wps[0][1], accuracy_m)]
    for (lat1, lon1), (lat2, lon2) in zip(wps, wps[1:]):
        dy = (lat2 - lat1) * 110_760.0
        dx = (lon2 - lon1) * 111_320.0 * math.cos(math.radians(lat1))
        n = max(1, int(math.hypot(dx, dy) // step_m))
        for i in range(1, n + 1):
            points.append((lat1 + (lat2 - lat1) * i / n, lon1 + (lon2 - lon1) * i / n, accuracy_m))
    if 0 < stop_after < len(points):
        halt = [points[stop_after]] * int(stop_s / step_s)
        points = points[:stop_after] + halt + points[stop_after:]
    return points


def load_trace(path: str | Path) -> list[tuple[float, float, Optional[float]]]:
    """A JSON list of ``{"lat", "lon", "accuracy_m"}`` (or ``[lat, lon, acc]``)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    out = []
    for p in data:
        if isinstance(p, dict):
            out.append((float(p["lat"]), float(p["lon"]), p.get("accuracy_m")))
        else:
            out.append((float(p[0]), float(p[1]), p[2] if len(p) > 2 else None))
    return out
