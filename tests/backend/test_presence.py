"""Presence follows the sockets really open, in every process; one person drives a cab at a time (issue 14)."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.authtoken.models import Token

from backend.registry.services import auxiliaries
from dispatch.consumers import DriverConsumer
from dispatch.models import Cab, CabConnection, ServingProcess
from dispatch.rides import cabs, choosing, grid
from dispatch.transport import background_tick, connection_sql, held_sockets, presence

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
    background_tick.tick({})
    assert not _online(permit) and not ServingProcess.objects.filter(pk="morto:1").exists()
    assert choosing.choose(*CENTRE, set()) is None
    assert ServingProcess.objects.get(pk=presence.PROCESS).lease_until > timezone.now()  # this process renewed its own


def test_without_a_dead_process_orphans_are_looked_for_only_every_full_sweep_period(cab_and_drivers, monkeypatch):
    permit, holder, _aux = cab_and_drivers
    cab = cabs.go_online(holder.person)
    CabConnection.objects.filter(cab=cab).delete()  # a socket gone without going offline: an orphan, no process died
    now = timezone.now()
    monkeypatch.setattr(presence, "_swept_at", now)
    monkeypatch.setattr(presence, "_sweep_due", False)
    assert presence.orphaned_cabs(now + timedelta(seconds=1)) == []  # the tick's statement skipped
    assert presence.orphaned_cabs(now + timedelta(seconds=presence.FULL_SWEEP_SECONDS)) == [cab.pk]


# --- a stalled process heals (issue 34) ----------------------------------------------------------


def _swept_by_another_process():
    """What another process's tick does to a process stalled past its lease: its row deleted (its connections
    with it, CASCADE), its cabs offline."""
    cab_ids = list(CabConnection.objects.filter(process_id=presence.PROCESS).values_list("cab_id", flat=True))
    ServingProcess.objects.filter(pk=presence.PROCESS).delete()
    cabs._take_offline(list(connection_sql.with_names(cab_ids, lock=True).values()))


@pytest.mark.article("Art. 66")
def test_a_process_swept_while_stalled_records_its_open_sockets_again_and_tells_the_phone(cab_and_drivers, settings):
    permit, holder, _aux = cab_and_drivers
    settings.DISPATCH_TICK_SECONDS = 0.1

    async def scenario():
        first = await connect(DriverConsumer, "/ws/driver/", holder, "driver", set())
        await first.until("snapshot")
        await database_sync_to_async(_swept_by_another_process)()
        lost, back = await first.until("presence"), await first.until("presence")  # the next tick finds its lease lapsed
        rows = await database_sync_to_async(lambda: list(CabConnection.objects.values_list("channel_name", "process_id")))()
        online = await _aonline(permit)
        await first.ws.disconnect()
        return lost, back, rows, online, first

    lost, back, rows, online, first = async_to_sync(scenario)()
    assert lost["online"] is False and back["online"] is True
    assert online is True and len(rows) == 1 and rows[0][1] == presence.PROCESS
    assert not CabConnection.objects.exists() and not _online(permit)  # closed afterwards: offline, no row left


@pytest.mark.article("Art. 66", "Art. 1, §5")
def test_a_socket_whose_cab_the_other_driver_took_during_the_stall_is_refused_and_closed(cab_and_drivers, settings, today):
    permit, holder, aux = cab_and_drivers
    settings.DISPATCH_TICK_SECONDS = 0.1
    auxiliaries.issue_cmt(person=aux.person, number="CMT-AUX", issued_on=today - timedelta(days=30), expires_on=today + timedelta(days=900))

    async def scenario():
        first = await connect(DriverConsumer, "/ws/driver/", holder, "driver", set())
        await first.until("snapshot")
        await database_sync_to_async(_swept_by_another_process)()
        held_sockets._audited_at = None  # whether or not the tick finds the lapse first
        second = await connect(DriverConsumer, "/ws/driver/", aux, "driver", set())  # the auxiliar took the cab
        await second.until("snapshot")
        frames = [await first.recv() for _ in range(3)]
        driver = await database_sync_to_async(lambda: Cab.objects.get(permit=permit).driver_id)()
        await second.ws.disconnect()
        return frames, driver

    frames, driver = async_to_sync(scenario)()
    assert frames[0] == {"type": "presence", "online": False}
    assert frames[1]["type"] == "error" and frames[1]["code"] == "cab_in_use" and frames[2] == {"type": "closed"}
    assert driver == aux.person.pk


def test_a_process_never_sweeps_its_own_lease_and_says_when_it_had_lapsed(cab_and_drivers):
    permit, holder, _aux = cab_and_drivers
    cabs.go_online(holder.person)
    assert presence.renew() in (True, False)  # the first renewal of the test process
    ServingProcess.objects.filter(pk=presence.PROCESS).update(lease_until=timezone.now() - timedelta(seconds=1))
    presence.orphaned_cabs(timezone.now() + timedelta(seconds=presence.FULL_SWEEP_SECONDS))
    assert ServingProcess.objects.filter(pk=presence.PROCESS).exists() and _online(permit)  # held up, not dead
    assert presence.renew() is False  # it had lapsed: the tick audits the sockets
    assert presence.renew() is True
    assert presence.registered_channels() == set(CabConnection.objects.values_list("channel_name", flat=True))


def test_a_socket_whose_token_was_revoked_during_the_stall_is_closed_to_log_in_again(cab_and_drivers, settings):
    permit, holder, _aux = cab_and_drivers
    settings.DISPATCH_TICK_SECONDS = 0.1

    async def scenario():
        first = await connect(DriverConsumer, "/ws/driver/", holder, "driver", set())
        await first.until("snapshot")
        await database_sync_to_async(_swept_by_another_process)()
        await database_sync_to_async(lambda: Token.objects.filter(user=holder).delete())()  # logged out meanwhile
        lost = await first.recv()
        while (message := await asyncio.wait_for(first.ws.output_queue.get(), 6))["type"] != "websocket.close":
            told = json.loads(message["text"])  # the logout's own announcement may close it first: the same answer
        return lost, told, message

    lost, told, closed = async_to_sync(scenario)()
    assert lost == {"type": "presence", "online": False}
    assert told["code"] == "session_ended"
    assert closed == {"type": "websocket.close", "code": 4401}
    assert not _online(permit) and not CabConnection.objects.exists()
