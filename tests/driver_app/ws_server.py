"""A websocket server in a thread that behaves like the central's ``/ws/driver/`` for the driver app's socket tests
(tests/driver_app/test_ws.py, test_socket_trips.py), and the polling wait they share."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import pytest

from driver_app.ws import UiQueue

OFFER = {"id": 7, "ride_id": 3, "status": "pending", "expires_at": "2026-03-04T13:00:20+00:00", "distance_m": 420,
         "reason": "táxi livre mais próximo (420 m)", "pickup": {"lat": -21.13, "lon": -42.36, "address": "Praça"}}


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


