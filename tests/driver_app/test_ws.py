"""WsDispatchClient against a small local websocket server (no Django): header token, translation,
callbacks through ``post``, reconnection restoring the offer and the ride, ride_complete's verdict,
street trips (street_trip_complete) and finished trips sent without blocking the UI thread."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import pytest

from driver_app.clients import NetworkError, RejectedError, TripResult
from driver_app.frames import offer_to_app, ride_complete_frame, street_trip_frame, to_app, to_server
from driver_app.ws import DispatchTripsClient, UiQueue, WsDispatchClient, ws_url

OFFER = {"id": 7, "ride_id": 3, "status": "pending", "expires_at": "2026-03-04T13:00:20+00:00", "distance_m": 420,
         "reason": "táxi livre mais próximo (420 m)", "pickup": {"lat": -21.13, "lon": -42.36, "address": "Praça"}}


def test_urls_and_translation():
    assert ws_url("http://h:8000") == "ws://h:8000/ws/driver/"
    assert ws_url("https://taxi.muriae.mg.gov.br/") == "wss://taxi.muriae.mg.gov.br/ws/driver/"
    assert to_server({"type": "status", "state": "livre", "at": "x"}) == {"type": "status", "status": "livre"}
    assert to_server({"type": "status", "state": "a_caminho"}) is None  # the server sets it on accept
    assert to_server({"type": "status", "state": "ocupado", "flag": 1}) is None  # on board: the server sets it
    assert to_server({"type": "status", "state": "ocupado", "flag": 1, "street": True}) == {"type": "status", "status": "ocupado"}
    assert to_server({"type": "accept", "offer_id": 7}) == {"type": "offer_accept", "offer_id": 7}
    assert to_server({"type": "decline", "offer_id": 7, "reason": "busy"}) == {"type": "offer_decline", "offer_id": 7}
    assert to_server({"type": "position", "lat": 1.0, "lon": 2.0, "accuracy_m": 5.0, "at": "x"}) == {
        "type": "position", "lat": 1.0, "lon": 2.0, "accuracy": 5.0}
    assert to_server({"type": "rank_check_in", "rank_id": 2}) == {"type": "rank_check_in", "rank_id": 2}
    app_offer = offer_to_app(OFFER)
    assert app_offer["offer_id"] == 7 and app_offer["ride_id"] == 3 and app_offer["pickup"]["address"] == "Praça"
    assert to_app({"type": "offer_closed", "offer_id": 7, "status": "expired"})[0]["type"] == "offer_cancelled"
    snap = to_app({"type": "snapshot", "cab": {}, "offer": OFFER, "ride": None})
    assert [m["type"] for m in snap] == ["snapshot", "offer"]


def test_ride_complete_frame_carries_total_and_trace_and_thins_long_traces():
    trace = [{"t": f"2026-03-04T10:00:{i % 60:02d}-03:00", "lat": -21.13, "lon": -42.36, "accuracy_m": 5.0}
             for i in range(20000)]
    frame = ride_complete_frame({"ride_id": "9", "total": "12.30", "trace": trace})
    assert frame["type"] == "ride_complete" and frame["ride_id"] == 9 and frame["meter_total"] == "12.30"
    assert len(frame["trace"]) <= 9000 and frame["trace"][-1] == trace[-1]


class Server:
    """A websocket server in a thread that behaves like /ws/driver/ for the parts under test."""

    def __init__(self):
        self.headers: list[dict] = []
        self.paths: list[str] = []
        self.received: list[dict] = []
        self.ride = None
        self.offer = OFFER
        self.connections = []
        self.street: dict[str, int] = {}  # trip_id -> ride id: recorded once
        self.street_refusal = None  # an error frame to answer street trips with
        self.hold = threading.Event()  # street trips are answered only while set
        self.hold.set()
        self.refusals: list[dict] = []  # error frames that refuse the next connections, each with a policy close
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.ready.wait(10)

    def _run(self):
        from websockets.asyncio.server import serve

        async def handler(ws):
            self.headers.append({"Authorization": ws.request.headers.get("Authorization")})
            self.paths.append(ws.request.path)
            if ws.request.headers.get("Authorization") != "Token good":
                await ws.close(4401)
                return
            if self.refusals:  # like the consumer: accepted, told why, closed
                await ws.send(json.dumps(self.refusals.pop(0)))
                await ws.close(4008)
                return
            self.connections.append(ws)
            await ws.send(json.dumps({"type": "snapshot", "cab": {"status": "fora_de_servico"},
                                      "offer": self.offer, "ride": self.ride}))
            from websockets.exceptions import ConnectionClosed

            try:
                await loop_frames(ws)
            except ConnectionClosed:  # the test dropped the connection
                pass

        async def loop_frames(ws):
            async for raw in ws:
                frame = json.loads(raw)
                self.received.append(frame)
                if frame["type"] == "ping":
                    await ws.send(json.dumps({"type": "pong"}))
                elif frame["type"] == "offer_accept":
                    self.offer, self.ride = None, {"id": 3, "status": "accepted", "pickup": OFFER["pickup"]}
                    await ws.send(json.dumps({"type": "offer_accepted", "ride_id": 3}))
                elif frame["type"] == "ride_on_board":
                    self.ride["status"] = "on_board"
                    await ws.send(json.dumps({"type": "ride_updated", "ride": self.ride}))
                elif frame["type"] == "ride_complete":
                    if self.ride and self.ride["status"] == "on_board":
                        done, self.ride = dict(self.ride, status="completed"), None
                        await ws.send(json.dumps({"type": "ride_updated", "ride": done}))
                    else:
                        await ws.send(json.dumps({"type": "error", "code": "wrong_state", "message": "A corrida está em “concluída”."}))
                elif frame["type"] == "street_trip_complete":  # like the consumer: one frame at a time
                    while not self.hold.is_set():
                        await asyncio.sleep(0.01)
                    if self.street_refusal:
                        await ws.send(json.dumps(dict(self.street_refusal, trip_id=frame["trip_id"])))
                        continue
                    duplicate = frame["trip_id"] in self.street
                    ride_id = self.street.setdefault(frame["trip_id"], 100 + len(self.street))
                    await ws.send(json.dumps({"type": "street_trip_recorded", "trip_id": frame["trip_id"], "ride_id": ride_id,
                                              "fare": frame["meter_total"], "server_total": frame["meter_total"],
                                              "meter_disagreement": False, "duplicate": duplicate}))

        async def main():
            async with serve(handler, "127.0.0.1", 0) as server:
                self.port = server.sockets[0].getsockname()[1]
                self.stop = asyncio.Event()
                self.ready.set()
                await self.stop.wait()

        self.loop.run_until_complete(main())

    def drop_all(self):
        for ws in list(self.connections):
            self.loop.call_soon_threadsafe(ws.transport.abort)
        self.connections.clear()

    def end_sessions(self):
        """Like the consumer when the token is revoked or expires: ``error`` ``session_ended``, then a 4401 close."""
        async def end(ws):
            await ws.send(json.dumps({"type": "error", "code": "session_ended", "message": "Sua sessão terminou."}))
            await ws.close(4401)

        for ws in list(self.connections):
            asyncio.run_coroutine_threadsafe(end(ws), self.loop)
        self.connections.clear()

    def close(self):
        self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(5)


@pytest.fixture
def server():
    s = Server()
    yield s
    s.close()


def wait_for(ui: UiQueue, condition, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ui.drain()
        if condition():
            return True
        ui.wait(0.05)
    return False


def test_debug_output_never_shows_the_token(server, caplog):
    """At DEBUG the socket library logs the handshake's headers: the token is redacted."""
    import logging

    ui = UiQueue()
    seen: list[dict] = []
    client = WsDispatchClient(f"http://127.0.0.1:{server.port}", post=ui, backoff=(0.1,))
    with caplog.at_level(logging.DEBUG):
        try:
            client.connect("good", seen.append)
            assert wait_for(ui, lambda: any(m["type"] == "snapshot" for m in seen))
        finally:
            client.close()
    app = "\n".join(r.getMessage() for r in caplog.records if r.name.startswith("driver_app"))  # not the test's server
    assert "> Authorization: Token ***" in app  # the header was logged, redacted
    assert "good" not in app


