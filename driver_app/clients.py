"""Clients of the platform's services, behind small interfaces.

* :class:`RegistryClient` -- the registry API that exists today
  (``POST /api/auth/token/``, ``GET /api/me/``, ``POST /api/auth/logout/``); :class:`HttpRegistryClient`
  talks to it with the standard library only (runs on Android unchanged).
* :class:`DispatchClient` -- the radio-taxi dispatch websocket: wire frames both ways (:mod:`taxiwire`);
  :class:`driver_app.ws.WsDispatchClient` speaks the real protocol,
  :class:`FakeDispatch` is the in-memory stand-in.
* :class:`StatementsClient` -- the weekly statements, and :class:`TripsClient` -- finished trips, sent
  without blocking (the answer comes later as a :class:`TripResult`) (:mod:`driver_app.trip_clients`, re-exported
  here).
* :class:`RanksClient` -- the ranks near the cab with the law's answer for it
  (:class:`HttpRanksClient`, ``GET /api/driver/ranks/``; :class:`FakeRanks`).
* :class:`TariffClient` -- the tariff in force and today's flag
  (:class:`HttpTariffClient`, ``GET /api/tariffs/current/``).
* :class:`PaymentsClient` -- the Pix terms, the driver's own Pix key and the payment of a ride
  (:mod:`driver_app.payment_clients`, re-exported here).
* :class:`FakeClock` -- a clock the screenshots and the tests move by hand.

Message shapes are documented in docs/driver-app.md.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from datetime import date, datetime, timedelta
from typing import Any, Callable, Optional, Protocol, runtime_checkable


class ApiError(Exception):
    """The server answered with an error."""


class AuthError(ApiError):
    """Bad credentials or expired token (HTTP 400/401/403)."""


class NetworkError(ApiError, ConnectionError):
    """The server could not be reached (no network, DNS, timeout)."""


def offline(exc: BaseException) -> bool:
    """Whether a failed call never reached the server: a ``NetworkError`` (a ``ConnectionError``), or the
    ``OSError`` a socket or urllib raised (timeouts included); anything else is the server's answer or a bug."""
    return isinstance(exc, OSError)


class RejectedError(ApiError):
    """The server refused an upload for good (e.g. the ride is no longer on board): retrying is useless."""

    def __init__(self, code: str, message: str = ""):
        super().__init__(f"{code}: {message}" if message else code)
        self.code, self.message = code, message


# -- registry -----------------------------------------------------------------------------


@runtime_checkable
class RegistryClient(Protocol):
    def login(self, username: str, password: str) -> str:
        """``POST /api/auth/token/`` -> the token; AuthError / NetworkError."""

    def me(self, token: str) -> dict[str, Any]:
        """``GET /api/me/`` -> {person, cmt, cvi, compliance}."""

    def logout(self, token: str) -> None:
        """``POST /api/auth/logout/``: the server revokes the token."""


class HttpRegistryClient:
    def __init__(self, base_url: str, timeout: float = 10.0):
        if not base_url.startswith(("http://", "https://")):  # urlopen would also open file: and custom schemes
            raise ValueError(f"the central's address must be http(s): {base_url!r}")
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout

    def _request(self, method: str, path: str, body: Optional[dict] = None, token: Optional[str] = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base_url + path, data=data, method=method)  # noqa: S310 (http(s) only: __init__)
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Token {token}")
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:  # noqa: S310 (http(s) only: __init__)
                return json.loads(resp.read().decode("utf-8") or "null")
        except urllib.error.HTTPError as exc:
            if exc.code in (400, 401, 403):
                raise AuthError(str(exc.code)) from exc
            raise ApiError(str(exc.code)) from exc
        except (urllib.error.URLError, OSError) as exc:  # includes timeouts
            raise NetworkError(str(exc)) from exc

    def login(self, username: str, password: str) -> str:
        return self._request("POST", "/api/auth/token/", {"username": username, "password": password})["token"]

    def me(self, token: str) -> dict[str, Any]:
        return self._request("GET", "/api/me/", token=token)

    def logout(self, token: str) -> None:
        self._request("POST", "/api/auth/logout/", token=token)


DEMO_ME: dict[str, Any] = {
    "person": {"id": 1, "full_name": "José da Silva Pereira"},
    "cmt": {"number": "CMT-0042", "issued_on": "2025-04-10", "expires_on": "2026-04-10",
            "role": "auxiliar", "permit": "P-017"},
    "cvi": {"plate": "GXY-4B21", "make": "Chevrolet", "model": "Spin LTZ", "model_year": 2022,
            "colour": "branca", "permit": "P-017", "seal_number": "L-2026-0193",
            "seal_valid_until": "2026-09-30", "rank": "Ponto da Praça João Pinheiro"},
    "compliance": {"allowed": True, "articles": ["Art. 51"], "reasons": []},
}


def demo_me(today: date) -> dict[str, Any]:
    """:data:`DEMO_ME` with dates around ``today``: the CMT expires in 16 days (a warning shows)."""
    from datetime import timedelta

    me = json.loads(json.dumps(DEMO_ME))
    me["cmt"]["issued_on"] = (today - timedelta(days=349)).isoformat()
    me["cmt"]["expires_on"] = (today + timedelta(days=16)).isoformat()
    me["cvi"]["seal_valid_until"] = (today + timedelta(days=200)).isoformat()
    return me


