"""Presence follows the sockets really open, in every process; one person drives a cab at a time (issue 14)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from django.utils import timezone

from backend.registry.services import auxiliaries
from dispatch import background, cabs, choosing, grid, presence
from dispatch.consumers import DriverConsumer
from dispatch.models import Cab, CabConnection, ServingProcess

from .ws_helpers import connect

pytestmark = pytest.mark.django_db(transaction=True)
CENTRE = (-21.1311, -42.3676)


@pytest.fixture
def cab_and_drivers(working_cab, make_person, settings, today):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    User = get_user_model()
    holder = make_person(user=User.objects.create_user("presence-holder", password="x"))
    permit = working_cab(holder=holder)
    aux = make_person(user=User.objects.create_user("presence-aux", password="x"))
    auxiliaries.authorize_auxiliary(permit=permit, person=aux, on=today - timedelta(days=30))
    return permit, holder.user, aux.user


def _online(permit) -> bool:
    return Cab.objects.get(permit=permit).online


@pytest.mark.article("Art. 66")
def test_a_second_socket_of_one_driver_keeps_the_cab_online_when_the_first_closes(cab_and_drivers):
    permit, holder, _aux = cab_and_drivers

    async def scenario():
        first = await connect(DriverConsumer, "/ws/driver/", holder, "driver", set())
        await first.until("snapshot")
        second = await connect(DriverConsumer, "/ws/driver/", holder, "driver", set())  # the phone reconnecting
        await second.until("snapshot")
        await first.ws.disconnect()
        still = await _aonline(permit)
        await second.ws.disconnect()
        return still, await _aonline(permit)

    still, after = async_to_sync(scenario)()
    assert still is True and after is False
    assert not CabConnection.objects.exists()


async def _aonline(permit):
    from channels.db import database_sync_to_async

    return await database_sync_to_async(_online)(permit)


@pytest.mark.article("Art. 66", "Art. 1, §5")
def test_the_holder_and_the_auxiliary_cannot_drive_the_cab_at_once(cab_and_drivers):
    permit, holder, aux = cab_and_drivers

    async def scenario():
        first = await connect(DriverConsumer, "/ws/driver/", holder, "driver", set())
        await first.until("snapshot")
        second = await connect(DriverConsumer, "/ws/driver/", aux, "driver", set())
        refusal = await second.recv()
        closed = await second.recv()
        await first.ws.disconnect()
        return refusal, closed

    refusal, closed = async_to_sync(scenario)()
    assert refusal["type"] == "error" and refusal["code"] == "cab_in_use" and "outro motorista" in refusal["message"]
    assert closed == {"type": "closed"}
    assert Cab.objects.get(permit=permit).driver_id == holder.person.pk  # the first driver was not overridden


@pytest.mark.article("Art. 66")
def test_the_cabs_of_a_dead_process_go_offline_at_the_next_tick_and_get_no_offer(cab_and_drivers):
    permit, holder, _aux = cab_and_drivers
    cab = cabs.go_online(holder.person)
    Cab.objects.filter(pk=cab.pk).update(status="livre", lat=CENTRE[0], lon=CENTRE[1], cell=grid.cell_of(*CENTRE),
                                          position_at=timezone.now())
    dead = ServingProcess.objects.create(name="morto:1", lease_until=timezone.now() - timedelta(seconds=1))
    CabConnection.objects.filter(cab=cab).update(process=dead)  # its socket lived in a process that died
    assert choosing.choose(*CENTRE, set()) is not None  # before the sweep the stale row still looks free
    background.tick({})
    assert not _online(permit) and not ServingProcess.objects.filter(pk="morto:1").exists()
    assert choosing.choose(*CENTRE, set()) is None
    assert ServingProcess.objects.get(pk=presence.PROCESS).lease_until > timezone.now()  # this process renewed its own