def test_header_token_offer_reconnect_and_complete(server):
    ui = UiQueue()
    seen: list[dict] = []
    thread_of_callbacks: set[str] = set()

    def listener(msg):
        thread_of_callbacks.add(threading.current_thread().name)
        seen.append(msg)

    client = WsDispatchClient(f"http://127.0.0.1:{server.port}", post=ui, backoff=(0.1,))
    try:
        client.connect("good", listener)
        assert wait_for(ui, lambda: any(m["type"] == "offer" for m in seen))
        assert server.headers[0]["Authorization"] == "Token good" and "good" not in server.paths[0]
        assert thread_of_callbacks == {threading.current_thread().name}  # run by the UI queue, not the socket
        assert [m["type"] for m in seen[:3]] == ["connection", "snapshot", "offer"]
        client.send({"type": "status", "state": "livre"})
        client.send({"type": "position", "lat": -21.13, "lon": -42.36, "accuracy_m": 4.0})
        client.send({"type": "accept", "offer_id": 7})
        assert wait_for(ui, lambda: any(m["type"] == "offer_accepted" for m in seen))
        client.send({"type": "ride_on_board", "ride_id": 3})
        assert wait_for(ui, lambda: server.ride["status"] == "on_board")

        # the network drops: the client comes back, gets the ride from the snapshot, re-sends status/position
        seen.clear()
        before = len(server.received)
        server.drop_all()
        assert wait_for(ui, lambda: [m for m in seen if m["type"] == "connection" and not m["online"]])
        assert wait_for(ui, lambda: client.online and any(m["type"] == "snapshot" for m in seen))
        snapshot = [m for m in seen if m["type"] == "snapshot"][0]
        assert snapshot["ride"]["status"] == "on_board" and client.connections == 2
        assert wait_for(ui, lambda: "position" in {f["type"] for f in server.received[before:]})
        # with a ride on board the server owns the cab's status: "livre" is not sent again
        assert "status" not in {f["type"] for f in server.received[before:]}
        assert server.headers[-1]["Authorization"] == "Token good"

        trips = DispatchTripsClient(client)
        trip = {"trip_id": "t1", "ride_id": 3, "total": "18.80",
                "trace": [{"t": "2026-03-04T10:00:00-03:00", "lat": -21.13, "lon": -42.36, "accuracy_m": 5.0}]}
        trips.upload("good", trip)  # ride_updated after ride_complete: accepted
        complete = [f for f in server.received if f["type"] == "ride_complete"][0]
        assert complete["meter_total"] == "18.80" and complete["trace"][0]["accuracy_m"] == 5.0
        with pytest.raises(RejectedError) as exc:
            trips.upload("good", trip)  # not on board any more
        assert exc.value.code == "wrong_state"
        # a street hail (no ride): street_trip_complete, answered with the ride the server recorded
        hail = {"trip_id": "5f0c3c1e9f7a4e7d8a5b2c1d0e9f8a7b", "ride_id": None, "total": "7.00",
                "started_at": "2026-03-04T10:00:00-03:00", "stopped_at": "2026-03-04T10:05:00-03:00",
                "trace": trip["trace"]}
        trips.upload("good", hail)
        trips.upload("good", hail)  # sent again (a lost answer): the server records it once
        sent = [f for f in server.received if f["type"] == "street_trip_complete"]
        assert len(sent) == 2 and sent[0] == street_trip_frame(hail) and list(server.street) == [hail["trip_id"]]
    finally:
        client.close()
    with pytest.raises(NetworkError):
        client.complete({"ride_id": 3, "total": "1.00", "trace": []})


