"""The real dispatch websocket (docs/dispatch-protocol.md) behind the app's :class:`DispatchClient`.

:class:`WsDispatchClient` runs an asyncio loop in a background thread with the
``websockets`` library (pure Python; it builds for Android).  The token goes
in the handshake's ``Authorization: Token`` header, never in the URL.

The view-models speak the wire's frames (:mod:`taxiwire`: they build what they
send through ``taxiwire.inbound`` and read the frames the server sends as they
come); this module moves them and keeps the view-models unaware of threads.
Every callback is handed to ``post`` -- the caller's way to run a
function on its UI thread (``Clock.schedule_once`` in the Kivy app,
:class:`UiQueue` in tests); the default calls it at once in the socket thread.

Reconnection: after a drop the client retries with a growing backoff
(1, 2, 4, 8, 15, 30 s, with jitter).  The server's ``snapshot`` on every
(re)connection restores the pending offer and the current ride; the last
``livre``/``fora_de_servico`` the driver chose and the last position are sent
again.  ``connection`` messages (``{"type": "connection", "online": bool}``)
tell the app when the socket is up or down.

Finished trips go on this socket too (:mod:`driver_app.socket_trips`):
:meth:`WsDispatchClient.exchange` queues a frame on the socket's loop and calls
back with the server's answer, without blocking the caller.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import threading
from collections import deque
from typing import Any, Callable, Optional
from urllib.parse import urlsplit, urlunsplit

from taxiwire import inbound

from .clients import Listener
from .socket_trips import DispatchTripsClient, completes_ride, raise_for, ride_complete_frame, ride_result

log = logging.getLogger(__name__)


class RedactToken(logging.Filter):
    """websockets logs every handshake header at DEBUG: the token never reaches a log."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) == 2 and str(args[0]).lower() == "authorization":
            record.args = (args[0], "Token ***")
        return True


#: the logger the socket library writes to (passed to ``connect``), with the token redacted
socket_log = logging.getLogger(__name__ + ".socket")
socket_log.addFilter(RedactToken())

Post = Callable[[Callable[[], None]], None]

BACKOFF_S = (1.0, 2.0, 4.0, 8.0, 15.0, 30.0)
POLICY_CLOSE = 4008  # the server's policy close (suspension, not allowed, flood)
SESSION_ENDED = 4401  # the token was revoked (a logout, a login elsewhere) or expired: the driver logs in again
# The cab's other driver (holder or auxiliar) may have closed his app a moment ago and still count for the
# central: a ``cab_in_use`` refusal is tried again this many times, a second or so apart, before it is final.
CAB_IN_USE_RETRIES = 3
CLOSE_TIMEOUT_S = 1.0  # close() waits this long for the server's close frame (it runs on the UI thread)

Answer = Callable[[Optional[dict[str, Any]], Optional[BaseException]], None]


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


