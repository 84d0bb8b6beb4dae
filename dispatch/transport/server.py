"""Daphne with its per-connection sweeps made incremental: ``python -m dispatch.transport.server`` takes Daphne's arguments.

Daphne 4.2's ``Server`` walks every connection once a second (``application_checker``: reap finished applications
and closed connections) and every two seconds (``timeout_checker``: each protocol's ``check_timeouts``, which also
sends the keepalive pings). With thousands of websockets each walk is one burst on the event loop during which no
frame is read, and the tail of the request->offer latency (docs/dispatch-benchmark.md, "Measurements by module").

* Reaping is driven by events: a connection is looked at when its application finishes or its
  socket closes, not every second; what the check does to such a connection is Daphne's own code
  (``application_checker`` over just those connections), so its semantics are unchanged.
* The timeout walk is spread: every ``TIMEOUT_SLICE_SECONDS`` one slice of the connections is
  checked, so that each is still checked once per ``TIMEOUT_PERIOD_SECONDS`` (Daphne's period) but
  the work comes in small pieces instead of one burst.

And it listens with a longer queue of connections waiting to be accepted. Twisted's is 50: when a restart makes
thousands of phones reconnect within a second, the kernel drops the SYNs beyond it and each phone tries again
seconds later (TCP's retransmission), which stretched the storm for everyone. An endpoint that names its own
``backlog`` keeps it; the kernel caps the queue at ``net.core.somaxconn``.

And the process's dispatch work (``dispatch.transport.background_tick``: the tick, the announcement outbox, the offering
workers) starts with the server, not with its first websocket: a process nobody has connected to yet still expires
offers, dispatches the advance bookings falling due and the escalated rides, and answers ``/readyz``
(docs/operations.md).

And what a socket has sent but its consumer has not read yet is bounded (``BoundedWebSocketProtocol``): the
consumers' rate limit (``wire.LIMITS``) counts a frame when it is handled, and Daphne reads whatever arrives
meanwhile into an unbounded queue: a client sending large frames without pause filled the serving process's memory
long before its flood close (docs/dispatch-benchmark.md, "Measurements by module").

Its access log writes paths without query strings or receipt tokens (``backend.log_paths``).
"""

from __future__ import annotations

import logging

from daphne import server as daphne_server
from daphne.cli import CommandLineInterface
from daphne.ws_protocol import WebSocketProtocol
from twisted.internet import reactor

from backend.log_paths import redacted
from dispatch import wire

log = logging.getLogger(__name__)

TIMEOUT_PERIOD_SECONDS = 2.0  # daphne.server.Server.timeout_checker's period
TIMEOUT_SLICE_SECONDS = 0.1
LISTEN_BACKLOG = 4096
# Frames read from a socket and not yet handled by its consumer: twice what the rate limit lets through at once.
PENDING_FRAMES = 2 * max(limits.frames.burst for limits in wire.LIMITS.values())
PENDING_CHARS = 2 * max(limits.chars.burst for limits in wire.LIMITS.values())


def with_backlog(endpoint: str) -> str:
    """A TCP or Unix endpoint description with ``LISTEN_BACKLOG`` unless it names a backlog (an inherited socket has its own)."""
    kind = endpoint.split(":", 1)[0]
    return endpoint if kind not in ("tcp", "unix") or ":backlog=" in endpoint else f"{endpoint}:backlog={LISTEN_BACKLOG}"


def _length(message: dict) -> int:
    return len(message.get("text") or message.get("bytes") or "")


class BoundedWebSocketProtocol(WebSocketProtocol):
    """Daphne's websocket protocol that closes a socket (4008, a flood) whose unread frames pass ``PENDING_FRAMES``
    or ``PENDING_CHARS``, instead of queueing them: the sum is over at most ``PENDING_FRAMES`` messages."""

    flooded = False

    def onMessage(self, payload, isBinary):
        if self.flooded:
            return  # closing: nothing more is queued (Daphne's ``muted`` would also hide the disconnect from the consumer)
        queue = getattr(self, "application_queue", None)
        if not self.muted and queue is not None:
            pending = queue._queue  # asyncio.Queue's deque: what the consumer has not taken yet
            if len(pending) >= PENDING_FRAMES or sum(map(_length, pending)) + len(payload) > PENDING_CHARS:
                log.warning("websocket from %s closed: %d frames unread", self.client_addr, len(pending))
                self.flooded = True
                self.sendClose(code=wire.POLICY_CLOSE, reason="flood")
                return
        super().onMessage(payload, isBinary)


