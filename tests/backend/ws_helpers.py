"""In-process websocket clients for consumer tests (Channels' ``WebsocketCommunicator``, no server)."""

from __future__ import annotations

import asyncio
import json

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.authtoken.models import Token

from dispatch import wire
from dispatch.models import Cab

ACTIVE = ("accepted", "arriving", "on_board")
OPEN = ("requested", "offered", *ACTIVE)


class Client:
    """One connection: validates every frame it receives and keeps the state a client keeps."""

    def __init__(self, role: str, communicator: WebsocketCommunicator, seen: set):
        self.role, self.ws, self.seen = role, communicator, seen
        self.state: dict = {}

    async def recv(self, timeout: float = 4.0) -> dict:
        # The output queue itself: the communicator's receive_from cancels the consumer when it times out.
        message = await asyncio.wait_for(self.ws.output_queue.get(), timeout)
        if message["type"] == "websocket.close":
            return {"type": "closed"}
        frame = json.loads(message["text"])
        wire.validate(self.role, frame)
        self.seen.add((self.role, frame["type"]))
        self.apply(frame)
        return frame

    async def until(self, kind: str, timeout: float = 6.0, where=lambda f: True) -> dict:
        async def wait():
            while True:
                frame = await self.recv(timeout)
                if frame["type"] == kind and where(frame):
                    return frame
                assert frame["type"] != "error", f"waiting for {kind}, refused: {frame}"

        return await asyncio.wait_for(wait(), timeout)

    async def send(self, **frame) -> None:
        await self.ws.send_to(text_data=json.dumps(frame, default=str))

    async def ask(self, kind: str, **frame) -> dict:
        """Send a frame and return its answer (the next frame of type ``kind``, or a refusal)."""
        await self.send(**frame)
        return await self.until(kind)

    async def drain(self) -> None:
        while not await self.ws.receive_nothing(0.4):
            await self.recv()

    def apply(self, frame: dict) -> None:
        kind, state = frame["type"], self.state
        if kind == "snapshot":
            self.state = {k: v for k, v in frame.items() if k != "type"}
            if self.role == "passenger":
                self.state["rides"] = {r["id"]: r for r in frame["rides"]}
            if self.role == "operator":
                self.state["rides"] = {r["id"]: r for r in frame["rides"]}
                self.state["cabs"] = {c["id"]: c for c in frame["cabs"]}
        elif self.role == "driver":
            if kind == "offer":
                state["offer"] = frame["offer"]
            elif kind in ("offer_closed", "offer_declined"):
                state["offer"] = None
            elif kind == "offer_accepted":
                state["offer"], state["ride"] = None, frame["ride"]
            elif kind == "ride_updated":
                state["ride"] = frame["ride"] if frame["ride"]["status"] in ACTIVE else None
            elif kind == "ride_cancelled":
                state["ride"] = None
            elif kind == "presence":
                state["cab"] = dict(state["cab"], online=frame["online"])
        elif kind in ("ride_update", "escalation"):
            ride = frame["ride"]
            if ride["status"] in OPEN:
                state["rides"][ride["id"]] = ride
            else:
                state["rides"].pop(ride["id"], None)
        elif kind == "cab_update":
            if frame["cab"]["online"]:
                state["cabs"][frame["cab"]["id"]] = frame["cab"]
            else:
                state["cabs"].pop(frame["cab"]["id"], None)
        elif kind == "sos_alert":  # 1.6: kept until an operator acknowledges it (docs/passenger-safety.md)
            state["sos_alerts"] = [*state.get("sos_alerts", []), frame["alert"]]
        elif kind == "positions":
            for moved in frame["cabs"]:
                if moved["id"] in state["cabs"]:
                    state["cabs"][moved["id"]].update(lat=moved["lat"], lon=moved["lon"], zone=moved["zone"])

    def view(self, state: dict):
        """What the client shows, from a state (its own or a fresh snapshot's)."""
        if self.role == "driver":
            offer, ride = state["offer"], state["ride"]
            return (offer and offer["id"], ride and (ride["id"], ride["status"], ride["version"]), state["cab"]["online"])
        rides = state["rides"] if isinstance(state["rides"], dict) else {r["id"]: r for r in state["rides"]}
        shown = {i: (r["status"], r["version"], r["escalated"]) for i, r in rides.items()}
        if self.role == "passenger":
            return shown
        cabs = state["cabs"] if isinstance(state["cabs"], dict) else {c["id"]: c for c in state["cabs"]}
        sos = sorted(a["id"] for a in state.get("sos_alerts", []))
        return shown, {i: (c["status"], c["lat"], c["lon"], c["zone"]) for i, c in cabs.items()}, sos



async def connect(consumer, path, user, role, seen) -> Client:
    """A connection of ``user``: a driver's with the token of its handshake, the others' with their session's user."""
    headers = [(b"origin", b"http://testserver")]
    if role == "driver":
        token = await database_sync_to_async(Token.objects.get_or_create)(user=user)
        headers.append((b"authorization", f"Token {token[0].key}".encode()))
    communicator = WebsocketCommunicator(consumer.as_asgi(), path, headers=headers)
    communicator.scope["user"] = user
    connected, _code = await communicator.connect(timeout=10)
    assert connected
    return Client(role, communicator, seen)


async def through_routing(path: str, headers=()) -> tuple[WebsocketCommunicator, bool, int | None]:
    """A connection through the real routing and its authentication (dispatch.transport.routing)."""
    from dispatch.transport.routing import websocket_application

    communicator = WebsocketCommunicator(websocket_application, path, headers=[(b"origin", b"http://testserver"), *headers])
    connected, code = await communicator.connect(timeout=10)
    return communicator, connected, code


async def positions_flushed(*points: tuple[float, float], timeout: float = 20.0) -> None:
    """Wait until the background flush has written a cab at each (lat, lon): the search reads the database.

    Polls instead of sleeping a guessed interval, which a loaded machine outlasts."""
    count = database_sync_to_async(lambda lat, lon: Cab.objects.filter(lat=lat, lon=lon).count())

    async def written():
        while True:
            if all([await count(lat, lon) for lat, lon in points]):
                return
            await asyncio.sleep(0.1)

    await asyncio.wait_for(written(), timeout)
