"""A driver gives up an accepted ride before boarding (Art. 1, X; Art. 9, VII; taxilaw.cancellation)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from backend.api_errors import LawViolation
from backend.trips.models import DriverCancellation, Passenger, Ride
from dispatch.consumers import DriverConsumer, PassengerConsumer
from dispatch.models import Cab, Offer
from dispatch.rides import grid, offers, ride_steps

from .ws_helpers import connect, positions_flushed

CENTRE = (-21.1311, -42.3676)


def _free_cab(permit, north=0.0):
    lat, lon = CENTRE[0] + north, CENTRE[1]
    return Cab.objects.create(permit=permit, driver=permit.holder, online=True, status="livre", lat=lat, lon=lon,
                              cell=grid.cell_of(lat, lon), position_at=timezone.now())


def _accepted(working_cab):
    near, far = _free_cab(working_cab(), 0.001), _free_cab(working_cab(), 0.004)
    passenger = Passenger.objects.create(name="Maria Aparecida", phone="(32) 99876-5432")
    ride = offers.request_ride(pickup={"lat": CENTRE[0], "lon": CENTRE[1], "address": "Praça"}, passenger=passenger,
                                 destination={"lat": -21.1352, "lon": -42.3641, "address": "Hospital São Paulo"})
    offer = Offer.objects.get(ride=ride, status="pending")
    assert offer.cab_id == near.pk
    offers.accept_offer(offer.pk, near.pk)
    return near, far, Ride.objects.get(pk=ride.pk)


@pytest.mark.django_db
@pytest.mark.article("Art. 1, X")
def test_a_vehicle_problem_sends_the_ride_to_the_next_cab_and_is_recorded(working_cab):
    near, far, ride = _accepted(working_cab)
    ride_id, step = ride_steps.driver_cancel(ride.pk, near.pk, "vehicle_problem")
    assert step == "reoffer"
    ride.refresh_from_db()
    assert ride.status == "offered" and ride.cab_id is None and ride.driver_id is None
    assert Offer.objects.get(ride=ride, cab=near).status == "cancelled"
    assert Offer.objects.get(ride=ride, cab=far).status == "pending"  # never the same cab again
    assert Cab.objects.get(pk=near.pk).status == "livre"
    record = DriverCancellation.objects.get(ride=ride)
    assert (record.driver_id, record.reason, record.reoffered, record.ride_status) == (near.driver_id, "vehicle_problem", True, "accepted")


@pytest.mark.django_db
@pytest.mark.article("Art. 1, X")
def test_a_no_show_only_after_the_wait_and_then_the_ride_ends(working_cab):
    near, _far, ride = _accepted(working_cab)
    with pytest.raises(LawViolation) as early:
        ride_steps.driver_cancel(ride.pk, near.pk, "passenger_absent")
    assert early.value.decision.codes == ("not_arrived",)
    ride_steps.ride_arriving(ride.pk, near.pk)
    with pytest.raises(LawViolation) as waiting:
        ride_steps.driver_cancel(ride.pk, near.pk, "passenger_absent")
    assert waiting.value.decision.codes == ("wait_more",)
    Ride.objects.filter(pk=ride.pk).update(arriving_at=timezone.now() - timedelta(minutes=5, seconds=10))
    _ride_id, step = ride_steps.driver_cancel(ride.pk, near.pk, "passenger_absent")
    ride.refresh_from_db()
    assert step == "end" and ride.status == "cancelled" and ride.cancelled_by == "driver" and ride.cancel_reason == "passenger_absent"
    assert DriverCancellation.objects.get(ride=ride).waited_s >= 300


@pytest.mark.django_db
@pytest.mark.article("Art. 1, X")
def test_after_boarding_the_trip_must_be_completed(working_cab):
    near, _far, ride = _accepted(working_cab)
    ride_steps.ride_on_board(ride.pk, near.pk)
    with pytest.raises(LawViolation) as refused:
        ride_steps.driver_cancel(ride.pk, near.pk, "passenger_asked")
    assert refused.value.decision.codes == ("not_before_boarding",)
    assert not DriverCancellation.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.article("Art. 1, X", "Art. 66")
def test_the_socket_answers_the_cancel_reoffers_and_tells_the_passenger(working_cab, make_person, settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    users = []
    for n, north in ((0, 0.001), (1, 0.004)):
        person = make_person(user=get_user_model().objects.create_user(f"cancel{n}", password="x"))
        working_cab(holder=person)
        users.append((person.user, north))
    passenger = Passenger.objects.create(name="Maria Aparecida", phone="(32) 99876-5432")

    async def scenario():
        a = await connect(DriverConsumer, "/ws/driver/", users[0][0], "driver", set())
        b = await connect(DriverConsumer, "/ws/driver/", users[1][0], "driver", set())
        for client, (_user, north) in ((a, users[0]), (b, users[1])):
            await client.until("snapshot")
            await client.ask("status", type="status", status="livre")
            await client.send(type="position", lat=CENTRE[0] + north, lon=CENTRE[1])
        await positions_flushed(*((CENTRE[0] + north, CENTRE[1]) for _user, north in users))
        pas = await connect(PassengerConsumer, "/ws/passenger/", None, "passenger", set())
        await pas.ask("snapshot", type="auth", token=passenger.token)
        ride = (await pas.ask("ride_update", type="ride_request", pickup={"lat": CENTRE[0], "lon": CENTRE[1], "address": "Praça"},
                              destination={"lat": -21.1352, "lon": -42.3641, "address": "Hospital São Paulo"}))["ride"]
        offer = (await a.until("offer"))["offer"]
        assert offer["passenger"] == {"name": "Maria Aparecida", "phone": "(32) 99876-5432"}
        assert offer["destination"]["address"] == "Hospital São Paulo"
        accepted = await a.ask("offer_accepted", type="offer_accept", offer_id=offer["id"])
        assert accepted["ride"]["passenger_phone"] == "(32) 99876-5432" and accepted["ride"]["no_show_at"] is None
        arrived = (await a.ask("ride_updated", type="ride_arriving", ride_id=ride["id"]))["ride"]
        assert arrived["no_show_at"] > arrived["arriving_at"]
        refused = await a.ask("error", type="ride_cancel", ride_id=ride["id"], reason="passenger_absent")
        assert refused["code"] == "law" and refused["reasons"][0]["code"] == "wait_more"
        assert (await a.ask("error", type="ride_cancel", ride_id=ride["id"], reason="cansado"))["code"] == "invalid"
        answer = await a.ask("ride_cancelled", type="ride_cancel", ride_id=ride["id"], reason="vehicle_problem")
        assert answer == {"type": "ride_cancelled", "ride_id": ride["id"], "reason": "vehicle_problem", "next": "reoffer"}
        assert (await b.until("offer"))["offer"]["ride_id"] == ride["id"]
        await pas.until("ride_update", where=lambda f: f["ride"]["status"] == "offered" and f["ride"]["permit"] is None)
        for client in (a, b, pas):
            await client.ws.disconnect()

    asyncio.run(scenario())


@pytest.mark.django_db
@pytest.mark.article("Art. 1, X")
def test_the_driver_sees_the_no_show_time_of_the_dated_parameter_in_force(working_cab):
    from datetime import datetime

    from backend.parameters.models import DatedParameter
    from dispatch.events import snapshots

    near, _far, ride = _accepted(working_cab)
    DatedParameter.objects.create(name="no_show_wait_minutes", effective_from=timezone.localdate(), value=7, source="Decreto (teste)")
    ride_steps.ride_arriving(ride.pk, near.pk)
    body = snapshots.for_the_driver(Ride.objects.select_related("cab", "passenger").get(pk=ride.pk))
    waited = datetime.fromisoformat(body["no_show_at"]) - datetime.fromisoformat(body["arriving_at"])
    assert waited == timedelta(minutes=7) and body["passenger_phone"] == "(32) 99876-5432"
