"""Dispatch runs without sockets (issue 34, item 4), on a real Daphne: a booking falls due while no websocket has
ever connected to the process, and its ride, escalated for want of a cab, is offered to the first cab that frees."""

import asyncio
import json

import pytest

from .client import driver, free_at
from .conftest import _manage

pytestmark = pytest.mark.e2e

BOOK_AND_WAIT = """
import json, time
from datetime import timedelta
from django.utils import timezone
from backend.bookings import services
from backend.bookings.models import Booking
from dispatch.models import CabConnection

booking = services.book(pickup={{"lat": {lat}, "lon": {lon}, "address": "Praça Cel. Pacheco de Medeiros"}},
                        caller_name="Dona Lúcia", caller_phone="3237211234", pickup_at=timezone.now() + timedelta(hours=2))
Booking.objects.filter(pk=booking.pk).update(dispatch_at=timezone.now() - timedelta(seconds=1))  # its time came
deadline = time.monotonic() + 20
while booking.ride_id is None and time.monotonic() < deadline:  # polled: the server's tick dispatches it
    time.sleep(0.1)
    booking = Booking.objects.select_related("ride").get(pk=booking.pk)
print(json.dumps({{"ride_id": booking.ride_id, "escalated": booking.ride.escalated if booking.ride_id else None,
                  "situation": booking.situation(), "connections": CabConnection.objects.count()}}))
"""

SITUATION = """
import json
from backend.bookings.models import Booking
print(json.dumps(Booking.objects.select_related("ride").get(ride_id={ride_id}).situation()))
"""


def _shell(platform, code: str):
    out = _manage(platform.env, "manage.py", "shell", "-c", code).stdout
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.article("Art. 66")
def test_a_booking_due_before_any_socket_becomes_a_ride_offered_to_the_first_cab_that_frees(platform):
    world, port = platform.world, platform.ports[0]
    lat, lon = world["centre"]
    booked = _shell(platform, BOOK_AND_WAIT.format(lat=lat, lon=lon))
    assert booked["ride_id"] and booked["escalated"] and booked["connections"] == 0  # no socket: the tick did it
    assert booked["situation"].startswith("despachada: nenhum táxi livre ainda")

    async def scenario():
        d = await driver(port, world["cabs"][0]["token"])
        await d.recv_until("snapshot")
        await free_at(d, lat + 0.002, lon)  # a cab frees ~220 m from the pickup
        offer = (await d.recv_until("offer", timeout=15))["offer"]
        await d.send(type="offer_accept", offer_id=offer["id"])
        accepted = await d.recv_until("offer_accepted")
        await d.close()
        return offer, accepted

    offer, accepted = asyncio.run(scenario())
    assert offer["ride_id"] == booked["ride_id"] == accepted["ride_id"] and "mais próximo" in offer["reason"]
    assert _shell(platform, SITUATION.format(ride_id=booked["ride_id"])) == "despachada: corrida aceita"  # the booking says so
