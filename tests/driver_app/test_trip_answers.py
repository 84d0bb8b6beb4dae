"""Ending a trip never waits for the central: the meter closes the trip and shows the fare at once, the
trips client answers later from another thread, and the answer reaches the view-model only on the UI
thread (``post``; Kivy's Clock in the app, a UiQueue here).  The three answers: confirmed, kept in the
queue for later, refused with the server's message."""

from __future__ import annotations

import threading
import time

import pytest

from driver_app.clients import TripResult
from driver_app.gps import ReplayGps
from driver_app.session import build_session
from driver_app.viewmodels import DriverState, MeterViewModel
from driver_app.ws import UiQueue
from taxilaw.split import week_start
from taxilaw.tariffs import MURIAE_DEMO_TARIFF as T


class ManualTrips:
    """A trips client whose ``submit`` returns at once; the test answers each trip later, from a worker
    thread (as the dispatch socket's thread does).  ``upload`` would block: the meter must not use it."""

    def __init__(self):
        self.submitted: list[tuple[dict, object]] = []

    def upload(self, token, trip):
        raise AssertionError("the meter must not block on upload")

    def submit(self, token, trip, done):
        self.submitted.append((trip, done))

    def answer(self, result: TripResult) -> dict:
        trip, done = self.submitted.pop(0)
        worker = threading.Thread(target=done, args=(result,), name="socket-thread")
        worker.start()
        worker.join()
        return trip


def meter(store, clock, trips, ui):
    gps = ReplayGps([(-21.13 - i * 0.00005, -42.36, 5.0) for i in range(120)], clock)
    vm = MeterViewModel(store, T, gps, clock, trips=trips, token=lambda: "tok", save_every_s=0, post=ui)
    threads: set[str] = set()
    vm.subscribe(lambda _vm: threads.add(threading.current_thread().name))
    return vm, gps, threads


def trip(vm, gps, clock, seconds=30, ride_id=None):
    vm.start(ride_id=ride_id)
    for _ in range(seconds):
        clock.advance(1)
        gps.step()
    started = time.perf_counter()
    reading = vm.stop()
    return reading, time.perf_counter() - started


@pytest.mark.article("Art. 43", "Art. 45, §5")
def test_stop_returns_at_once_and_a_confirmation_arrives_through_the_ui_thread(store, clock):
    ui, trips = UiQueue(), ManualTrips()
    vm, gps, threads = meter(store, clock, trips, ui)
    reading, took = trip(vm, gps, clock)
    # the UI call returned without an answer: the trip is closed here and the fare shown (Art. 43)
    assert took < 0.2 and not vm.running and len(trips.submitted) == 1
    assert vm.status_text == f"Corrida encerrada: cobrar {vm.total_text}" and vm.last.total == reading.total
    assert vm.sending == trips.submitted[0][0]["trip_id"]
    assert vm.sync_text == "Enviando à central: aguardando confirmação…"
    assert store.load("sync_queue")[0]["trip_id"] == vm.sending  # kept on the phone until confirmed
    vm.sync()
    assert len(trips.submitted) == 1  # one trip in flight at a time: nothing sent twice
    sent = trips.answer(TripResult.confirmed({"type": "street_trip_recorded", "ride_id": 41}))
    assert vm.sending == sent["trip_id"]  # the socket thread never touches the view-model...
    assert ui.drain() == 1  # ...the UI thread applies the answer
    assert vm.sending is None and vm.queue == [] and store.load("sync_queue") == []
    assert vm.sync_text == "Corrida de rua registrada na central (nº 41)."
    assert threads == {threading.current_thread().name}


def test_no_connection_keeps_the_trip_queued_and_the_next_sync_sends_it(store, clock):
    ui, trips = UiQueue(), ManualTrips()
    vm, gps, _threads = meter(store, clock, trips, ui)
    trip(vm, gps, clock)
    trips.answer(TripResult.queued("offline"))
    ui.drain()
    assert vm.sending is None and len(vm.queue) == 1 and vm.sync_text == "1 corrida aguardando conexão"
    assert vm.status_text.startswith("Corrida encerrada: cobrar R$ ")
    vm.sync()  # the connection is back
    trips.answer(TripResult.confirmed())
    ui.drain()
    assert vm.queue == [] and vm.sync_text == "Corridas sincronizadas"


