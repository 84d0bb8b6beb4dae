"""Finished trips on the dispatch socket (driver_app/socket_trips.py): the frames, the answers that end them, and the
meter's trips sent without blocking the UI thread, against the small local server of ws_server.py."""

from __future__ import annotations

import time

import pytest

from driver_app.clients import TripResult
from driver_app.socket_trips import ride_complete_frame
from driver_app.ws import DispatchTripsClient, UiQueue, WsDispatchClient

from .ws_server import Server, server, wait_for  # noqa: F401  (server: the fixture)


def test_ride_complete_frame_carries_total_and_trace_and_thins_long_traces():
    trace = [{"t": f"2026-03-04T10:00:{i % 60:02d}-03:00", "lat": -21.13, "lon": -42.36, "accuracy_m": 5.0}
             for i in range(20000)]
    frame = ride_complete_frame({"ride_id": "9", "total": "12.30", "trace": trace})
    assert frame["type"] == "ride_complete" and frame["ride_id"] == 9 and frame["meter_total"] == "12.30"
    assert len(frame["trace"]) <= 9000 and frame["trace"][-1] == trace[-1]


def meter_on(client, store, clock, ui):
    from driver_app.gps import ReplayGps
    from driver_app.viewmodels import MeterViewModel
    from taxilaw.tariffs import MURIAE_DEMO_TARIFF

    gps = ReplayGps([(-21.13 - i * 0.00005, -42.36, 5.0) for i in range(60)], clock)
    vm = MeterViewModel(store, MURIAE_DEMO_TARIFF, gps, clock, trips=DispatchTripsClient(client), token=lambda: "good",
                        save_every_s=0, post=ui)
    return vm, gps


def street_trip(vm, gps, clock, seconds=20) -> float:
    vm.start()
    for _ in range(seconds):
        clock.advance(1)
        gps.step()
    started = time.perf_counter()
    vm.stop()
    return time.perf_counter() - started


@pytest.mark.article("Art. 43")
def test_a_street_trip_ends_at_once_while_the_central_takes_its_time(server, store, clock):
    ui = UiQueue()
    client = WsDispatchClient(f"http://127.0.0.1:{server.port}", post=ui, backoff=(0.1,))
    try:
        client.connect("good", lambda message: None)
        assert wait_for(ui, lambda: client.online)
        vm, gps = meter_on(client, store, clock, ui)
        server.hold.clear()  # the central answers only when the test says so
        took = street_trip(vm, gps, clock)
        assert took < 0.5 and vm.sync_text == "Enviando à central: aguardando confirmação…"
        assert vm.status_text == f"Corrida encerrada: cobrar {vm.total_text}"
        assert wait_for(ui, lambda: any(f["type"] == "street_trip_complete" for f in server.received))
        frame = [f for f in server.received if f["type"] == "street_trip_complete"][0]
        assert frame["meter_total"] == str(vm.last.total) and frame["trip_id"] == vm.queue[0]["trip_id"]
        assert frame["started_at"] == vm.queue[0]["started_at"] and len(frame["trace"]) == 20
        assert vm.sending is not None  # no answer yet
        server.hold.set()
        assert wait_for(ui, lambda: vm.sending is None)
        assert vm.queue == [] and vm.sync_text == "Corrida de rua registrada na central (nº 100)."

        # the server refuses the next one for good: dropped, with the server's message
        server.street_refusal = {"type": "error", "code": "cab_busy",
                                 "message": "Este táxi tem uma corrida da central em andamento."}
        street_trip(vm, gps, clock)
        assert wait_for(ui, lambda: vm.sending is None)
        assert vm.queue == [] and vm.sync_text == ("Corrida de rua recusada pela central: "
                                                   "Este táxi tem uma corrida da central em andamento.")
        assert store.load("sync_rejected")[0]["rejected"] == "cab_busy"
        server.street_refusal = None

        # no answer in time (a lost answer): kept, and sent again later; the server records it once
        client.complete_timeout = 0.3
        server.hold.clear()
        street_trip(vm, gps, clock)
        assert wait_for(ui, lambda: vm.sending is None)
        assert len(vm.queue) == 1 and vm.sync_text == "1 corrida aguardando conexão"
        server.hold.set()
        time.sleep(0.2)  # a duration, not a wait: the central's late answer arrives before the next try
        vm.sync()
        assert vm.sending is None  # the central answered late: wait before trying again
        clock.advance(31)
        vm.sync()
        assert wait_for(ui, lambda: not vm.queue)
        assert len([f for f in server.received if f["type"] == "street_trip_complete"]) == 4
        assert len(server.street) == 2
    finally:
        server.hold.set()
        client.close()


