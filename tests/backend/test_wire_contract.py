"""The wire contract (``taxiwire``, re-exported for the server by dispatch/wire.py), in the spirit of Zulip's ``verify_action``.

Real consumers in process (Channels' ``WebsocketCommunicator``, the in-memory layer, the background
tick): each action is driven as a client drives it, every frame each client receives is validated
against its declaration, applied to that client's state as the client would apply it, and the state
is compared with a fresh snapshot. The scenario must see every outbound frame type of every role.
"""

from __future__ import annotations

import asyncio
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.utils import timezone

from backend.ranks.services.ranks import create_rank
from backend.registry.models import Suspension
from backend.trips.models import Passenger
from dispatch import wire
from dispatch.consumers import DriverConsumer, OperatorConsumer, PassengerConsumer
from dispatch.events import announcements, snapshots
from dispatch.models import Cab, CabConnection
from dispatch.rides import cabs, offers, safety
from dispatch.transport import connection_sql, held_sockets

from .ws_helpers import Client, connect

pytestmark = pytest.mark.django_db(transaction=True)
CENTRE = (-21.1311, -42.3676)


def test_the_protocol_document_is_generated_from_the_contract():
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
    from protocol_table import DOC, render

    text = DOC.read_text(encoding="utf-8")
    assert text == render(text), "run .venv/bin/python tools/protocol_table.py"


def test_a_builder_refuses_a_frame_that_is_not_its_declaration():
    with pytest.raises(wire.ContractError):
        wire.OFFER_CLOSED(offer_id=1)
    with pytest.raises(wire.ContractError):
        wire.STATUS(status="livre", extra=1)
    with pytest.raises(wire.ContractError):
        wire.validate("driver", {"type": "offer_closed", "offer_id": 1, "status": "lost"})
    with pytest.raises(wire.ContractError):
        wire.validate("passenger", {"type": "offer", "offer": {}})  # never sent to a passenger


@database_sync_to_async
def fresh(client: Client, cab_id: int | None = None, passenger=None):
    if client.role == "driver":
        return snapshots.for_driver(Cab.objects.select_related("permit", "driver").get(pk=cab_id))
    if client.role == "passenger":
        return snapshots.for_passenger(passenger)
    return snapshots.for_operator()


@pytest.fixture
def world(working_cab, make_person, settings, monkeypatch):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    settings.DISPATCH_TICK_SECONDS = 0.2
    monkeypatch.setattr(offers, "OFFER_TIMEOUT", timedelta(seconds=1.5))
    User = get_user_model()
    people = []
    for n in range(2):
        person = make_person(user=User.objects.create_user(f"wire{n}", password="x"))
        working_cab(holder=person)
        people.append(person)
    rank = create_rank(name="Ponto da Estação", lat=CENTRE[0] + 0.02, lon=CENTRE[1], category="livre")
    return {
        "drivers": [p.user for p in people], "permits": [p.permits.get() for p in people], "rank": rank,
        "staff": User.objects.create_user("central", password="x", is_staff=True),
        "passenger": Passenger.objects.create(name="Ana", phone="32999990000"),
    }