def test_refused_handshake_stops_reconnecting(server):
    ui = UiQueue()
    seen: list[dict] = []
    client = WsDispatchClient(f"http://127.0.0.1:{server.port}", post=ui, backoff=(0.05,))
    try:
        client.connect("bad", seen.append)
        assert wait_for(ui, lambda: client.stopped_reason != "" or len(server.paths) > 3)
    finally:
        client.close()
    # 4401 before accept: the server refuses the handshake, or closes at once; either way no offer
    assert not [m for m in seen if m.get("type") == "offer"]


CAB_IN_USE = {"type": "error", "code": "cab_in_use", "message": "Este táxi já está em serviço com outro motorista conectado."}


def connected_after(server, refusals):
    """The client's messages, and whether it came online, when the central first refuses ``refusals``."""
    server.refusals = list(refusals)
    ui, seen = UiQueue(), []
    client = WsDispatchClient(f"http://127.0.0.1:{server.port}", post=ui, backoff=(0.05,))
    try:
        client.connect("good", seen.append)
        wait_for(ui, lambda: client.online or client.stopped_reason != "")
        return seen, client.online, client.stopped_reason
    finally:
        client.close()


def test_a_cab_in_use_refusal_is_tried_again_while_the_other_driver_leaves(server):
    from driver_app.ws import CAB_IN_USE_RETRIES

    seen, online, stopped = connected_after(server, [CAB_IN_USE] * CAB_IN_USE_RETRIES)
    assert online and stopped == "" and len(server.paths) == CAB_IN_USE_RETRIES + 1
    assert not [m for m in seen if m.get("type") == "error"]  # a refusal tried again is not shown


