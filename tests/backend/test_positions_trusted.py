"""Where the server last saw the cab judges "Cheguei" and the passenger's absence (Art. 1, X; Art. 9, VII;
taxilaw.arrival): a driver 3 km away cannot tell the passenger he is waiting, nor record them absent."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from backend.api_errors import LawViolation
from backend.trips.models import Passenger, Ride
from dispatch.consumers import DriverConsumer
from dispatch.models import Cab, Offer
from dispatch.rides import offers, ride_steps

from .test_driver_cancel import CENTRE, _accepted
from .ws_helpers import connect, positions_flushed

THREE_KM = 0.027  # degrees of latitude: ~3.0 km north of the pickup


def _waited(ride):
    Ride.objects.filter(pk=ride.pk).update(arriving_at=timezone.now() - timedelta(minutes=5, seconds=10))


@pytest.mark.django_db
@pytest.mark.article("Art. 1, X", "Art. 9, VII")
def test_cheguei_and_the_absence_only_where_the_cab_row_puts_it_at_the_pickup(working_cab):
    near, _far, ride = _accepted(working_cab)  # the cab's row: ~110 m from the pickup
    Cab.objects.filter(pk=near.pk).update(lat=CENTRE[0] + THREE_KM)
    with pytest.raises(LawViolation) as away:
        ride_steps.ride_arriving(ride.pk, near.pk)
    assert away.value.decision.codes == ("away_from_pickup",)
    message = away.value.reasons[0]["message"]
    assert "2989 m do local de embarque" in message and "500 m" in message and "Art. 1, X" in message
    assert Ride.objects.get(pk=ride.pk).status == "accepted"
    ride_steps.ride_arriving(ride.pk, near.pk, fix=(CENTRE[0] + 0.001, CENTRE[1]))  # the connection's newer fix: there
    _waited(ride)
    with pytest.raises(LawViolation) as absent:  # he drove off, then says the passenger never came
        ride_steps.driver_cancel(ride.pk, near.pk, "passenger_absent", fix=(CENTRE[0] + THREE_KM, CENTRE[1]))
    assert absent.value.decision.codes == ("away_from_pickup",)
    assert Ride.objects.get(pk=ride.pk).status == "arriving"
    _ride_id, step = ride_steps.driver_cancel(ride.pk, near.pk, "passenger_absent", fix=(CENTRE[0] + 0.002, CENTRE[1]))
    assert step == "end" and Ride.objects.get(pk=ride.pk).cancel_reason == "passenger_absent"


@pytest.mark.django_db
@pytest.mark.article("Art. 1, X")
def test_a_cab_the_server_never_saw_does_not_arrive(working_cab):
    near, _far, ride = _accepted(working_cab)
    Cab.objects.filter(pk=near.pk).update(lat=None, lon=None)
    with pytest.raises(LawViolation) as unknown:
        ride_steps.ride_arriving(ride.pk, near.pk)
    assert unknown.value.decision.codes == ("arrival_without_position",)


@pytest.mark.django_db(transaction=True)
@pytest.mark.article("Art. 1, X", "Art. 9, VII")
def test_the_socket_judges_cheguei_and_the_absence_by_the_last_position_it_received(working_cab, make_person, settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    user = get_user_model().objects.create_user("arriving", password="x")
    working_cab(holder=make_person(user=user))
    passenger = Passenger.objects.create(name="Maria Aparecida", phone="(32) 99876-5432")
    near, far = (CENTRE[0] + 0.001, CENTRE[1]), (CENTRE[0] + THREE_KM, CENTRE[1])

    async def scenario():
        d = await connect(DriverConsumer, "/ws/driver/", user, "driver", set())
        await d.until("snapshot")
        await d.ask("status", type="status", status="livre")
        await d.send(type="position", lat=near[0], lon=near[1])
        await positions_flushed(near)
        ride = await asyncio.to_thread(lambda: offers.request_ride(
            pickup={"lat": CENTRE[0], "lon": CENTRE[1], "address": "Praça"}, passenger=passenger))
        offer = (await d.until("offer"))["offer"]
        await d.ask("offer_accepted", type="offer_accept", offer_id=offer["id"])
        await d.send(type="position", lat=far[0], lon=far[1])  # 3 km away, held in memory until the flush
        refused = await d.ask("error", type="ride_arriving", ride_id=ride.pk)
        assert refused["code"] == "law" and refused["reasons"][0]["code"] == "away_from_pickup"
        assert "do local de embarque" in refused["reasons"][0]["message"]
        await d.send(type="position", lat=near[0], lon=near[1])
        assert (await d.ask("ride_updated", type="ride_arriving", ride_id=ride.pk))["ride"]["status"] == "arriving"
        await asyncio.to_thread(_waited, ride)
        await d.send(type="position", lat=far[0], lon=far[1])
        absent = await d.ask("error", type="ride_cancel", ride_id=ride.pk, reason="passenger_absent")
        assert absent["reasons"][0]["code"] == "away_from_pickup"
        await d.send(type="position", lat=near[0], lon=near[1])
        answer = await d.ask("ride_cancelled", type="ride_cancel", ride_id=ride.pk, reason="passenger_absent")
        assert answer["next"] == "end"
        await d.ws.disconnect()

    asyncio.run(scenario())
    assert Offer.objects.filter(status="cancelled").count() == 1
