"""A small websocket client for the tests: a real connection to a running Daphne (websockets library)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from contextlib import closing

from websockets.asyncio.client import connect

FLUSH_TIMEOUT = 8.0  # positions are flushed in batches, every background tick: seconds on a loaded machine


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


def _cabs(world: dict, columns: str, permits) -> list[tuple]:
    """``columns`` of these permits' cabs, read from the platform's database as the dispatcher reads them."""
    marks, url = ", ".join("%s" for _ in permits), world["database_url"]
    sql = (f"SELECT p.number, {columns} FROM dispatch_cab c JOIN registry_permit p ON p.id = c.permit_id "
           f"WHERE p.number IN ({marks})")
    if url.startswith("sqlite:///"):
        with closing(sqlite3.connect(url.removeprefix("sqlite:///"), timeout=10)) as db:
            return db.execute(sql.replace("%s", "?"), list(permits)).fetchall()
    import psycopg

    with psycopg.connect(url) as db:
        return db.execute(sql, list(permits)).fetchall()


def cab_positions(world: dict, permits) -> dict[str, tuple]:
    """Where the platform's database has each of these permits' cabs: (lat, lon)."""
    return {number: (lat, lon) for number, lat, lon in _cabs(world, "c.lat, c.lon", permits)}


def cab_online(world: dict, permit: str) -> bool:
    """Whether the platform's database counts this permit's cab online (its presence)."""
    return any(bool(online) for _number, online in _cabs(world, "c.online", [permit]))


def _all_placed(world: dict, want: dict) -> bool:
    have = cab_positions(world, list(want))
    return all(have.get(permit) is not None and None not in have[permit]
               and abs(have[permit][0] - lat) < 1e-6 and abs(have[permit][1] - lon) < 1e-6
               for permit, (lat, lon) in want.items())


def wait_flushed(world: dict, *placed: tuple[dict, float, float], timeout: float = FLUSH_TIMEOUT) -> None:
    """Until the database has each ``(cab, lat, lon)`` at its position: the dispatcher now chooses from it."""
    want = {cab["permit"]: (lat, lon) for cab, lat, lon in placed}
    deadline = time.monotonic() + timeout
    while not _all_placed(world, want):
        if time.monotonic() > deadline:
            raise AssertionError(f"positions not flushed within {timeout} s: {want} vs {cab_positions(world, list(want))}")
        time.sleep(0.05)


async def flushed(world: dict, *placed: tuple[dict, float, float], timeout: float = FLUSH_TIMEOUT) -> None:
    """``wait_flushed`` without blocking the event loop the clients run on."""
    await asyncio.to_thread(wait_flushed, world, *placed, timeout=timeout)


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
    await flushed(world, (world["cabs"][1], lat - 0.003, lon), (world["cabs"][2], lat - 0.006, lon))
    return a, b
