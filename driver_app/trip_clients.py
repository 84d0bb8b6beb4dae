"""The weekly statements and the finished trips, behind small interfaces (re-exported by :mod:`driver_app.clients`).

* :class:`StatementsClient` -- the weekly statements (:class:`HttpStatementsClient`, :class:`FakeStatements`).
* :class:`TripsClient` -- finished trips: :class:`driver_app.socket_trips.DispatchTripsClient` on the dispatch
  socket, without blocking (the answer comes later as a :class:`TripResult`); :class:`FakeTrips` can be switched
  offline to exercise the sync queue.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any, Optional, Protocol, runtime_checkable

from .clients import ApiError, HttpRegistryClient, NetworkError, RejectedError


@runtime_checkable
class StatementsClient(Protocol):
    def weekly(self, token: str, weeks: int = 8) -> dict[str, Any]:
        """{"agreement": {kind, auxiliary_percent, witnesses}, "weeks": [{week_start, gross, fares, and from the
        server: auxiliary_part, holder_part, closed, rides: [{completed_at, fare, origin, server_total,
        meter_disagreement}]}],
        "settlement": None or the running week's {transfer, collected: [{party, method, amount}]}}."""


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