def test_a_cab_still_in_use_stops_with_the_centrals_reason(server):
    from driver_app.ws import CAB_IN_USE_RETRIES

    seen, online, stopped = connected_after(server, [CAB_IN_USE] * (CAB_IN_USE_RETRIES + 1))
    assert not online and stopped == "policy" and len(server.paths) == CAB_IN_USE_RETRIES + 1
    assert seen[-1] == {"type": "connection", "online": False, "reason": "policy", "message": CAB_IN_USE["message"]}


def test_any_other_policy_refusal_is_final_at_once(server):
    refusal = {"type": "error", "code": "not_allowed", "message": "CVI vencido (Art. 51)"}
    seen, online, stopped = connected_after(server, [refusal, refusal])
    assert not online and stopped == "policy" and len(server.paths) == 1
    assert seen[-1]["message"] == "CVI vencido (Art. 51)"


def meter_on(client, store, clock, ui):
    from driver_app.gps import ReplayGps
    from driver_app.viewmodels import MeterViewModel
    from taxilaw.tariffs import MURIAE_DEMO_TARIFF

    gps = ReplayGps([(-21.13 - i * 0.00005, -42.36, 5.0) for i in range(60)], clock)
    vm = MeterViewModel(store, MURIAE_DEMO_TARIFF, gps, clock, trips=DispatchTripsClient(client), token=lambda: "good",
                        save_every_s=0, post=ui)
    return vm, gps


def street_trip(vm, gps, clock, seconds=20) -> float:
    vm.start()
    for _ in range(seconds):
        clock.advance(1)
        gps.step()
    started = time.perf_counter()
    vm.stop()
    return time.perf_counter() - started


