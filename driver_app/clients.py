"""Clients of the platform's services, behind small interfaces.

* :class:`RegistryClient` -- the registry API that exists today
  (``POST /api/auth/token/``, ``GET /api/me/``, ``POST /api/auth/logout/``); :class:`HttpRegistryClient`
  talks to it with the standard library only (runs on Android unchanged).
* :class:`DispatchClient` -- the radio-taxi dispatch websocket;
  :class:`driver_app.ws.WsDispatchClient` speaks the real protocol,
  :class:`FakeDispatch` is the in-memory stand-in.
* :class:`StatementsClient` -- the weekly statements
  (:class:`HttpStatementsClient`, :class:`FakeStatements`).
* :class:`TripsClient` -- finished trips: :class:`driver_app.ws.DispatchTripsClient`
  completes dispatched rides with ``ride_complete`` and records street-hail and
  rank trips with ``street_trip_complete``, without blocking (``submit``: the
  answer comes later as a :class:`TripResult`); :class:`FakeTrips` can be
  switched offline to exercise the sync queue.
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
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
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
    """The dispatch websocket, one JSON object per message (docs/driver-app.md)."""

    def connect(self, token: str, on_message: Listener) -> None: ...

    def send(self, message: dict[str, Any]) -> None: ...

    def close(self) -> None: ...


class FakeDispatch:
    """Records what the app sends; :meth:`push` delivers a server message."""

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


# -- statements and trips ------------------------------------------------------------------


@runtime_checkable
class StatementsClient(Protocol):
    def weekly(self, token: str, weeks: int = 8) -> dict[str, Any]:
        """{"agreement": {kind, auxiliary_percent, witnesses}, "weeks": [{week_start, gross, fares, and from the
        server: auxiliary_part, holder_part, closed, rides: [{completed_at, fare, origin, server_total,
        meter_disagreement}]}],
        "settlement": None or the running week's {transfer, collected: [{party, method, amount}]}}."""


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


@runtime_checkable
class TripsClient(Protocol):
    """Finished trips.  ``upload`` answers at once (in-memory fakes) or blocks; a client that talks to the
    network also has ``submit(token, trip, done)``, which returns at once and calls ``done(TripResult)``
    later from any thread (the meter hands it to the UI thread) -- or at once, on the caller's thread,
    when it knows the answer without the network (offline)."""

    def upload(self, token: str, trip: dict[str, Any]) -> None:
        """Store one finished trip; raises NetworkError when offline (the app retries), RejectedError when
        the server refuses it for good."""


@dataclass(frozen=True)
class TripResult:
    """The server's answer to one finished trip.

    ``confirmed``: recorded (``answer`` holds the server's frame, e.g. ``street_trip_recorded``);
    ``queued``: not recorded, the trip stays in the sync queue (no connection, no answer, or a refusal
    that may pass later) -- sent again on the next sync, or after ``retry_in`` seconds when the server
    did answer; ``rejected``: refused for good (``code``, ``message``): the trip leaves the queue."""

    outcome: str
    code: str = ""
    message: str = ""
    retry_in: float = 0.0
    answer: dict[str, Any] = field(default_factory=dict)

    CONFIRMED = "confirmed"
    QUEUED = "queued"
    REJECTED = "rejected"

    @classmethod
    def confirmed(cls, answer: Optional[dict[str, Any]] = None) -> "TripResult":
        return cls(cls.CONFIRMED, answer=dict(answer or {}))

    @classmethod
    def queued(cls, code: str = "offline", message: str = "", retry_in: float = 0.0) -> "TripResult":
        return cls(cls.QUEUED, code, message, retry_in)

    @classmethod
    def rejected(cls, code: str, message: str = "") -> "TripResult":
        return cls(cls.REJECTED, code, message)


def upload_result(trips: TripsClient, token: str, trip: dict[str, Any]) -> TripResult:
    """``trips.upload`` as a :class:`TripResult` (for clients without ``submit``)."""
    try:
        answer = trips.upload(token, trip)
    except RejectedError as exc:
        return TripResult.rejected(exc.code, exc.message)
    except (ApiError, ConnectionError, OSError) as exc:
        return TripResult.queued("offline", "" if isinstance(exc, ConnectionError) else str(exc))
    return TripResult.confirmed(answer if isinstance(answer, dict) else None)


class HttpStatementsClient:
    """The weekly statements API (``GET /api/statements/`` closed weeks, ``GET /api/statements/current/``
    the running week), folded into the :class:`StatementsClient` shape.  Several statements of one week
    (several permits) are summed; the agreement is the latest statement's."""

    def __init__(self, registry: HttpRegistryClient):
        self.registry = registry

    def weekly(self, token: str, weeks: int = 8) -> dict[str, Any]:
        rows: list[dict[str, Any]] = []
        settlement: Optional[dict[str, Any]] = None
        try:
            current = self.registry._request("GET", "/api/statements/current/", token=token)
            rows.extend(current.get("statements", []))
            running = next((r for r in current.get("statements", []) if r.get("settlement")), None)
            if running is not None:  # the running week's settlement between the partners (Art. 1, §3)
                settlement = {"transfer": running.get("transfer_label", ""),
                              "collected": running["settlement"].get("collected", [])}
        except ApiError as exc:
            if str(exc) != "404":  # offline, a server error: said as such, never shown as an empty week
                raise
            # 404: no permit driven this week -- only the closed weeks
        closed = self.registry._request("GET", f"/api/statements/?limit={max(1, weeks) * 4}", token=token)
        closed_rows = closed.get("results", []) if isinstance(closed, dict) else closed
        me = {r.get("driver") for r in rows if r.get("driver") is not None}
        # a holder also reads his auxiliaries' statements: the Partilha shows the weeks he drove
        rows.extend(r for r in closed_rows if not me or r.get("driver") in me)
        by_week: dict[str, dict[str, Any]] = {}
        agreement: dict[str, Any] = {"kind": "law", "auxiliary_percent": "25", "witnesses": 0}
        for row in sorted(rows, key=lambda r: r["week_start"]):
            week = by_week.setdefault(row["week_start"], {"week_start": row["week_start"], "gross": "0.00",
                                                          "fares": 0, "auxiliary_part": "0.00",
                                                          "holder_part": "0.00", "closed": True, "rides": []})
            for key, source in (("gross", "gross"), ("auxiliary_part", "auxiliary_part"), ("holder_part", "holder_part")):
                week[key] = str(Decimal(week[key]) + Decimal(str(row.get(source, "0"))))
            week["fares"] += int(row.get("rides", 0))
            week["closed"] = week["closed"] and bool(row.get("is_closed", True))
            week["rides"].extend(line for line in row.get("ride_lines", []) if not line.get("late"))
            kind = row.get("agreement", "law")
            agreement = {"kind": kind, "auxiliary_percent": str(row.get("auxiliary_percent", "25")),
                         # a contract the server accepted was validated there (Art. 1, §6)
                         "witnesses": 2 if kind == "contract" else 0,
                         "reference": row.get("contract_reference", "")}
        ordered = sorted(by_week.values(), key=lambda w: w["week_start"], reverse=True)[:weeks]
        return {"agreement": agreement, "weeks": ordered, "settlement": settlement}


class FakeStatements:
    def __init__(self, weeks: Optional[list[dict[str, Any]]] = None,
                 agreement: Optional[dict[str, Any]] = None):
        self.weeks = weeks if weeks is not None else []
        self.agreement = agreement if agreement is not None else {"kind": "law", "auxiliary_percent": "25",
                                                                  "witnesses": 0}
        self.online = True
        self.settlement: Optional[dict[str, Any]] = None  # {transfer, collected: [{party, method, amount}]}

    def add_fare(self, week_start: date, amount: Decimal, ride: Optional[dict[str, Any]] = None) -> None:
        """One more fare in the week (and its ride line, in the server's shape, when given)."""
        key = week_start.isoformat()
        week = next((w for w in self.weeks if w["week_start"] == key), None)
        if week is None:
            week = {"week_start": key, "gross": "0.00", "fares": 0}
            self.weeks.append(week)
        week["gross"] = str(Decimal(week["gross"]) + Decimal(str(amount)))
        week["fares"] = int(week.get("fares", 0)) + 1
        if ride is not None:
            week.setdefault("rides", []).append(ride)

    def weekly(self, token: str, weeks: int = 8) -> dict[str, Any]:
        if not self.online:
            raise NetworkError("offline")
        ordered = sorted(self.weeks, key=lambda w: w["week_start"], reverse=True)[:weeks]
        return {"agreement": dict(self.agreement), "weeks": [dict(w) for w in ordered], "settlement": self.settlement}


class FakeTrips:
    def __init__(self, statements: Optional[FakeStatements] = None, numbers: bool = False):
        self.numbers = numbers  # answer each trip's ride number, as the central does (the demo's week list pays them)
        self.uploaded: list[dict[str, Any]] = []
        self.online = True
        self.statements = statements

    def upload(self, token: str, trip: dict[str, Any]) -> Optional[dict[str, Any]]:
        """Record the trip; the answer gives its ride number, as the central's does (a street trip gets one)."""
        if not self.online:
            raise NetworkError("offline")
        done = next((n for n, t in enumerate(self.uploaded) if t["trip_id"] == trip["trip_id"]), None)
        if done is not None:  # idempotent: the app may retry after a lost answer
            return {"ride_id": self.uploaded[done].get("ride_id") or 1000 + done} if self.numbers else None
        self.uploaded.append(trip)
        ride_id = trip.get("ride_id") or 1000 + len(self.uploaded) - 1
        if self.statements is not None:
            from datetime import datetime

            from taxilaw.split import week_start
            stopped = datetime.fromisoformat(trip["stopped_at"])
            self.statements.add_fare(week_start(stopped), Decimal(trip["total"]), {
                "ride": ride_id, "completed_at": trip["stopped_at"], "fare": trip["total"], "server_total": None,
                "origin": "dispatched" if trip.get("ride_id") else "street", "meter_disagreement": False,
                "method": "unrecorded"})
        return {"ride_id": ride_id} if self.numbers else None


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