class FakeRegistry:
    """In-memory registry: one user, one token; ``online=False`` simulates no network."""

    def __init__(self, users: Optional[dict[str, str]] = None, me: Optional[dict] = None):
        self.users = users if users is not None else {"demo": "demo"}
        self.me_payload = me if me is not None else DEMO_ME
        self.online = True
        self.tokens: dict[str, str] = {}

    def login(self, username: str, password: str) -> str:
        if not self.online:
            raise NetworkError("offline")
        if self.users.get(username) != password or not password:
            raise AuthError("400")
        token = f"tok-{username}"
        self.tokens[token] = username
        return token

    def me(self, token: str) -> dict[str, Any]:
        if not self.online:
            raise NetworkError("offline")
        if token not in self.tokens:
            raise AuthError("401")
        return json.loads(json.dumps(self.me_payload))

    def logout(self, token: str) -> None:
        if not self.online:
            raise NetworkError("offline")
        if self.tokens.pop(token, None) is None:
            raise AuthError("401")


# -- dispatch -----------------------------------------------------------------------------

Listener = Callable[[dict[str, Any]], None]


@runtime_checkable
class DispatchClient(Protocol):
    """The dispatch websocket: the frames of docs/dispatch-protocol.md, built and read through :mod:`taxiwire`."""

    def connect(self, token: str, on_message: Listener) -> None: ...

    def send(self, message: dict[str, Any]) -> None: ...

    def close(self) -> None: ...


class FakeDispatch:
    """Records the frames the app sends; :meth:`push` delivers a frame of the server's."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.listener: Optional[Listener] = None
        self.token: Optional[str] = None

    def connect(self, token: str, on_message: Listener) -> None:
        self.token, self.listener = token, on_message

    def send(self, message: dict[str, Any]) -> None:
        self.sent.append(json.loads(json.dumps(message)))

    def push(self, message: dict[str, Any]) -> None:
        if self.listener is not None:
            self.listener(message)

    def close(self) -> None:
        self.listener = None


# -- ranks ----------------------------------------------------------------------------------


@runtime_checkable
class RanksClient(Protocol):
    def near(self, token: str, lat: float, lon: float) -> dict[str, Any]:
        """``GET /api/driver/ranks/?lat=&lon=`` -> {"checked_in": None or {rank_id, rank, queue_position, visitor},
        "ranks": [{id, name, category_display, distance_m, queue, titular, titular_count, visitor_limit,
        allowed, reasons: [{article, code, message}]}]} (docs/driver-app.md)."""


class HttpRanksClient:
    def __init__(self, registry: HttpRegistryClient):
        self.registry = registry

    def near(self, token: str, lat: float, lon: float) -> dict[str, Any]:
        return self.registry._request("GET", f"/api/driver/ranks/?lat={lat:.6f}&lon={lon:.6f}", token=token)


class FakeRanks:
    """Answers ``answer`` (the server's shape); ``online = False`` raises NetworkError."""

    def __init__(self, answer: Optional[dict[str, Any]] = None):
        self.answer = answer if answer is not None else {"checked_in": None, "ranks": []}
        self.online = True
        self.asked: list[tuple[float, float]] = []

    def near(self, token: str, lat: float, lon: float) -> dict[str, Any]:
        if not self.online:
            raise NetworkError("offline")
        self.asked.append((lat, lon))
        return json.loads(json.dumps(self.answer))


# -- payments (driver_app/payment_clients.py; re-exported here) ----------------------------------


# -- tariff ---------------------------------------------------------------------------------


@runtime_checkable
class TariffClient(Protocol):
    def current(self, token: str) -> dict[str, Any]:
        """``GET /api/tariffs/current/`` -> {"tariff": Tariff.to_dict() | None, "flag": {...},
        "meter": {"params": MeterParams.to_dict(), "holidays": [ISO dates]}}."""


class HttpTariffClient:
    def __init__(self, registry: HttpRegistryClient):
        self.registry = registry

    def current(self, token: str) -> dict[str, Any]:
        return self.registry._request("GET", "/api/tariffs/current/", token=token)


class FakeTariffs:
    def __init__(self, tariff: Optional[dict[str, Any]] = None, flag: Optional[dict[str, Any]] = None,
                 meter: Optional[dict[str, Any]] = None):
        self.tariff, self.flag, self.meter = tariff, flag or {}, meter or {}
        self.online = True

    def current(self, token: str) -> dict[str, Any]:
        if not self.online:
            raise NetworkError("offline")
        return {"tariff": self.tariff, "flag": self.flag, "meter": self.meter}


class FakeClock:
    """A clock moved by hand (``advance``), for the screenshots and the tests."""

    def __init__(self, start: datetime):
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


from .payment_clients import FakePayments, HttpPaymentsClient, PaymentsClient  # noqa: E402,F401  (one import path)
from .trip_clients import (  # noqa: E402,F401  (one import path)
    FakeStatements,
    FakeTrips,
    HttpStatementsClient,
    StatementsClient,
    TripResult,
    TripsClient,
    upload_result,
)
