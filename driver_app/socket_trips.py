"""Finished trips on the dispatch socket (docs/dispatch-protocol.md): the ``ride_complete`` and
``street_trip_complete`` frames (built through :mod:`taxiwire.inbound`), which answers end each one, and
:class:`DispatchTripsClient`, the app's :class:`~driver_app.clients.TripsClient` over :mod:`driver_app.ws`.

A dispatched ride is completed by ``ride_complete`` (answered ``ride_updated``, protocol 1.2), a street-hail or
rank trip is recorded by ``street_trip_complete`` (protocol 1.1). Neither blocks the caller: the socket queues the
frame and calls back with the server's answer (or the lack of one), and the meter hands that answer to the UI
thread. While the socket is down the meter keeps the trips in ``sync_queue.json``; a trip the server refuses for
good (a ride no longer ``on_board``, a bad trace) is dropped with a visible message.
"""

from __future__ import annotations

import asyncio
import threading
import uuid
from typing import TYPE_CHECKING, Any, Callable, Optional

from taxiwire import inbound

from .clients import NetworkError, RejectedError, TripResult

if TYPE_CHECKING:
    from .ws import WsDispatchClient

RETRY_S = 30.0  # the server answered but did not record the trip (or did not answer): try again after this
MAX_TRACE_FIXES = inbound.MAX_TRACE_FIXES - 1000  # a margin under the server's limit
#: error codes that mean "this ride_complete will never be accepted": drop the trip.
FINAL_COMPLETE_ERRORS = {"not_your_ride", "wrong_state", "invalid", "law"}
#: error codes that mean "this street_trip_complete will never be accepted": drop the trip.
FINAL_STREET_ERRORS = {"invalid", "law", "cab_busy", "too_large"}
#: errors without a trip_id that still answer the street trip just sent (the frame was refused as a whole)
STREET_FRAME_ERRORS = {"invalid", "too_large", "internal", "unknown_type"}


def ride_complete_frame(trip: dict[str, Any]) -> dict[str, Any]:
    """A finished trip (MeterViewModel's queue item) -> ``ride_complete`` with the meter's total and trace."""
    return inbound.RIDE_COMPLETE(ride_id=int(trip["ride_id"]), meter_total=str(trip["total"]), trace=wire_trace(trip))


def street_trip_frame(trip: dict[str, Any]) -> dict[str, Any]:
    """A finished trip without a ride (street hail, rank) -> ``street_trip_complete`` (protocol 1.1).

    ``trip_id`` is the phone's UUID of the trip: the server answers with it, and a trip sent twice is
    recorded once."""
    return inbound.STREET_TRIP_COMPLETE(trip_id=str(trip["trip_id"]), started_at=trip.get("started_at"),
                                        stopped_at=trip.get("stopped_at"), meter_total=str(trip["total"]),
                                        trace=wire_trace(trip))


