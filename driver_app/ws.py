"""The real dispatch websocket (docs/dispatch-protocol.md) behind the app's :class:`DispatchClient`.

:class:`WsDispatchClient` runs an asyncio loop in a background thread with the
``websockets`` library (pure Python; it builds for Android).  The token goes
in the handshake's ``Authorization: Token`` header, never in the URL.

The view-models speak the app's own vocabulary (docs/driver-app.md: ``accept``,
``decline``, ``status {state}``, ``offer {offer_id, pickup...}``); this module
translates both ways, so the view-models stay unaware of the wire format and
of threads.  Every callback is handed to ``post`` -- the caller's way to run a
function on its UI thread (``Clock.schedule_once`` in the Kivy app,
:class:`UiQueue` in tests); the default calls it at once in the socket thread.

Reconnection: after a drop the client retries with a growing backoff
(1, 2, 4, 8, 15, 30 s, with jitter).  The server's ``snapshot`` on every
(re)connection restores the pending offer and the current ride; the last
``livre``/``fora_de_servico`` the driver chose and the last position are sent
again.  ``connection`` messages (``{"type": "connection", "online": bool}``)
tell the app when the socket is up or down.

Finished trips are completed by ``ride_complete`` on this socket
(:class:`DispatchTripsClient`, the app's :class:`TripsClient`): while the
socket is down the meter keeps them in ``sync_queue.json``; a trip whose ride
is no longer ``on_board`` on the server is refused with
:class:`~driver_app.clients.RejectedError` and dropped with a visible message.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, Callable, Optional
from urllib.parse import urlsplit, urlunsplit

from .clients import Listener, NetworkError, RejectedError

Post = Callable[[Callable[[], None]], None]

BACKOFF_S = (1.0, 2.0, 4.0, 8.0, 15.0, 30.0)
POLICY_CLOSE = 4008  # the server's policy close (suspension, not allowed, flood)
MAX_TRACE_FIXES = 9000  # the server accepts 10 000 fixes per ride_complete (dispatch/protocol.py)
#: error codes that mean "this ride_complete will never be accepted": drop the trip.
FINAL_COMPLETE_ERRORS = {"not_your_ride", "wrong_state", "invalid", "law"}


def ws_url(base_url: str, path: str = "/ws/driver/") -> str:
    """``http://host:8000`` -> ``ws://host:8000/ws/driver/`` (``https`` -> ``wss``)."""
    parts = urlsplit(base_url.rstrip("/"))
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme, "ws")
    return urlunsplit((scheme, parts.netloc, parts.path.rstrip("/") + path, "", ""))


