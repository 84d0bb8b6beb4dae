"""The app's own time displays (00:04:10; 0:15). Money, distances and dates come from :mod:`taxilaw.brazil`, the
one Brazilian formatting module the server uses too."""

from __future__ import annotations


def hms(seconds: float) -> str:
    """``00:04:10`` (whole seconds, truncated)."""
    s = int(max(seconds, 0.0))
    return f"{s // 3600:02d}:{s % 3600 // 60:02d}:{s % 60:02d}"


def mmss(seconds: float) -> str:
    s = int(max(seconds, 0.0) + 0.999)  # a countdown shows 0:01 until it really ends
    return f"{s // 60}:{s % 60:02d}"