@pytest.mark.article("Art. 43")
def test_a_street_trip_ends_at_once_while_the_central_takes_its_time(server, store, clock):
    ui = UiQueue()
    client = WsDispatchClient(f"http://127.0.0.1:{server.port}", post=ui, backoff=(0.1,))
    try:
        client.connect("good", lambda message: None)
        assert wait_for(ui, lambda: client.online)
        vm, gps = meter_on(client, store, clock, ui)
        server.hold.clear()  # the central answers only when the test says so
        took = street_trip(vm, gps, clock)
        assert took < 0.5 and vm.sync_text == "Enviando à central: aguardando confirmação…"
        assert vm.status_text == f"Corrida encerrada: cobrar {vm.total_text}"
        assert wait_for(ui, lambda: any(f["type"] == "street_trip_complete" for f in server.received))
        frame = [f for f in server.received if f["type"] == "street_trip_complete"][0]
        assert frame["meter_total"] == str(vm.last.total) and frame["trip_id"] == vm.queue[0]["trip_id"]
        assert frame["started_at"] == vm.queue[0]["started_at"] and len(frame["trace"]) == 20
        assert vm.sending is not None  # no answer yet
        server.hold.set()
        assert wait_for(ui, lambda: vm.sending is None)
        assert vm.queue == [] and vm.sync_text == "Corrida de rua registrada na central (nº 100)."

        # the server refuses the next one for good: dropped, with the server's message
        server.street_refusal = {"type": "error", "code": "cab_busy",
                                 "message": "Este táxi tem uma corrida da central em andamento."}
        street_trip(vm, gps, clock)
        assert wait_for(ui, lambda: vm.sending is None)
        assert vm.queue == [] and vm.sync_text == ("Corrida de rua recusada pela central: "
                                                   "Este táxi tem uma corrida da central em andamento.")
        assert store.load("sync_rejected")[0]["rejected"] == "cab_busy"
        server.street_refusal = None

        # no answer in time (a lost answer): kept, and sent again later; the server records it once
        client.complete_timeout = 0.3
        server.hold.clear()
        street_trip(vm, gps, clock)
        assert wait_for(ui, lambda: vm.sending is None)
        assert len(vm.queue) == 1 and vm.sync_text == "1 corrida aguardando conexão"
        server.hold.set()
        time.sleep(0.2)  # a duration, not a wait: the central's late answer arrives before the next try
        vm.sync()
        assert vm.sending is None  # the central answered late: wait before trying again
        clock.advance(31)
        vm.sync()
        assert wait_for(ui, lambda: not vm.queue)
        assert len([f for f in server.received if f["type"] == "street_trip_complete"]) == 4
        assert len(server.street) == 2
    finally:
        server.hold.set()
        client.close()


def test_without_a_connection_the_trip_is_queued_at_once_and_sent_on_reconnection(server, store, clock):
    ui = UiQueue()
    client = WsDispatchClient(f"http://127.0.0.1:{server.port}", post=ui, backoff=(0.1,))
    vm, gps = meter_on(client, store, clock, ui)
    street_trip(vm, gps, clock)  # never connected
    assert vm.sending is None and len(vm.queue) == 1 and vm.sync_text == "1 corrida aguardando conexão"
    try:
        client.connect("good", lambda message: message.get("online") and vm.sync(force=True))
        trip_id = vm.queue[0]["trip_id"]
        assert wait_for(ui, lambda: not vm.queue)
        assert list(server.street) == [trip_id] and store.load("sync_queue") == []
    finally:
        client.close()


def test_closing_the_socket_answers_the_trip_in_flight(server, store, clock):
    ui = UiQueue()
    client = WsDispatchClient(f"http://127.0.0.1:{server.port}", post=ui, backoff=(0.1,))
    client.connect("good", lambda message: None)
    assert wait_for(ui, lambda: client.online)
    vm, gps = meter_on(client, store, clock, ui)
    server.hold.clear()
    try:
        street_trip(vm, gps, clock)
        assert vm.sending is not None
    finally:
        client.close()
        server.hold.set()
    assert wait_for(ui, lambda: vm.sending is None) and len(vm.queue) == 1
    assert vm.sync_text == "1 corrida aguardando conexão"


