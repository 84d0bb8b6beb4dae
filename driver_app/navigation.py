"""Hand the route to the phone's navigation app: a ``geo:`` intent behind a facade.

:class:`AndroidNavigator` starts ``ACTION_VIEW geo:lat,lon?q=lat,lon(label)`` (any
navigation app the driver has installed answers it); :class:`DesktopNavigator`, the
stand-in on the desktop and in tests, keeps the URIs it was asked to open.
"""

from __future__ import annotations

from typing import Protocol
from urllib.parse import quote


def geo_uri(lat: float, lon: float, label: str = "") -> str:
    """``geo:`` URI (RFC 5870 with Android's ``q=`` query): the point, marked with ``label``."""
    point = f"{lat:.6f},{lon:.6f}"
    return f"geo:{point}?q={point}" + (f"({quote(label, safe='')})" if label else "")


class Navigator(Protocol):
    def navigate(self, lat: float, lon: float, label: str = "") -> bool: ...


class DesktopNavigator:
    """Records what it would open (no navigation app on a desktop)."""

    def __init__(self):
        self.opened: list[str] = []

    def navigate(self, lat: float, lon: float, label: str = "") -> bool:
        self.opened.append(geo_uri(lat, lon, label))
        return True


class AndroidNavigator:
    """``Intent.ACTION_VIEW`` on the ``geo:`` URI through pyjnius (shipped with python-for-android)."""

    def navigate(self, lat: float, lon: float, label: str = "") -> bool:
        from jnius import autoclass  # Android only

        intent_cls, uri_cls = autoclass("android.content.Intent"), autoclass("android.net.Uri")
        activity = autoclass("org.kivy.android.PythonActivity").mActivity
        intent = intent_cls(intent_cls.ACTION_VIEW, uri_cls.parse(geo_uri(lat, lon, label)))
        if intent.resolveActivity(activity.getPackageManager()) is None:
            return False  # no navigation app installed
        activity.startActivity(intent)
        return True


def default_navigator(on_android: bool) -> Navigator:
    return AndroidNavigator() if on_android else DesktopNavigator()