class IncrementalSweepServer(daphne_server.Server):
    def __init__(self, *args, endpoints=None, **kwargs):
        super().__init__(*args, endpoints=[with_backlog(e) for e in endpoints or []], **kwargs)
        self._to_reap: set = set()  # disconnected, or whose application finished
        self._timeout_queue: list = []
        self._timeout_cursor = 0

    def run(self):
        reactor.callLater(0, start_dispatch)  # called from within the running asyncio loop (startup triggers are not)
        super().run()

    @property
    def ws_factory(self):
        return self._ws_factory

    @ws_factory.setter
    def ws_factory(self, factory):  # made by Daphne's ``run``: its sockets are bounded ones
        factory.protocol = BoundedWebSocketProtocol
        self._ws_factory = factory

    # --- reaping ---------------------------------------------------------------------------------

    def protocol_disconnected(self, protocol):
        super().protocol_disconnected(protocol)
        self._to_reap.add(protocol)

    def create_application(self, protocol, scope):
        queue = super().create_application(protocol, scope)
        instance = self.connections.get(protocol, {}).get("application_instance")
        if instance is not None:
            instance.add_done_callback(lambda _future: self._to_reap.add(protocol))
        return queue

    def application_checker(self):
        """Daphne's own check (which reschedules itself), over the connections something happened to."""
        candidates, self._to_reap = self._to_reap, set()
        everything = self.connections
        checked = self.connections = {p: everything[p] for p in candidates if p in everything}
        try:
            super().application_checker()
        finally:
            self.connections = everything
        for protocol in candidates:
            if protocol not in everything:
                continue
            if protocol not in checked:  # Daphne let it go
                del everything[protocol]
            elif checked[protocol].get("disconnected") and checked[protocol].get("application_instance") is not None:
                self._to_reap.add(protocol)  # its application is still closing: look again next time

    def log_action(self, protocol, action, details):
        """Daphne's access log, without the query string or a signed link's token (``backend.log_paths``)."""
        super().log_action(protocol, action, redacted(details))

    # --- timeouts and keepalive pings ------------------------------------------------------------

    def timeout_checker(self):
        """Daphne's walk over every connection, one slice per call: each connection once per period."""
        if self._timeout_cursor >= len(self._timeout_queue):
            self._timeout_queue, self._timeout_cursor = list(self.connections), 0
        slices = max(1, round(TIMEOUT_PERIOD_SECONDS / TIMEOUT_SLICE_SECONDS))
        size = -(-len(self._timeout_queue) // slices)
        end = self._timeout_cursor + size
        for protocol in self._timeout_queue[self._timeout_cursor:end]:
            if protocol in self.connections:
                protocol.check_timeouts()
        self._timeout_cursor = end
        reactor.callLater(TIMEOUT_SLICE_SECONDS, self.timeout_checker)


def start_dispatch() -> None:
    """On the reactor's running asyncio loop, once Daphne loaded the application (and with it Django)."""
    from dispatch.transport import background_tick

    background_tick.ensure_running()


class CommandLine(CommandLineInterface):
    server_class = IncrementalSweepServer


class _NoHttp2Notice(logging.Filter):
    """Drops Daphne's "HTTP/2 support not enabled" warning at every start: HTTP/2 needs TLS in Twisted, and TLS ends
    at the reverse proxy in front of this process (docs/operations.md), so there is nothing to enable here; a
    newcomer's `make run` should not show a warning that asks for nothing. Every other Daphne message stays."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("HTTP/2 support not enabled")


def main() -> None:
    logging.getLogger("daphne.server").addFilter(_NoHttp2Notice())
    CommandLine.entrypoint()


if __name__ == "__main__":
    main()