@pytest.mark.article("Art. 66")
def test_every_action_sends_frames_of_the_contract_that_bring_each_client_to_a_fresh_snapshot(world):
    seen: set = set()
    lat, lon = CENTRE

    async def scenario():
        op = await connect(OperatorConsumer, "/ws/operator/", world["staff"], "operator", seen)
        await op.until("snapshot")
        a = await connect(DriverConsumer, "/ws/driver/", world["drivers"][0], "driver", seen)
        b = await connect(DriverConsumer, "/ws/driver/", world["drivers"][1], "driver", seen)
        snap_a, snap_b = await a.until("snapshot"), await b.until("snapshot")
        cab_a, cab_b = snap_a["cab"]["id"], snap_b["cab"]["id"]
        await op.until("cab_update")
        pas = await connect(PassengerConsumer, "/ws/passenger/", None, "passenger", seen)
        await pas.ask("snapshot", type="auth", token=world["passenger"].token)

        async def in_step():
            for client in (op, a, b, pas):
                await client.drain()
            for client, cab_id in ((a, cab_a), (b, cab_b)):
                assert client.view(client.state) == client.view(await fresh(client, cab_id))
            assert pas.view(pas.state) == pas.view(await fresh(pas, passenger=world["passenger"]))
            assert op.view(op.state) == op.view(await fresh(op))

        # status, positions (the background flush), ping, rank check-in and out, a bad frame
        for client, north in ((a, 0.002), (b, 0.006)):
            assert (await client.ask("status", type="status", status="livre"))["status"] == "livre"
            await client.send(type="position", lat=lat + north, lon=lon)
        await op.until("positions")
        for client in (a, pas, op):
            await client.ask("pong", type="ping")
            assert (await client.ask("error", type="no_such_frame"))["code"] == "unknown_type"
        rank = world["rank"]
        await b.send(type="position", lat=rank.lat, lon=rank.lon)  # a check-in is where the GPS shows the cab (Art. 9, V)
        checked = await b.ask("rank_checked_in", type="rank_check_in", rank_id=rank.pk)
        assert checked["queue_position"] == 1
        await b.ask("rank_checked_out", type="rank_check_out")
        await b.send(type="position", lat=lat + 0.006, lon=lon)
        await op.until("positions")
        await in_step()

        # request -> offer to the nearest (A) -> decline -> offer to B -> expires -> escalation
        ride = (await pas.ask("ride_update", type="ride_request", pickup={"lat": lat, "lon": lon}))["ride"]
        offer = (await a.until("offer"))["offer"]
        await a.ask("offer_declined", type="offer_decline", offer_id=offer["id"])
        await b.until("offer")
        assert (await b.until("offer_closed"))["status"] == "expired"
        await op.until("escalation")
        await in_step()

        # the operator cancels it; a new request: A accepts, arrives, boards, moves (cab_position), completes
        await op.send(type="ride_cancel", ride_id=ride["id"], reason="passageiro desistiu por telefone")
        await pas.until("ride_update", where=lambda f: f["ride"]["status"] == "cancelled")
        ride = (await pas.ask("ride_update", type="ride_request", pickup={"lat": lat, "lon": lon}))["ride"]
        offer = (await a.until("offer"))["offer"]
        accepted = await a.ask("offer_accepted", type="offer_accept", offer_id=offer["id"])
        assert accepted["ride"]["status"] == "accepted"
        assert (await a.ask("ride_updated", type="ride_arriving", ride_id=ride["id"]))["ride"]["status"] == "arriving"
        assert (await a.ask("ride_updated", type="ride_on_board", ride_id=ride["id"]))["ride"]["status"] == "on_board"
        await a.send(type="position", lat=lat - 0.001, lon=lon)
        await pas.until("cab_position")
        now = timezone.now()
        trace = [{"t": (now - timedelta(seconds=60 - i * 10)).isoformat(), "lat": lat - i * 0.0005, "lon": lon} for i in range(6)]
        done = await a.ask("ride_updated", type="ride_complete", ride_id=ride["id"], meter_total="9.80", trace=trace)
        assert done["ride"]["status"] == "completed" and done["ride"]["fare"] == "9.80"
        await a.send(type="ride_arriving", ride_id=ride["id"])
        assert (await a.recv())["code"] == "wrong_state"  # a specific refusal, not a pong
        await in_step()

        # an operator's phone ride goes to B; the operator hands it to A by hand (B's offer withdrawn); A declines
        await a.ask("status", type="status", status="fora_de_servico")
        created = await op.ask("ride_created", type="ride_create", pickup={"lat": lat, "lon": lon},
                               caller_name="Dona Maria", caller_phone="3233334444")
        await b.until("offer")
        await op.ask("assigned", type="ride_assign", ride_id=created["ride_id"], permit_id=world["permits"][0].pk)
        assert (await b.until("offer_closed"))["status"] == "withdrawn"
        offer = (await a.until("offer"))["offer"]
        await a.ask("offer_declined", type="offer_decline", offer_id=offer["id"])
        await op.until("escalation", where=lambda f: f["ride"]["id"] == created["ride_id"])
        await op.send(type="ride_cancel", ride_id=created["ride_id"], reason="ligou de novo")
        await in_step()

        # the passenger's ride accepted by B; her SOS (POST /api/rides/<id>/sos/) alarms the operators; then she
        # cancels it: B is told
        ride = (await pas.ask("ride_update", type="ride_request", pickup={"lat": lat, "lon": lon}))["ride"]
        offer = (await b.until("offer"))["offer"]
        await b.ask("offer_accepted", type="offer_accept", offer_id=offer["id"])
        await database_sync_to_async(safety.raise_sos)(ride["id"], world["passenger"], {"lat": lat, "lon": lon})
        assert (await op.until("sos_alert"))["alert"]["ride_id"] == ride["id"]
        await in_step()
        await pas.send(type="ride_cancel", ride_id=ride["id"], reason="desisti")
        await b.until("ride_cancelled")
        await in_step()

        # A's presence swept while its socket stayed open (its process stalled): recorded again at the next audit
        await database_sync_to_async(_sweep_presence_of)(cab_a)
        held_sockets._audited_at = None
        assert (await a.until("presence"))["online"] is False
        assert (await a.until("presence"))["online"] is True
        await op.until("cab_update", where=lambda f: f["cab"]["id"] == cab_a and f["cab"]["online"])
        await in_step()

        # a broadcast; a street trip; a suspension closes B's connection
        await op.ask("broadcast_sent", type="broadcast", text="Atenção: chuva forte no centro")
        assert (await a.until("broadcast"))["text"].startswith("Atenção")
        await b.until("broadcast")
        street = await b.ask("street_trip_recorded", type="street_trip_complete", trip_id="5b0c1f4e-8f1a-4f7e-9a56-0c7f4f3f1a10",
                             started_at=trace[0]["t"], meter_total="7.10", trace=trace)
        assert street["duplicate"] is False
        await op.until("ride_update", where=lambda f: f["ride"]["id"] == street["ride_id"])
        await in_step()
        await database_sync_to_async(_suspend)(world["permits"][1])
        assert (await b.until("suspended"))["reasons"]
        for client in (op, a, b, pas):
            await client.ws.disconnect()

    asyncio.run(scenario())
    declared = {(role, kind) for role, frames in wire.OUTBOUND.items() for kind in frames}
    assert declared - seen == set(), "outbound frame types no action sent"


def _sweep_presence_of(cab_id):
    """What another process's sweep does to a stalled process's cab: its connection rows gone, the cab offline."""
    CabConnection.objects.filter(cab_id=cab_id).delete()
    cabs._take_offline(list(connection_sql.with_names([cab_id], lock=True).values()))


def _suspend(permit):
    today = timezone.localdate()
    Suspension.objects.create(permit=permit, starts_on=today, ends_on=today + timedelta(days=3), reason="teste")
    announcements.announce_compliance_change(permit.pk)
