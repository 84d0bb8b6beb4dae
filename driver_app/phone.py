"""What the app asks of the phone besides the GPS and the offer's sound (driver_app/sound.py): dial the
passenger, hand the pickup to the navigation app.

:class:`AndroidPhone` on the phone (Android intents for ``tel:`` and ``geo:`` -- any navigation app the driver
has installed answers ``geo:``), :class:`DesktopPhone` on the desktop and in tests (it records what was asked).  The view-models receive one
and never know which.  ``navigate`` answers False when no app can open the point.
"""

from __future__ import annotations

from typing import Protocol
from urllib.parse import quote


def tel_uri(number: str) -> str:
    """``tel:`` with the digits only (and a leading +): "(32) 99876-5432" -> "tel:32998765432"."""
    digits = "".join(ch for ch in str(number) if ch.isdigit())
    return "tel:" + ("+" if str(number).strip().startswith("+") else "") + digits


def geo_uri(lat: float, lon: float, label: str = "") -> str:
    """``geo:`` URI (RFC 5870 with Android's ``q=`` query): the point, marked with ``label`` (fully escaped)."""
    point = f"{lat:.6f},{lon:.6f}"
    return f"geo:{point}?q={point}" + (f"({quote(label, safe='')})" if label else "")


class Phone(Protocol):
    def call(self, number: str) -> None: ...

    def navigate(self, lat: float, lon: float, label: str = "") -> bool: ...


class DesktopPhone:
    """The desktop stand-in: records each request (``log``)."""

    def __init__(self) -> None:
        self.log: list[tuple[str, str]] = []

    def call(self, number: str) -> None:
        self.log.append(("call", tel_uri(number)))

    def navigate(self, lat: float, lon: float, label: str = "") -> bool:
        self.log.append(("navigate", geo_uri(lat, lon, label)))
        return True

    @property
    def opened(self) -> list[str]:
        """The ``geo:`` URIs asked so far."""
        return [uri for kind, uri in self.log if kind == "navigate"]


class AndroidPhone:  # pragma: no cover - needs a phone
    """``tel:`` opens the dialer (no CALL_PHONE permission), ``geo:`` the navigation app."""

    def _view(self, action: str, uri: str) -> bool:
        from jnius import autoclass, cast

        intent_cls = autoclass("android.content.Intent")
        intent = intent_cls(getattr(intent_cls, action), autoclass("android.net.Uri").parse(uri))
        activity = cast("android.app.Activity", autoclass("org.kivy.android.PythonActivity").mActivity)
        if intent.resolveActivity(activity.getPackageManager()) is None:
            return False  # no app for it (no navigation app installed)
        activity.startActivity(intent)
        return True

    def call(self, number: str) -> None:
        self._view("ACTION_DIAL", tel_uri(number))

    def navigate(self, lat: float, lon: float, label: str = "") -> bool:
        return self._view("ACTION_VIEW", geo_uri(lat, lon, label))
