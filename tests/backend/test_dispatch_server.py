"""dispatch.transport.server: Daphne's per-connection sweeps, incremental, with Daphne's own semantics."""

import asyncio

import pytest

from dispatch.transport import server as sweep


class Protocol:
    def __init__(self):
        self.checked = 0

    def check_timeouts(self):
        self.checked += 1


@pytest.fixture
def server(monkeypatch):
    monkeypatch.setattr(sweep.reactor, "callLater", lambda *args, **kwargs: None)  # each sweep is called by hand
    server = sweep.IncrementalSweepServer(application=None, endpoints=["tcp:port=0"], signal_handlers=False)
    server.connections = {}  # as Server.run does before it listens
    return server


def test_reaping_looks_at_what_finished_or_closed_and_keeps_the_rest(server):
    running, closed, finished, closing = Protocol(), Protocol(), Protocol(), Protocol()
    forever = {running, closing}

    async def app(scope, receive, send):
        if scope["who"] in forever:
            await asyncio.Event().wait()

    async def connect_all():
        server.application = app
        for protocol in (running, closed, finished, closing):
            server.protocol_connected(protocol)
            server.create_application(protocol, {"type": "websocket", "who": protocol})
        await asyncio.sleep(0.01)  # a duration, not a wait: the two short applications finish; their done callbacks run
        server.protocol_disconnected(closed)
        server.protocol_disconnected(closing)
        server.application_checker()
        return dict(server.connections), set(server._to_reap)

    connections, to_reap = asyncio.run(connect_all())
    assert closed not in connections  # disconnected and its application done: gone, as Daphne does
    assert "application_instance" not in connections[finished]  # finished while connected: reaped, kept
    assert "application_instance" in connections[running]  # nothing happened to it
    assert "application_instance" in connections[closing] and to_reap == {closing}  # looked at again next second


def test_every_connection_is_checked_once_per_period_in_slices(server):
    protocols = [Protocol() for _ in range(100)]
    for protocol in protocols:
        server.protocol_connected(protocol)
    slices = round(sweep.TIMEOUT_PERIOD_SECONDS / sweep.TIMEOUT_SLICE_SECONDS)
    server.timeout_checker()
    assert sum(p.checked for p in protocols) == 100 // slices
    for _ in range(slices - 1):
        server.timeout_checker()
    assert [p.checked for p in protocols] == [1] * 100
    server.timeout_checker()  # the next period starts over
    assert sum(p.checked for p in protocols) == 100 + 100 // slices


def test_it_listens_with_a_long_queue_unless_an_endpoint_names_its_own():
    server = sweep.IncrementalSweepServer(application=None, signal_handlers=False, endpoints=[
        "tcp:port=8000:interface=127.0.0.1", "unix:/run/daphne.sock", "tcp:port=8001:backlog=10", "fd:fileno=3"])
    assert server.endpoints == [
        f"tcp:port=8000:interface=127.0.0.1:backlog={sweep.LISTEN_BACKLOG}", f"unix:/run/daphne.sock:backlog={sweep.LISTEN_BACKLOG}",
        "tcp:port=8001:backlog=10", "fd:fileno=3"]