class _Exchange:
    """One frame that waits for its answer: the first frame ``match`` accepts, else the ``pong`` of the
    ``ping`` sent right after it (the consumer handles one frame at a time, so answers come in order)."""

    def __init__(self, match: Callable[[dict[str, Any]], bool], on_done: Answer):
        self.match, self.on_done = match, on_done
        self.resolved = False
        self.timer: Optional[asyncio.TimerHandle] = None
        self._lock = threading.Lock()

    def resolve(self, answer: Optional[dict[str, Any]], error: Optional[BaseException] = None) -> None:
        with self._lock:
            if self.resolved:
                return
            self.resolved = True
        if self.timer is not None:
            self.timer.cancel()
        try:
            self.on_done(answer, error)
        except Exception:  # noqa: BLE001 - a callback's bug must not kill the socket thread
            log.exception("trip answer callback failed")


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
        self._exchanges: deque[_Exchange] = deque()  # sent, waiting for their answer (the loop's thread only)
        self._refusal: dict[str, Any] = {}  # the error frame that refused the current connection, before any snapshot
        self._unanswered: set[_Exchange] = set()  # every exchange not resolved yet (close() resolves them)

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

    def send(self, frame: dict[str, Any]) -> None:
        """Send a wire frame (``taxiwire.inbound``); the last status and position are sent again on reconnection."""
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
        for exchange in list(self._unanswered):  # nobody will answer them now
            exchange.resolve(None, ConnectionError("dispatch socket closed"))

    # -- trips ---------------------------------------------------------------------------------

    def exchange(self, frame: dict[str, Any], match: Callable[[dict[str, Any]], bool], on_done: Answer) -> bool:
        """Send ``frame`` and a ``ping`` without waiting; ``on_done(answer, error)`` runs later in the socket's
        thread with the first frame ``match`` accepts, else the ``pong`` (the consumer handles one frame at a
        time, so answers come in order), or with an error: the connection dropped, or no answer within
        ``complete_timeout``.  False (and nothing sent, ``on_done`` never called) when the socket is down."""
        loop = self._loop
        if not self.online or loop is None:
            return False

        def answered(answer: Optional[dict[str, Any]], error: Optional[BaseException]) -> None:
            self._unanswered.discard(exchange)
            on_done(answer, error)

        exchange = _Exchange(match, answered)
        self._unanswered.add(exchange)

        def start() -> None:  # on the loop
            if self._outbox is None or not self.online:
                exchange.resolve(None, ConnectionError("dispatch socket offline"))
                return
            self._exchanges.append(exchange)
            exchange.timer = loop.call_later(self.complete_timeout, exchange.resolve, None,
                                             TimeoutError(f"no answer in {self.complete_timeout:g} s"))
            self._outbox.put_nowait(frame)
            self._outbox.put_nowait(inbound.PING())

        try:
            loop.call_soon_threadsafe(start)
        except RuntimeError:  # the loop just finished
            self._unanswered.discard(exchange)
            return False
        return True

    def complete(self, trip: dict[str, Any]) -> None:
        """Send ``ride_complete`` and wait for the server's verdict (blocking, for scripts and tests; the app
        uses :meth:`DispatchTripsClient.submit`).  NetworkError when the socket is down or the answer does not
        come; RejectedError when the server refuses the ride for good."""
        raise_for(DispatchTripsClient(self).wait(ride_complete_frame(trip), completes_ride(int(trip["ride_id"])), ride_result))

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

    # Complexity kept: the socket's reconnect loop: each branch is a close code or refusal the protocol defines.
    async def _run(self) -> None:  # noqa: C901
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidStatus

        attempt = handovers = 0
        while not self._closing.is_set():
            close_code, self._refusal = None, {}
            try:
                ws = await self._unless_closing(connect(
                    self.url, additional_headers={"Authorization": f"Token {self.token}"}, open_timeout=self.open_timeout,
                    close_timeout=CLOSE_TIMEOUT_S, max_size=2 ** 21, logger=socket_log))
                if ws is None:
                    return  # closed during the handshake
                async with ws:
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
                    self.online, handovers = False, 0
                    self._deliver({"type": "connection", "online": False})
                self._ws, self._outbox = None, None
                while self._exchanges:  # their answers, if any, were lost with the connection
                    self._exchanges.popleft().resolve(None, ConnectionError("connection lost"))
            if close_code == SESSION_ENDED:  # reconnecting with this token would be refused
                self.stopped_reason = "auth"
                self._deliver({"type": "connection", "online": False, "reason": "auth"})
                return
            if close_code == POLICY_CLOSE and self._refusal.get("code") == "cab_in_use" and handovers < CAB_IN_USE_RETRIES:
                handovers += 1
            elif close_code == POLICY_CLOSE:  # suspended / not allowed: reconnecting would be refused again
                self.stopped_reason = "policy"
                self._deliver({"type": "connection", "online": False, "reason": "policy",
                               "message": str(self._refusal.get("message") or "")})
                return
            delay = self.backoff[min(attempt, len(self.backoff) - 1)] * random.uniform(0.8, 1.2)
            attempt += 1
            try:
                await asyncio.wait_for(self._closing.wait(), delay)
            except asyncio.TimeoutError:
                pass

    async def _unless_closing(self, opening) -> Any:
        """``await opening`` (the handshake), or None as soon as :meth:`close` is asked: a handshake that hangs
        (a captive portal, a dying network) would otherwise hold ``close`` -- the logout, on the UI thread --
        for ``open_timeout``."""
        handshake = asyncio.ensure_future(opening)
        closing = asyncio.ensure_future(self._closing.wait())
        try:
            await asyncio.wait({handshake, closing}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            closing.cancel()
        if not handshake.done():
            handshake.cancel()
            return None
        return handshake.result()

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
            elif kind == "error" and not self.online:  # the central refused this connection: said once final
                self._refusal = frame
                continue
            if self._exchanges:
                head = self._exchanges[0]
                if kind == "pong":  # the end of the oldest exchange: its answer, if nothing else answered
                    self._exchanges.popleft()
                    head.resolve(frame)
                    continue
                if not head.resolved and head.match(frame):
                    head.resolve(frame)
                    continue
            if kind == "pong":
                continue
            self._deliver(frame)

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
            self._outbox.put_nowait(inbound.STATUS(status=self._status))
        if self._position is not None:
            self._outbox.put_nowait(self._position)