def wire_trace(trip: dict[str, Any]) -> list[dict[str, Any]]:
    """The trip's fixes as the protocol wants them; a very long trip keeps every k-th fix and the last one
    (the server takes 10 000)."""
    trace = [{"t": f["t"], "lat": f["lat"], "lon": f["lon"], "accuracy_m": f.get("accuracy_m")}
             for f in trip.get("trace", [])]
    if len(trace) > MAX_TRACE_FIXES:
        step = -(-len(trace) // MAX_TRACE_FIXES)
        trace = trace[::step][: MAX_TRACE_FIXES - 1] + [trace[-1]]
    return trace


def same_trip(a: Any, b: Any) -> bool:
    """Two spellings of one trip UUID (hex or with dashes)."""
    try:
        return uuid.UUID(str(a)) == uuid.UUID(str(b))
    except ValueError:
        return str(a) == str(b)


def completes_ride(ride_id: int) -> Callable[[dict[str, Any]], bool]:
    """The frames that answer the ``ride_complete`` of ``ride_id``: ``ride_updated`` (protocol 1.2) or its refusal."""

    def match(frame: dict[str, Any]) -> bool:
        kind = frame.get("type")
        if kind == "ride_updated":
            return (frame.get("ride") or {}).get("id") == ride_id
        return kind == "error" and frame.get("code") in FINAL_COMPLETE_ERRORS | {"internal"}

    return match


def records_street_trip(trip_id: str) -> Callable[[dict[str, Any]], bool]:
    """The frames that answer the ``street_trip_complete`` of ``trip_id``."""

    def match(frame: dict[str, Any]) -> bool:
        kind = frame.get("type")
        if kind == "street_trip_recorded" or (kind == "error" and frame.get("trip_id") is not None):
            return same_trip(frame.get("trip_id"), trip_id)
        return kind == "error" and frame.get("code") in STREET_FRAME_ERRORS

    return match


def error_text(frame: dict[str, Any]) -> str:
    """An ``error`` frame's message with the fields it names ("Mensagem inválida. (trace: …)")."""
    message = str(frame.get("message", ""))
    fields = frame.get("fields")
    if isinstance(fields, dict) and fields:
        parts = []
        for name, errors in fields.items():
            while isinstance(errors, (list, dict)) and errors:
                errors = errors[0] if isinstance(errors, list) else next(iter(errors.values()))
            parts.append(f"{name}: {errors}")
        message = f"{message} ({'; '.join(parts)})"
    return message


# -- the trips client ---------------------------------------------------------------------------


class DispatchTripsClient:
    """:class:`~driver_app.clients.TripsClient` on the dispatch socket.

    A trip with a ``ride_id`` completes that dispatched ride (``ride_complete``); a trip without one (a
    street hail, a passenger taken at the rank) is recorded by ``street_trip_complete``.  :meth:`submit`
    never blocks: the answer comes as a :class:`~driver_app.clients.TripResult` in the socket's thread
    (or at once when the socket is down)."""

    def __init__(self, dispatch: "WsDispatchClient"):
        self.dispatch = dispatch

    @property
    def online(self) -> bool:
        return self.dispatch.online

    def submit(self, token: str, trip: dict[str, Any], done: Callable[[TripResult], None]) -> None:
        frame, match, result = self._plan(trip)
        if not self.dispatch.exchange(frame, match, lambda answer, error: done(result(answer, error))):
            done(TripResult.queued("offline"))

    def upload(self, token: str, trip: dict[str, Any]) -> None:
        """Blocking :meth:`submit` (scripts, tests): NetworkError / RejectedError like the other clients."""
        raise_for(self.wait(*self._plan(trip)))

    def wait(self, frame: dict[str, Any], match, result) -> TripResult:
        answered = threading.Event()
        box: list[TripResult] = []

        def on_done(answer, error):
            box.append(result(answer, error))
            answered.set()

        if not self.dispatch.exchange(frame, match, on_done):
            return TripResult.queued("offline")
        if not answered.wait(self.dispatch.complete_timeout + 2):
            return TripResult.queued("timeout", retry_in=RETRY_S)
        return box[0]

    @staticmethod
    def _plan(trip: dict[str, Any]):
        if trip.get("ride_id") is not None:
            return ride_complete_frame(trip), completes_ride(int(trip["ride_id"])), ride_result
        return street_trip_frame(trip), records_street_trip(trip["trip_id"]), street_result


def _unanswered(error: BaseException) -> TripResult:
    """No answer: the connection dropped (sent again when it returns) or the server was silent (later)."""
    if isinstance(error, (TimeoutError, asyncio.TimeoutError)):
        return TripResult.queued("timeout", retry_in=RETRY_S)
    return TripResult.queued("offline")


def ride_result(answer: Optional[dict[str, Any]], error: Optional[BaseException]) -> TripResult:
    """``ride_complete``: ``ride_updated`` means completed; a final error drops the trip; others keep it."""
    if error is not None or answer is None:
        return _unanswered(error or ConnectionError())
    if answer.get("type") == "ride_updated":
        return TripResult.confirmed(answer)  # its fare_held, if any, tells the payment screen not to charge
    if answer.get("type") == "pong":  # no answer of its own: a server before protocol 1.2; sent again later
        return TripResult.queued("no_answer", retry_in=RETRY_S)
    code, message = answer.get("code", ""), str(answer.get("message", ""))
    if code in FINAL_COMPLETE_ERRORS:
        return TripResult.rejected(code, message)
    return TripResult.queued(code, message, RETRY_S)


def street_result(answer: Optional[dict[str, Any]], error: Optional[BaseException]) -> TripResult:
    """``street_trip_complete``: ``street_trip_recorded`` means recorded (also when it already was)."""
    if error is not None or answer is None:
        return _unanswered(error or ConnectionError())
    kind, code, message = answer.get("type"), answer.get("code", ""), error_text(answer)
    if kind == "street_trip_recorded":
        return TripResult.confirmed(answer)
    if kind == "pong":  # no answer of its own: a server that does not know the message yet (protocol 1.0)
        return TripResult.queued("no_answer", retry_in=RETRY_S)
    if code in FINAL_STREET_ERRORS:
        return TripResult.rejected(code, message)
    return TripResult.queued(code, message, RETRY_S)  # not allowed now, internal error...: later


def raise_for(result: TripResult) -> None:
    """A :class:`TripResult` as the blocking ``upload`` reports it."""
    if result.outcome == TripResult.REJECTED:
        raise RejectedError(result.code, result.message)
    if result.outcome == TripResult.QUEUED:
        raise NetworkError(f"trip not recorded: {result.code} {result.message}".strip())
