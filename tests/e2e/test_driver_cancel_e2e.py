"""A driver gives a ride up before boarding (protocol 1.4), end to end against a running Daphne: the central
re-offers it to the next cab and the passenger is told it is looking again."""

import asyncio

import pytest

from .client import passenger, two_free_cabs

pytestmark = pytest.mark.e2e


@pytest.mark.article("Art. 66")
def test_a_driver_cancel_before_boarding_reoffers_the_ride_and_tells_the_passenger(platform):
    world, port = platform.world, platform.ports[0]
    lat, lon = world["centre"]

    async def scenario():
        a, b = await two_free_cabs(port, world)  # a nearer: offered first
        p = await passenger(port, world["other_passenger_token"])
        await p.send(type="ride_request", pickup={"lat": lat - 0.002, "lon": lon, "address": "Rua Coronel Izalino, 120"})
        offer = (await a.recv_until("offer"))["offer"]
        await a.send(type="offer_accept", offer_id=offer["id"])
        await p.recv_until("ride_update", where=lambda m: m["ride"]["status"] == "accepted")
        await a.send(type="ride_cancel", ride_id=offer["ride_id"], reason="vehicle_problem")
        answer = await a.recv_until("ride_cancelled")
        assert answer == {"type": "ride_cancelled", "ride_id": offer["ride_id"], "reason": "vehicle_problem", "next": "reoffer"}
        again = (await b.recv_until("offer"))["offer"]
        assert again["ride_id"] == offer["ride_id"] and again["id"] != offer["id"]
        told = await p.recv_until("ride_update", where=lambda m: m["ride"]["status"] == "offered")
        assert told["ride"]["id"] == offer["ride_id"] and told["ride"]["permit"] is None  # no cab on it any more
        assert not [m for m in a.seen if m.get("type") == "offer" and m["offer"]["id"] != offer["id"]]  # never a again
        await b.send(type="offer_decline", offer_id=again["id"])
        await p.send(type="ride_cancel", ride_id=offer["ride_id"])
        await p.recv_until("ride_update", where=lambda m: m["ride"]["status"] == "cancelled")
        for c in (a, b, p):
            await c.close()

    asyncio.run(scenario())
