"""A reconnection storm is served in batches (dispatch.transport.connection_batches) with go_online's checks for each arrival (Art. 66)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection
from django.test.utils import CaptureQueriesContext

from backend.registry.services import auxiliaries
from backend.trips.models import Ride, RideStatus
from dispatch.events import announcements, snapshots
from dispatch.models import Cab, CabConnection
from dispatch.rides import cabs
from dispatch.transport import connection_batches, connection_sql

pytestmark = pytest.mark.django_db


@pytest.mark.article("Art. 66")
def test_a_batch_brings_each_allowed_driver_online_and_refuses_the_others_one_by_one(working_cab, make_person, today):
    first, second = working_cab(), working_cab()
    aux = make_person()
    auxiliaries.authorize_auxiliary(permit=first, person=aux, on=today - timedelta(days=30))
    nobody = make_person()  # drives no permit
    outcomes = cabs.go_online_many([
        (first.holder, "a"), (nobody, "b"), (aux, "c"),  # the auxiliary asks for the cab its holder just took
        (second.holder, "d"),
    ])
    assert isinstance(outcomes[0], Cab) and outcomes[0].permit_id == first.pk and outcomes[0].online
    assert [getattr(o, "code", None) for o in outcomes[1:3]] == ["no_permit", "cab_in_use"]
    assert isinstance(outcomes[3], Cab) and outcomes[3].permit_id == second.pk
    assert sorted(CabConnection.objects.values_list("channel_name", flat=True)) == ["a", "d"]
    assert set(Cab.objects.filter(online=True).values_list("permit_id", flat=True)) == {first.pk, second.pk}
    snapshot_first, snapshot_second = snapshots.for_drivers(outcomes[0::3])
    assert snapshot_first["cab"]["permit_id"] == first.pk and snapshot_second["cab"]["permit_id"] == second.pk


def test_what_is_asked_in_the_same_turn_goes_in_one_call_and_a_failure_reaches_each_caller():
    calls = []

    def double_many(items):
        calls.append(list(items))
        if "boom" in items:
            raise ValueError("boom")
        return [2 * i for i in items]

    batched = connection_batches.Batched(double_many)

    async def scenario():
        together = await asyncio.gather(*(batched(i) for i in range(5)))
        failures = await asyncio.gather(batched("boom"), batched(7), return_exceptions=True)
        return together, failures

    together, failures = asyncio.run(scenario())
    assert together == [0, 2, 4, 6, 8] and calls[0] == [0, 1, 2, 3, 4]
    assert all(isinstance(f, ValueError) for f in failures) and calls[1] == ["boom", 7]


def test_one_call_of_a_kind_runs_at_a_time_and_what_arrives_meanwhile_goes_in_the_next():
    calls, release = [], asyncio.Event()

    def slow_many(items):
        calls.append(list(items))
        return items

    async def scenario():
        batched = connection_batches.Batched(slow_many)
        original = connection_batches.run

        running = asyncio.Event()

        async def held(func, items):  # the first call waits until the others have arrived
            if len(calls) == 0:
                running.set()
                await release.wait()
            return await original(func, items)

        connection_batches.run = held
        try:
            first = asyncio.ensure_future(batched("a"))
            await running.wait()  # "a" is running
            later = [asyncio.ensure_future(batched(x)) for x in "bcd"]
            while len(batched._pending) < 3:  # b, c and d have arrived and wait for the next call
                await asyncio.sleep(0)
            release.set()
            return await first, await asyncio.gather(*later)
        finally:
            connection_batches.run = original

    assert asyncio.run(scenario()) == ("a", ["b", "c", "d"])
    assert calls == [["a"], ["b", "c", "d"]]


@pytest.mark.article("Art. 66")
def test_a_storm_s_statements_read_values_as_the_orm_does(working_cab):
    """Written by hand (dispatch.transport.connection_sql), on SQLite and PostgreSQL alike: a boolean, the kept facts, the names."""
    cab = cabs.go_online(working_cab().holder, "chan-1")
    Cab.objects.filter(pk=cab.pk).update(status="livre")
    (read,) = connection_sql.with_names([cab.pk]).values()
    orm = Cab.objects.select_related("permit", "driver").get(pk=cab.pk)
    assert read.online is True and read.compliance_facts == orm.compliance_facts and isinstance(read.compliance_facts, dict)
    assert (read.status, read.permit.number, read.driver.full_name) == ("livre", orm.permit.number, orm.driver.full_name)
    assert snapshots.cab(read) == snapshots.cab(orm)
    assert read.driver.cpf == orm.driver.cpf  # a field not read loads when asked
    cabs.go_offline_many([(cab.pk, "chan-1")])
    assert connection_sql.with_names([cab.pk])[cab.pk].online is False


def test_a_batch_tells_the_operators_of_its_cabs_in_one_message_a_frame_each(working_cab, settings,
                                                                            django_capture_on_commit_callbacks):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    layer = get_channel_layer()
    async_to_sync(layer.group_add)(announcements.OPERATORS, "console")
    holders = [working_cab().holder for _ in range(3)]
    with django_capture_on_commit_callbacks(execute=True):
        online = cabs.go_online_many([(h, f"c{k}") for k, h in enumerate(holders)])
    message = async_to_sync(layer.receive)("console")
    assert message["type"] == "relay_many"
    assert [(m["type"], m["cab"]["id"], m["cab"]["online"]) for m in message["messages"]] == [
        ("cab_update", cab.pk, True) for cab in online]


@pytest.mark.article("Art. 66")
def test_a_reconnection_storm_costs_the_same_few_statements_for_a_batch_of_two_or_of_eight(working_cab):
    holders = [working_cab().holder for _ in range(8)]
    cabs.go_online_many([(h, f"first-{k}") for k, h in enumerate(holders)])  # the compliance facts are read once
    Cab.objects.update(online=False)  # then the process restarts
    CabConnection.objects.all().delete()

    def statements(people, tag):
        with CaptureQueriesContext(connection) as queries:
            outcomes = cabs.go_online_many([(p, f"{tag}-{k}") for k, p in enumerate(people)])
        assert all(isinstance(o, Cab) and o.online for o in outcomes)
        return len(queries)

    assert statements(holders[:2], "two") == statements(holders[2:], "eight")


def test_first_statuses_of_a_batch_each_get_their_answer_in_one_transaction(working_cab):
    free, busy, other = (cabs.go_online(working_cab().holder) for _ in range(3))
    Ride.objects.create(cab=busy, permit=busy.permit, status=RideStatus.ON_BOARD, pickup_lat=-21.13, pickup_lon=-42.37)
    with CaptureQueriesContext(connection) as queries:
        outcomes = cabs.set_status_many([(free.pk, "livre"), (busy.pk, "fora_de_servico"), (other.pk, "fora_de_servico")])
    assert [getattr(o, "status", None) for o in outcomes] == ["livre", None, "fora_de_servico"]
    assert outcomes[1].code == "busy"
    assert dict(Cab.objects.filter(pk__in=[free.pk, busy.pk, other.pk]).values_list("pk", "status")) == {
        free.pk: "livre", busy.pk: busy.status, other.pk: "fora_de_servico"}
    assert len(queries) <= 6  # lock, rides under way, one update per status, and the transaction
