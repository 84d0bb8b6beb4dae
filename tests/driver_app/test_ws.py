"""WsDispatchClient against a small local websocket server (no Django): header token, wire frames both ways,
callbacks through ``post``, reconnection restoring the offer and the ride, refusals and session ends. Finished
trips on the socket: tests/driver_app/test_socket_trips.py."""

from __future__ import annotations

import threading
import time

import pytest

from driver_app.clients import NetworkError, RejectedError
from driver_app.socket_trips import street_trip_frame
from driver_app.ws import DispatchTripsClient, UiQueue, WsDispatchClient, ws_url
from taxiwire import inbound

from .ws_server import OFFER, Server, server, wait_for  # noqa: F401  (server: the fixture)


def test_urls():
    assert ws_url("http://h:8000") == "ws://h:8000/ws/driver/"
    assert ws_url("https://taxi.muriae.mg.gov.br/") == "wss://taxi.muriae.mg.gov.br/ws/driver/"


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
        assert wait_for(ui, lambda: any(m["type"] == "snapshot" for m in seen))
        assert server.headers[0]["Authorization"] == "Token good" and "good" not in server.paths[0]
        assert thread_of_callbacks == {threading.current_thread().name}  # run by the UI queue, not the socket
        assert [m["type"] for m in seen[:2]] == ["connection", "snapshot"]  # the frames as the central sent them
        assert seen[1]["offer"] == OFFER
        client.send(inbound.STATUS(status="livre"))
        client.send(inbound.POSITION(lat=-21.13, lon=-42.36, accuracy=4.0))
        client.send(inbound.OFFER_ACCEPT(offer_id=7))
        assert wait_for(ui, lambda: any(m["type"] == "offer_accepted" for m in seen))
        client.send(inbound.RIDE_ON_BOARD(ride_id=3))
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
