"""Daphne stops promptly when asked (SIGTERM, as ``docker compose stop`` and the e2e teardown do), and leaves no child
process running when it stops or is killed (issue 34)."""

import asyncio
import signal
import time

import pytest

from .client import driver, passenger
from .conftest import descendants, still_running

pytestmark = pytest.mark.e2e


def test_a_loaded_daphne_exits_within_two_seconds_of_sigterm(platform):
    """Connected cabs, a passenger whose request is being offered, the offer worker still loading Django:
    the process exits at once instead of waiting for its offering workers (dispatch.rides.offer_workers.stop)."""
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


def _with_children(process, timeout: float = 30) -> list[int]:
    """The serving process's children once its offering worker has started (with multiprocessing's
    resource_tracker beside it)."""
    deadline = time.monotonic() + timeout
    while not (children := descendants(process.pid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert children, "the serving process started no offering worker"
    return children


def test_sigterm_during_a_connection_storm_exits_within_10_s_and_its_children_with_it(platform):
    """Drivers connecting and reconnecting (two sockets a cab, closed and opened again at once): batches of
    connections are in flight when SIGTERM comes. No thread waits on the stopped event loop (dispatch.events.announcements.post),
    so the process exits, and its offering workers and resource_tracker with it."""
    world = platform.world
    port = platform.start(1)[-1]
    process = platform.processes[-1]
    connected = 0

    async def storm(token: str) -> None:
        nonlocal connected
        while process.poll() is None:
            try:
                client = await driver(port, token)
                await client.recv_until("snapshot", timeout=5)
                connected += 1
                await client.close()
            except Exception:  # noqa: BLE001 -- the server is going away: its refusals and drops are expected
                await asyncio.sleep(0.05)

    async def scenario():
        storms = [asyncio.ensure_future(storm(cab["token"])) for cab in world["cabs"] for _twice in range(2)]
        while connected < 20:  # the storm is under way
            await asyncio.sleep(0.05)
        children = _with_children(process)
        process.send_signal(signal.SIGTERM)
        started = time.monotonic()
        while process.poll() is None and time.monotonic() - started < 10:
            await asyncio.sleep(0.05)
        took = time.monotonic() - started
        for task in storms:
            task.cancel()
        await asyncio.gather(*storms, return_exceptions=True)
        return children, took

    children, took = asyncio.run(scenario())
    assert process.poll() is not None, "Daphne did not exit within 10 s of SIGTERM during a connection storm"
    assert took < 10
    assert not still_running(children, within=10), "a child of the stopped process outlived it"


def test_kill_9_of_a_serving_process_leaves_no_child_running(platform):
    """SIGKILL gives the process no time to stop its children: the kernel kills its offering workers
    (PR_SET_PDEATHSIG), and the resource_tracker, whose pipe they held, exits too."""
    world = platform.world
    port = platform.start(1)[-1]
    process = platform.processes[-1]
    lat, lon = world["centre"]

    async def scenario():
        p = await passenger(port, world["other_passenger_token"])
        await p.send(type="ride_request", pickup={"lat": lat, "lon": lon})  # a worker loads Django or makes the offer
        children = _with_children(process)
        process.send_signal(signal.SIGKILL)
        return children

    children = asyncio.run(scenario())
    process.wait(10)
    assert not still_running(children, within=10), "a child of the killed process outlived it"