def test_without_a_connection_the_trip_is_queued_at_once_and_sent_on_reconnection(server, store, clock):
    ui = UiQueue()
    client = WsDispatchClient(f"http://127.0.0.1:{server.port}", post=ui, backoff=(0.1,))
    vm, gps = meter_on(client, store, clock, ui)
    street_trip(vm, gps, clock)  # never connected
    assert vm.sending is None and len(vm.queue) == 1 and vm.sync_text == "1 corrida aguardando conexão"
    try:
        client.connect("good", lambda message: message.get("online") and vm.sync(force=True))
        trip_id = vm.queue[0]["trip_id"]
        assert wait_for(ui, lambda: not vm.queue)
        assert list(server.street) == [trip_id] and store.load("sync_queue") == []
    finally:
        client.close()


def test_closing_the_socket_answers_the_trip_in_flight(server, store, clock):
    ui = UiQueue()
    client = WsDispatchClient(f"http://127.0.0.1:{server.port}", post=ui, backoff=(0.1,))
    client.connect("good", lambda message: None)
    assert wait_for(ui, lambda: client.online)
    vm, gps = meter_on(client, store, clock, ui)
    server.hold.clear()
    try:
        street_trip(vm, gps, clock)
        assert vm.sending is not None
    finally:
        client.close()
        server.hold.set()
    assert wait_for(ui, lambda: vm.sending is None) and len(vm.queue) == 1
    assert vm.sync_text == "1 corrida aguardando conexão"


def test_answers_to_trips_are_sorted_into_confirmed_queued_and_rejected():
    from driver_app import socket_trips

    uid = "5f0c3c1e-9f7a-4e7d-8a5b-2c1d0e9f8a7b"
    match = socket_trips.records_street_trip(uid.replace("-", ""))
    assert match({"type": "street_trip_recorded", "trip_id": uid, "ride_id": 4})
    assert not match({"type": "street_trip_recorded", "trip_id": "00000000-0000-0000-0000-000000000000"})
    assert match({"type": "error", "code": "cab_busy", "trip_id": uid})
    assert match({"type": "error", "code": "invalid", "fields": {"trace": ["vazio"]}})  # the frame as a whole
    assert not match({"type": "error", "code": "offer_gone", "message": "outra coisa"})
    street = socket_trips.street_result
    assert street({"type": "street_trip_recorded", "ride_id": 4}, None).outcome == TripResult.CONFIRMED
    refused = street({"type": "error", "code": "invalid", "message": "Mensagem inválida.",
                      "fields": {"trace": {"non_field_errors": ["Pelo menos 1 elemento."]}}}, None)
    assert refused.outcome == TripResult.REJECTED and refused.message == "Mensagem inválida. (trace: Pelo menos 1 elemento.)"
    later = street({"type": "error", "code": "not_allowed", "message": "CMT vencida.", "trip_id": uid}, None)
    assert later.outcome == TripResult.QUEUED and later.retry_in == socket_trips.RETRY_S and later.message == "CMT vencida."
    assert street({"type": "error", "code": "unknown_type", "message": "?"}, None).outcome == TripResult.QUEUED
    assert street(None, ConnectionError()).retry_in == 0 and street(None, TimeoutError()).retry_in == socket_trips.RETRY_S
    ride = socket_trips.ride_result
    assert ride({"type": "ride_updated", "ride": {"id": 3, "status": "completed"}}, None).outcome == TripResult.CONFIRMED
    assert ride({"type": "pong"}, None).outcome == TripResult.QUEUED  # no answer of its own: never taken as success
    assert socket_trips.completes_ride(3)({"type": "ride_updated", "ride": {"id": 3}}) and not socket_trips.completes_ride(3)({"type": "ride_updated", "ride": {"id": 4}})
    assert ride({"type": "error", "code": "wrong_state"}, None).outcome == TripResult.REJECTED
    assert ride({"type": "error", "code": "internal"}, None).outcome == TripResult.QUEUED


