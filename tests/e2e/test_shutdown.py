"""Daphne stops promptly when asked (SIGTERM, as ``docker compose stop`` and the e2e teardown do)."""

import asyncio
import signal
import time

import pytest

from .client import driver, passenger

pytestmark = pytest.mark.e2e


def test_a_loaded_daphne_exits_within_two_seconds_of_sigterm(platform):
    """Connected cabs, a passenger whose request is being offered, the offer worker still loading Django:
    the process exits at once instead of waiting for its offering workers (dispatch.offering.stop)."""
    world = platform.world
    port = platform.start(1)[-1]  # a process of its own, first connections just made: its worker is still starting
    process = platform.processes[-1]
    lat, lon = world["centre"]

    async def scenario():
        cabs = [await driver(port, cab["token"]) for cab in world["cabs"][:3]]
        for cab in cabs:
            await cab.recv_until("snapshot")
        p = await passenger(port, world["other_passenger_token"])
        await p.send(type="ride_request", pickup={"lat": lat, "lon": lon})
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        while process.poll() is None and time.monotonic() - started < 10:
            await asyncio.sleep(0.05)
        return time.monotonic() - started

    took = asyncio.run(scenario())
    assert process.poll() == 0, "Daphne did not exit by itself within 10 s of SIGTERM"
    assert took < 2.0, f"Daphne took {took:.1f} s to exit"
