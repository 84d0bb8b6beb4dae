"""Two Daphne processes on Redis: a process SIGKILLed mid-offer loses no ride and no offer (Art. 66)."""

import asyncio
import os
import signal

import pytest

from .client import driver, free_at, passenger
from .conftest import Platform

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="several processes share events only through Redis; CI's second run has it"),
]


@pytest.fixture
def two_processes(tmp_path):
    p = Platform(tmp_path)
    try:
        p.prepare()
        p.start(2)
        yield p
    finally:
        p.stop()


@pytest.mark.article("Art. 66")
def test_the_other_process_finishes_the_offer_of_a_killed_one(two_processes):
    world = two_processes.world
    first, second = two_processes.ports
    lat, lon = world["centre"]
    near, far = world["cabs"][0], world["cabs"][1]

    async def scenario():
        b, c = await driver(second, near["token"]), await driver(second, far["token"])
        await b.recv_until("snapshot"), await c.recv_until("snapshot")
        await free_at(b, lat - 0.003, lon)
        await free_at(c, lat - 0.006, lon)
        await asyncio.sleep(1.0)
        p = await passenger(first, world["passenger_token"])  # the request is handled by the first process
        await p.send(type="ride_request", pickup={"lat": lat - 0.002, "lon": lon})
        offer = (await b.recv_until("offer"))["offer"]
        two_processes.processes[0].send_signal(signal.SIGKILL)  # mid-offer: the process that made it dies
        # b does not answer; the second process's sweeper expires the offer and passes the ride on.
        second_offer = (await c.recv_until("offer", timeout=15))["offer"]
        assert second_offer["ride_id"] == offer["ride_id"]
        await c.send(type="offer_accept", offer_id=second_offer["id"])
        await c.recv_until("offer_accepted")
        again = await passenger(second, world["passenger_token"])  # the passenger reconnects elsewhere
        ride = next(r for r in again.seen[-1]["rides"] if r["id"] == offer["ride_id"])
        assert ride["status"] == "accepted" and ride["permit"] == far["permit"]
        for client in (b, c, again):
            await client.close()

    asyncio.run(scenario())


@pytest.mark.article("Art. 66")
def test_a_killed_process_takes_its_cabs_offline_within_seconds(two_processes):
    """Its cabs' sockets died with it: within the process lease (5 s) and a tick, no offer goes to them."""
    world = two_processes.world
    first, second = two_processes.ports
    lat, lon = world["centre"]
    orphan = world["cabs"][0]

    async def scenario():
        b = await driver(first, orphan["token"])
        await b.recv_until("snapshot")
        await free_at(b, lat - 0.003, lon)
        await asyncio.sleep(1.5)  # the position flushed
        two_processes.processes[0].send_signal(signal.SIGKILL)
        await asyncio.sleep(7.0)  # the lease (5 s) ran out and the second process's tick swept it
        p = await passenger(second, world["passenger_token"])
        await p.send(type="ride_request", pickup={"lat": lat - 0.002, "lon": lon})
        ride = (await p.recv_until("ride_update"))["ride"]
        assert ride["escalated"] is True and ride["status"] == "requested"  # offered to nobody: to the operators
        await p.close()

    asyncio.run(scenario())
