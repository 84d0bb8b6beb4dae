"""A logout (driver) or an erasure (passenger) served by Daphne closes that person's open socket with 4401 within
5 s, and nobody else's (issue 34). Expiry is tests/backend/test_socket_bounds.py (a token made to expire)."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request

import pytest

from dispatch import wire

from .client import Client, driver, passenger

pytestmark = pytest.mark.e2e
CLOSE_WITHIN_S = 5.0


def http(port: int, method: str, path: str, authorization: str) -> int:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method, data=b"",
                                     headers={"Authorization": authorization})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.status


async def closed_within(client: Client, seconds: float) -> tuple[int, list[dict]]:
    """The close code and the frames before it, polling the socket; fails if it stays open ``seconds``."""
    frames = []
    deadline = time.monotonic() + seconds
    try:
        while True:
            frames.append(json.loads(await asyncio.wait_for(client.ws.recv(), max(0.01, deadline - time.monotonic()))))
    except asyncio.TimeoutError:
        raise AssertionError(f"still open after {seconds} s; got {frames}") from None
    except Exception:  # the close, as the websockets library raises it
        return client.ws.close_code, frames


def test_a_logout_and_an_erasure_close_the_open_sockets(platform):
    world, (port,) = platform.world, platform.ports

    async def scenario():
        mine, other = world["cabs"][0], world["cabs"][1]
        d, bystander = await driver(port, mine["token"]), await driver(port, other["token"])
        await d.recv_until("snapshot"), await bystander.recv_until("snapshot")
        status = await asyncio.to_thread(http, port, "POST", "/api/auth/logout/", f"Token {mine['token']}")
        assert status == 204
        code, frames = await closed_within(d, CLOSE_WITHIN_S)
        assert code == wire.SESSION_ENDED and frames[-1]["code"] == "session_ended"

        p, q = await passenger(port, world["passenger_token"]), await passenger(port, world["other_passenger_token"])
        status = await asyncio.to_thread(http, port, "DELETE", "/api/passengers/me/", f"Passenger {world['passenger_token']}")
        assert status == 204
        code, frames = await closed_within(p, CLOSE_WITHIN_S)
        assert code == wire.SESSION_ENDED and frames[-1]["code"] == "session_ended"

        for client in (bystander, q):  # the others are served as before
            await client.send(type="ping")
            await client.recv_until("pong")
            await client.close()

    asyncio.run(scenario())