class UiQueue:
    """A ``post`` for code without a UI toolkit: callbacks wait here until :meth:`drain` runs them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: list[Callable[[], None]] = []
        self._event = threading.Event()

    def __call__(self, fn: Callable[[], None]) -> None:
        with self._lock:
            self._items.append(fn)
            self._event.set()

    def drain(self) -> int:
        with self._lock:
            items, self._items = self._items, []
            self._event.clear()
        for fn in items:
            fn()
        return len(items)

    def wait(self, timeout: float) -> bool:
        return self._event.wait(timeout)


# -- translation ------------------------------------------------------------------------------


def to_server(message: dict[str, Any]) -> Optional[dict[str, Any]]:
    """An app message -> the protocol frame (None: nothing to send)."""
    kind = message.get("type")
    if kind == "status":
        state = message.get("state")
        # a_caminho and ocupado are set by the server itself (offer_accept, ride_on_board)
        return {"type": "status", "status": state} if state in ("livre", "fora_de_servico") else None
    if kind == "accept":
        return {"type": "offer_accept", "offer_id": message["offer_id"]}
    if kind == "decline":
        return {"type": "offer_decline", "offer_id": message["offer_id"]}
    if kind == "position":
        frame = {"type": "position", "lat": message["lat"], "lon": message["lon"]}
        accuracy = message.get("accuracy_m", message.get("accuracy"))
        if accuracy is not None:
            frame["accuracy"] = accuracy
        return frame
    if kind in ("rank_check_in", "rank_check_out", "ride_arriving", "ride_on_board", "ride_complete", "ping"):
        return dict(message)
    return None


def offer_to_app(offer: dict[str, Any]) -> dict[str, Any]:
    """The protocol's ``offer`` body -> the app's offer message."""
    pickup = dict(offer.get("pickup") or {})
    if not pickup.get("address"):
        pickup["address"] = f"{pickup.get('lat', 0):.5f}, {pickup.get('lon', 0):.5f}"
    return {"type": "offer", "offer_id": offer["id"], "ride_id": offer.get("ride_id"), "pickup": pickup,
            "distance_m": offer.get("distance_m") or 0, "expires_at": offer.get("expires_at"),
            "reason": offer.get("reason", "")}


def to_app(frame: dict[str, Any]) -> list[dict[str, Any]]:
    """A protocol frame -> the app messages it means (a snapshot may also carry an offer)."""
    kind = frame.get("type")
    if kind == "offer":
        return [offer_to_app(frame["offer"])]
    if kind == "offer_closed":
        return [{"type": "offer_cancelled", "offer_id": frame.get("offer_id"), "status": frame.get("status")}]
    if kind == "snapshot":
        out = [frame]
        if frame.get("offer") and frame["offer"].get("status", "pending") == "pending":
            out.append(offer_to_app(frame["offer"]))
        return out
    return [frame]


def ride_complete_frame(trip: dict[str, Any]) -> dict[str, Any]:
    """A finished trip (MeterViewModel's queue item) -> ``ride_complete`` with the meter's total and trace."""
    trace = [{"t": f["t"], "lat": f["lat"], "lon": f["lon"], "accuracy_m": f.get("accuracy_m")}
             for f in trip.get("trace", [])]
    if len(trace) > MAX_TRACE_FIXES:  # a very long trip: keep every k-th fix and the last one
        step = -(-len(trace) // MAX_TRACE_FIXES)
        trace = trace[::step][: MAX_TRACE_FIXES - 1] + [trace[-1]]
    return {"type": "ride_complete", "ride_id": int(trip["ride_id"]), "meter_total": str(trip["total"]),
            "trace": trace}


# -- the client -------------------------------------------------------------------------------


class WsDispatchClient:
    """:class:`~driver_app.clients.DispatchClient` over ``/ws/driver/`` (thread + asyncio loop)."""

    def __init__(self, base_url: str, post: Optional[Post] = None, backoff: tuple[float, ...] = BACKOFF_S,
                 open_timeout: float = 10.0, complete_timeout: float = 8.0):
        self.url = ws_url(base_url)
        self.post: Post = post or (lambda fn: fn())
        self.backoff = backoff
        self.open_timeout = open_timeout
        self.complete_timeout = complete_timeout
        self.token: Optional[str] = None
        self.listener: Optional[Listener] = None
        self.online = False
        self.stopped_reason = ""  # "auth" | "policy" when the client gave up reconnecting
        self.connections = 0  # successful handshakes (1 + reconnections)
        self.last_snapshot: Optional[dict[str, Any]] = None
        self._status: Optional[str] = None  # last livre / fora_de_servico chosen by the driver
        self._position: Optional[dict[str, Any]] = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._thread: Optional[threading.Thread] = None
        self._ws = None
        self._outbox: Optional[asyncio.Queue] = None
        self._closing: Optional[asyncio.Event] = None
        self._pending: Optional[asyncio.Future] = None
        self._complete_lock = threading.Lock()

    # -- DispatchClient ------------------------------------------------------------------------

    def connect(self, token: str, on_message: Listener) -> None:
        if self._thread is not None and self.token == token:
            self.listener = on_message
            return
        self.close()
        self.token, self.listener, self.stopped_reason = token, on_message, ""
        self._loop = asyncio.new_event_loop()
        ready = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(self._loop)
            self._closing = asyncio.Event()
            self._loop.call_soon(ready.set)
            try:
                self._loop.run_until_complete(self._run())
            finally:
                self._loop.close()

        self._thread = threading.Thread(target=run, name="dispatch-ws", daemon=True)
        self._thread.start()
        ready.wait(5)

    def send(self, message: dict[str, Any]) -> None:
        frame = to_server(message)
        if frame is None:
            return
        if frame["type"] == "status":
            self._status = frame["status"]
        elif frame["type"] == "position":
            self._position = frame
        self._enqueue(frame)

    def close(self) -> None:
        loop, thread = self._loop, self._thread
        self._thread = None
        if loop is not None and thread is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._closing.set)
            except RuntimeError:  # the loop just finished
                pass
            thread.join(10)
        self._loop, self._ws, self.online = None, None, False

    # -- trips ---------------------------------------------------------------------------------

    def complete(self, trip: dict[str, Any]) -> None:
        """Send ``ride_complete`` and wait for the server's verdict (blocking, ``complete_timeout``).

        The consumer handles one frame at a time, so an ``error`` for the ride_complete arrives before the
        ``pong`` of the ``ping`` sent right after it: pong = completed.  NetworkError when the socket is down
        or the answer does not come; RejectedError when the server refuses the ride for good."""
        if not self.online or self._loop is None:
            raise NetworkError("dispatch socket offline")
        frame = ride_complete_frame(trip)
        with self._complete_lock:
            future = asyncio.run_coroutine_threadsafe(self._complete(frame), self._loop)
            try:
                error = future.result(self.complete_timeout)
            except (FutureTimeout, asyncio.TimeoutError, ConnectionError, OSError) as exc:
                future.cancel()
                raise NetworkError(f"ride_complete unanswered: {exc!r}") from exc
        if error is not None:
            if error.get("code") in FINAL_COMPLETE_ERRORS:
                raise RejectedError(error.get("code", ""), error.get("message", ""))
            raise NetworkError(f"ride_complete failed: {error.get('code')}")

    async def _complete(self, frame: dict[str, Any]) -> Optional[dict[str, Any]]:
        if self._outbox is None:
            raise NetworkError("offline")
        self._pending = asyncio.get_running_loop().create_future()
        try:
            self._outbox.put_nowait(frame)
            self._outbox.put_nowait({"type": "ping"})
            return await self._pending
        finally:
            self._pending = None

    # -- testing aids --------------------------------------------------------------------------

    def interrupt(self) -> None:
        """Drop the current connection as a network loss would (the client reconnects by itself)."""
        loop, ws = self._loop, self._ws
        if loop is not None and ws is not None:
            transport = getattr(ws, "transport", None)
            if transport is not None:
                loop.call_soon_threadsafe(transport.abort)

    # -- internals (socket thread) -------------------------------------------------------------

    def _deliver(self, message: dict[str, Any]) -> None:
        listener = self.listener
        if listener is not None:
            self.post(lambda: listener(message))

    def _enqueue(self, frame: dict[str, Any]) -> None:
        loop, outbox = self._loop, self._outbox
        if loop is None or outbox is None or not self.online:
            return  # offline: status and position are sent again on reconnection; the rest is stale
        try:
            loop.call_soon_threadsafe(outbox.put_nowait, frame)
        except RuntimeError:
            pass

    async def _run(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidStatus

        attempt = 0
        while not self._closing.is_set():
            close_code = None
            try:
                async with connect(self.url, additional_headers={"Authorization": f"Token {self.token}"},
                                   open_timeout=self.open_timeout, max_size=2 ** 21) as ws:
                    attempt = 0
                    await self._serve(ws)
                    close_code = ws.close_code
            except InvalidStatus as exc:  # the handshake was refused: bad or revoked token
                if exc.response.status_code in (401, 403):
                    self.stopped_reason = "auth"
                    self._deliver({"type": "connection", "online": False, "reason": "auth"})
                    return
            except (OSError, asyncio.TimeoutError, Exception) as exc:  # noqa: BLE001 - any network failure
                close_code = getattr(getattr(exc, "rcvd", None), "code", None)
            finally:
                if self.online:
                    self.online = False
                    self._deliver({"type": "connection", "online": False})
                self._ws, self._outbox = None, None
                if self._pending is not None and not self._pending.done():
                    self._pending.set_exception(ConnectionError("connection lost"))
            if close_code == POLICY_CLOSE:  # suspended / not allowed: reconnecting would be refused again
                self.stopped_reason = "policy"
                self._deliver({"type": "connection", "online": False, "reason": "policy"})
                return
            delay = self.backoff[min(attempt, len(self.backoff) - 1)] * random.uniform(0.8, 1.2)
            attempt += 1
            try:
                await asyncio.wait_for(self._closing.wait(), delay)
            except asyncio.TimeoutError:
                pass

    async def _serve(self, ws) -> None:
        self._ws, self._outbox = ws, asyncio.Queue()
        writer = asyncio.create_task(self._writer(ws, self._outbox))
        closing = asyncio.create_task(self._closing.wait())
        reader = asyncio.create_task(self._reader(ws))
        try:
            done, _pending = await asyncio.wait({reader, closing, writer}, return_when=asyncio.FIRST_COMPLETED)
            if closing in done:
                await ws.close()
            for task in done:
                if task is not closing and task.exception() is not None:
                    raise task.exception()
        finally:
            for task in (writer, closing, reader):
                task.cancel()

    async def _writer(self, ws, outbox: asyncio.Queue) -> None:
        while True:
            frame = await outbox.get()
            await ws.send(json.dumps(frame, default=str))

    async def _reader(self, ws) -> None:
        async for raw in ws:
            try:
                frame = json.loads(raw)
            except ValueError:
                continue
            kind = frame.get("type")
            if kind == "snapshot":
                self._on_snapshot(frame)
            if self._pending is not None and not self._pending.done():
                if kind == "pong":
                    self._pending.set_result(None)
                    continue
                if kind == "error" and frame.get("code") in FINAL_COMPLETE_ERRORS | {"internal"}:
                    self._pending.set_result(frame)
                    continue
            if kind == "pong":
                continue
            for message in to_app(frame):
                self._deliver(message)

    def _on_snapshot(self, frame: dict[str, Any]) -> None:
        """(Re)connected: mark online, then restore what the driver had chosen."""
        self.last_snapshot = frame
        first = not self.online
        self.online = True
        self.connections += 1
        if first:
            self._deliver({"type": "connection", "online": True})
        cab = frame.get("cab") or {}
        if self._status and not frame.get("ride") and cab.get("status") != self._status:
            self._outbox.put_nowait({"type": "status", "status": self._status})
        if self._position is not None:
            self._outbox.put_nowait(self._position)


class DispatchTripsClient:
    """:class:`~driver_app.clients.TripsClient` for dispatched rides: the trip is completed by ``ride_complete``.

    A trip without a ``ride_id`` (a street hail) has no counterpart on the platform yet: it is kept
    locally only (``upload`` accepts it and sends nothing)."""

    def __init__(self, dispatch: WsDispatchClient):
        self.dispatch = dispatch
        self.local_only: list[dict[str, Any]] = []

    def upload(self, token: str, trip: dict[str, Any]) -> None:
        if trip.get("ride_id") is None:
            self.local_only.append(trip)
            return
        self.dispatch.complete(trip)