def test_answers_to_trips_are_sorted_into_confirmed_queued_and_rejected():
    from driver_app import frames, ws

    uid = "5f0c3c1e-9f7a-4e7d-8a5b-2c1d0e9f8a7b"
    match = frames.records_street_trip(uid.replace("-", ""))
    assert match({"type": "street_trip_recorded", "trip_id": uid, "ride_id": 4})
    assert not match({"type": "street_trip_recorded", "trip_id": "00000000-0000-0000-0000-000000000000"})
    assert match({"type": "error", "code": "cab_busy", "trip_id": uid})
    assert match({"type": "error", "code": "invalid", "fields": {"trace": ["vazio"]}})  # the frame as a whole
    assert not match({"type": "error", "code": "offer_gone", "message": "outra coisa"})
    street = ws._street_result
    assert street({"type": "street_trip_recorded", "ride_id": 4}, None).outcome == TripResult.CONFIRMED
    refused = street({"type": "error", "code": "invalid", "message": "Mensagem inválida.",
                      "fields": {"trace": {"non_field_errors": ["Pelo menos 1 elemento."]}}}, None)
    assert refused.outcome == TripResult.REJECTED and refused.message == "Mensagem inválida. (trace: Pelo menos 1 elemento.)"
    later = street({"type": "error", "code": "not_allowed", "message": "CMT vencida.", "trip_id": uid}, None)
    assert later.outcome == TripResult.QUEUED and later.retry_in == ws.RETRY_S and later.message == "CMT vencida."
    assert street({"type": "error", "code": "unknown_type", "message": "?"}, None).outcome == TripResult.QUEUED
    assert street(None, ConnectionError()).retry_in == 0 and street(None, TimeoutError()).retry_in == ws.RETRY_S
    ride = ws._ride_result
    assert ride({"type": "ride_updated", "ride": {"id": 3, "status": "completed"}}, None).outcome == TripResult.CONFIRMED
    assert ride({"type": "pong"}, None).outcome == TripResult.QUEUED  # no answer of its own: never taken as success
    assert frames.completes_ride(3)({"type": "ride_updated", "ride": {"id": 3}}) and not frames.completes_ride(3)({"type": "ride_updated", "ride": {"id": 4}})
    assert ride({"type": "error", "code": "wrong_state"}, None).outcome == TripResult.REJECTED
    assert ride({"type": "error", "code": "internal"}, None).outcome == TripResult.QUEUED


def _silent_peer(handshake: bool):
    """A TCP server that answers the websocket handshake (or not) and then never says anything again: a
    captive portal, a network that died without a word."""
    import base64
    import hashlib
    import socket

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    accepted, kept = threading.Event(), []

    def serve():
        conn, _ = srv.accept()
        kept.append(conn)  # open, and silent
        data = b""
        while b"\r\n\r\n" not in data:
            data += conn.recv(4096)
        if handshake:
            key = next(line.split(b":", 1)[1].strip() for line in data.split(b"\r\n")
                       if line.lower().startswith(b"sec-websocket-key"))
            accept = base64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
            conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                         b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n")
        accepted.set()

    threading.Thread(target=serve, daemon=True).start()
    return srv, accepted, kept


@pytest.mark.parametrize("handshake, bound_s", [(False, 0.5), (True, 2.0)])
def test_close_returns_at_once_when_the_network_went_silent(handshake, bound_s):
    """close() runs on the UI thread (logout, an expired token): neither a hanging handshake (open_timeout 10 s)
    nor a peer that never answers the close frame (websockets' default 10 s) holds it."""
    srv, accepted, kept = _silent_peer(handshake)
    client = WsDispatchClient(f"http://127.0.0.1:{srv.getsockname()[1]}", post=UiQueue())
    try:
        client.connect("good", lambda message: None)
        assert accepted.wait(5)
        time.sleep(0.2)  # a duration, not a wait: the handshake answered (or hanging)
        started = time.perf_counter()
        client.close()
        assert time.perf_counter() - started < bound_s
    finally:
        for sock in [srv, *kept]:
            sock.close()


def test_a_session_ended_by_the_central_stops_reconnecting_and_asks_to_log_in_again(server, tmp_path, clock):
    """A logout elsewhere or an expired token closes the open socket with 4401: the client stops (reconnecting would
    be refused), and the session forgets the token so that the login screen asks for the password again."""
    from driver_app.session import build_session
    from driver_app.viewmodels import Navigator

    ui = UiQueue()
    session = build_session(tmp_path / "app", demo=True, clock=clock)
    session.login.login("demo", "demo")
    client = WsDispatchClient(f"http://127.0.0.1:{server.port}", post=ui, backoff=(0.05,))
    session.dispatch = client
    try:
        client.connect("good", session.on_dispatch)
        assert wait_for(ui, lambda: client.online)
        server.end_sessions()
        assert wait_for(ui, lambda: client.stopped_reason == "auth")
        ui.drain()
    finally:
        client.close()
    assert len(server.paths) == 1  # never tried again with the dead token
    assert not session.login.logged_in and session.login.error == "Sessão expirada. Entre novamente."
    assert session.ride.message == "Sessão expirada: entre novamente."
    assert Navigator().screen_for("flag", False, "", meter_running=False, logged_in=session.login.logged_in) == "login"
