"""A small websocket client for the tests: a real connection to a running Daphne (websockets library)."""

from __future__ import annotations

import asyncio
import json

from websockets.asyncio.client import connect

TICK = 0.8  # more than two background ticks: positions are flushed in batches


class Client:
    def __init__(self, ws):
        self.ws = ws
        self.seen: list[dict] = []

    @classmethod
    async def open(cls, url: str, **kwargs) -> "Client":
        return cls(await connect(url, open_timeout=10, **kwargs))

    async def send(self, **frame) -> None:
        await self.ws.send(json.dumps(frame, default=str))

    async def recv_until(self, kind: str, timeout: float = 8.0, where=lambda m: True) -> dict:
        """The next message of type ``kind`` (that satisfies ``where``); others are kept in ``seen``."""

        async def wait():
            while True:
                message = json.loads(await self.ws.recv())
                self.seen.append(message)
                if message.get("type") == kind and where(message):
                    return message

        return await asyncio.wait_for(wait(), timeout)

    async def close(self) -> None:
        await self.ws.close()


async def driver(port: int, token: str) -> Client:
    return await Client.open(f"ws://127.0.0.1:{port}/ws/driver/", additional_headers={"Authorization": f"Token {token}"})


async def passenger(port: int, token: str) -> Client:
    client = await Client.open(f"ws://127.0.0.1:{port}/ws/passenger/", origin=f"http://127.0.0.1:{port}")
    await client.send(type="auth", token=token)
    await client.recv_until("snapshot")
    return client


async def operator(port: int, session: str) -> Client:
    return await Client.open(
        f"ws://127.0.0.1:{port}/ws/operator/",
        origin=f"http://127.0.0.1:{port}",
        additional_headers={"Cookie": f"sessionid={session}"},
    )


async def free_at(client: Client, lat: float, lon: float) -> None:
    """Announce the cab free at a position and wait for the snapshot to have passed."""
    await client.send(type="status", status="livre")
    await client.recv_until("status")
    await client.send(type="position", lat=lat, lon=lon)


async def two_free_cabs(port: int, world: dict) -> tuple[Client, Client]:
    """The world's second and third cabs connected and free south of its centre, the second nearer (0.003° against
    0.006°), once their positions have been flushed: a request just south of the centre is offered to it first."""
    lat, lon = world["centre"]
    a, b = await driver(port, world["cabs"][1]["token"]), await driver(port, world["cabs"][2]["token"])
    await a.recv_until("snapshot"), await b.recv_until("snapshot")
    await free_at(a, lat - 0.003, lon)
    await free_at(b, lat - 0.006, lon)
    await asyncio.sleep(TICK)
    return a, b