def test_an_answer_that_does_not_record_the_trip_waits_before_trying_again(store, clock):
    ui, trips = UiQueue(), ManualTrips()
    vm, gps, _threads = meter(store, clock, trips, ui)
    trip(vm, gps, clock)
    trips.answer(TripResult.queued("not_allowed", "CMT vencida (Art. 51).", retry_in=30))
    ui.drain()
    assert len(vm.queue) == 1 and vm.sync_text == "1 corrida aguardando: CMT vencida (Art. 51)."
    vm.sync()  # the next tick: too early
    assert trips.submitted == []
    clock.advance(31)
    vm.sync()
    assert len(trips.submitted) == 1
    trips.answer(TripResult.queued("offline"))
    ui.drain()
    vm.sync(force=True)  # a reconnection does not wait
    assert len(trips.submitted) == 1


@pytest.mark.article("Art. 43")
def test_a_refusal_drops_the_trip_with_the_servers_message_and_the_next_trip_goes(store, clock):
    ui, trips = UiQueue(), ManualTrips()
    vm, gps, _threads = meter(store, clock, trips, ui)
    trip(vm, gps, clock, 20)
    trips.answer(TripResult.queued("offline"))
    ui.drain()
    trip(vm, gps, clock, 20, ride_id=12)  # a dispatched ride, queued behind the street trip
    assert len(vm.queue) == 2 and vm.sending == vm.queue[0]["trip_id"]
    message = "Este táxi tem uma corrida da central em andamento; a corrida de rua não foi registrada."
    street = trips.answer(TripResult.rejected("cab_busy", message))
    ui.drain()  # refused for good: dropped, kept aside, and the ride behind it is sent at once
    assert vm.sync_text == "Enviando à central: aguardando confirmação…" and len(trips.submitted) == 1
    assert store.load("sync_rejected")[0]["trip_id"] == street["trip_id"]
    assert store.load("sync_rejected")[0]["rejected"] == "cab_busy"
    ride = trips.answer(TripResult.rejected("wrong_state", "A corrida está em “concluída”."))
    ui.drain()
    assert ride["ride_id"] == 12 and vm.queue == []
    assert vm.sync_text == "Corrida #12 descartada: não está mais em andamento na central (A corrida está em “concluída”.)."
    vm.start()
    assert vm.sync_text == "Corridas sincronizadas"  # a new trip clears the message


def test_session_stop_trip_frees_the_cab_at_once_and_reloads_the_split_on_confirmation(tmp_path, clock):
    ui, trips = UiQueue(), ManualTrips()
    s = build_session(tmp_path / "app", demo=True, clock=clock, post=ui)
    s.login.login("demo", "demo")
    s.after_login()
    s.meter.trips = trips
    s.flag.go_free()
    s.start_trip()
    for _ in range(40):
        clock.advance(1)
        s.gps.step()
    gross = s.split.this_week.split.gross
    started = time.perf_counter()
    s.stop_trip()
    assert time.perf_counter() - started < 0.2
    assert s.flag.state == DriverState.LIVRE and "aguardando confirmação" in s.meter.sync_text
    s.extras["statements"].add_fare(week_start(clock()), s.meter.last.total)  # the server recorded it
    trips.answer(TripResult.confirmed())
    assert s.split.this_week.split.gross == gross  # not yet: the answer waits for the UI thread
    ui.drain()
    assert s.split.this_week.split.gross == gross + s.meter.last.total


def test_a_queue_item_the_client_cannot_encode_is_set_aside_instead_of_blocking_the_queue(store, clock):
    from driver_app.ws import DispatchTripsClient, WsDispatchClient

    vm, _gps, _threads = meter(store, clock, DispatchTripsClient(WsDispatchClient("http://127.0.0.1:9")), UiQueue())
    vm.queue.append({"trip_id": "broken", "ride_id": "não é número", "total": "1.00", "trace": []})
    vm.sync()
    assert vm.queue == [] and vm.sending is None
    assert store.load("sync_rejected")[0]["rejected"] == "invalid"
