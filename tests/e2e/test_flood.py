"""One driver sends 1 MB trace frames as fast as the rate limit allows; 100 other cabs on the same Daphne keep their
pings short (issue 34). The figures against the same load without the flooder: benchmarks/flood_bench.py.

Before the frames were read off the event loop, each one held it ~0.5-0.9 s: the cabs' p99 went to hundreds of
milliseconds (measured: docs/dispatch-benchmark.md, "Large frames"). The target is 50 ms on the 2-core development
machine; the bound asserted is generous because the machine is shared, and still fails on the old behaviour.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from dispatch import wire

from .client import driver, operator
from .conftest import Platform
from .flood import E2E_WORLD_CABS, SOCKETS_PER_CAB, connect_cabs, measure, trace_frames

pytestmark = pytest.mark.e2e
P99_BOUND_MS = 400.0  # measured on the loaded machine (load 8): 189 ms now, 940 ms with the frames read on the loop
FLOOD_S = 25.0


@pytest.fixture(scope="module")
def crowded(tmp_path_factory):
    p = Platform(tmp_path_factory.mktemp("flood"))
    p.env["E2E_CABS"] = str(E2E_WORLD_CABS)
    try:
        p.prepare()
        p.start(1)
        yield p
    finally:
        p.stop()


def test_a_flood_of_1_mb_trace_frames_leaves_other_cabs_pings_short(crowded):
    world, (port,) = crowded.world, crowded.ports

    async def scenario():
        flooder = await driver(port, world["cabs"][0]["token"])
        await flooder.recv_until("snapshot")
        cabs = await connect_cabs(port, [c["token"] for c in world["cabs"][1:]])
        flooded = await measure(port, cabs, world["centre"], FLOOD_S, flooder)
        assert flooder.ws.close_code is None, "the flooder kept within the limit and was not closed"
        await asyncio.gather(*(c.close() for c in [flooder, *cabs]))
        return flooded

    flooded = asyncio.run(scenario())
    assert flooded["frames"] >= 4  # the burst, then what the budget refills
    assert flooded["pings"] > (len(world["cabs"]) - 1) * SOCKETS_PER_CAB * 10
    assert flooded["p99_ms"] < P99_BOUND_MS, flooded


def test_a_client_ignoring_the_limit_is_closed_before_its_frames_pile_up_and_its_cab_goes_offline(crowded):
    """Sent without pause, 1 MB frames arrive faster than the consumer handles them (each trace is checked in the
    worker): the server stops reading them past ``dispatch.transport.server.PENDING_CHARS`` and closes the socket (4008)."""
    world, (port,) = crowded.world, crowded.ports
    flooder_permit = world["cabs"][0]["permit"]

    async def online_permits() -> set[str]:
        console = await operator(port, world["operator"]["session"])
        snapshot = await console.recv_until("snapshot")
        await console.close()
        return {cab["permit"] for cab in snapshot["cabs"] if cab["online"]}

    async def scenario():
        flooder = await driver(port, world["cabs"][0]["token"])
        await flooder.recv_until("snapshot")
        assert flooder_permit in await online_permits()
        frame = trace_frames(world["centre"])[1]
        sent = 0
        try:
            for _ in range(200):  # 200 MB if nothing stopped it
                await flooder.ws.send(frame)
                sent += 1
        except Exception:  # the close, as the websockets library raises it
            pass
        await asyncio.wait_for(flooder.ws.wait_closed(), 10)
        assert flooder.ws.close_code == wire.POLICY_CLOSE and sent < 40, (flooder.ws.close_code, sent)
        deadline = time.monotonic() + 10
        while flooder_permit in await online_permits():  # the consumer heard the disconnect: the cab is offline
            assert time.monotonic() < deadline, "the flooder's cab stayed online"
            await asyncio.sleep(0.3)

    asyncio.run(scenario())
