from datetime import datetime
from decimal import Decimal

import pytest

from driver_app.clients import FakeTrips
from driver_app.gps import ReplayGps, demo_trace
from driver_app.storage import JsonStore
from driver_app.viewmodels import MeterViewModel
from taxilaw.meter_check import recompute
from taxilaw.meter_data import Fix
from taxilaw.tariffs import MURIAE_DEMO_TARIFF as T


def make(store, clock, trips=None, points=None, save_every_s=0):
    gps = ReplayGps(points if points is not None else demo_trace(), clock)
    return MeterViewModel(store, T, gps, clock, trips=trips, token=lambda: "tok", save_every_s=save_every_s), gps


def run(vm, gps, clock, n):
    for _ in range(n):
        clock.advance(1)
        gps.step()


@pytest.mark.article("Art. 1, VII")
def test_start_registers_the_bandeirada(store, clock):
    vm, _gps = make(store, clock)
    assert vm.status_text == "Taxímetro livre"
    vm.start()
    assert vm.total_text == "R$ 5,50" and vm.distance_text == "0,0 km" and vm.waiting_text == "00:00:00"
    assert vm.flag_text == "Bandeira I" and vm.running


@pytest.mark.article("Art. 43", "Art. 45, I")
def test_replayed_trace_shows_brazilian_formats(store, clock):
    vm, gps = make(store, clock)
    vm.start()
    run(vm, gps, clock, 240)
    r = vm.last
    assert vm.total_text.startswith("R$ ") and "," in vm.total_text
    assert vm.total_text == "R$ " + f"{r.total:.2f}".replace(".", ",")
    assert vm.distance_text == f"{int(r.distance_m // 1000)},{int(r.distance_m % 1000 // 100)} km"
    assert 1200 < r.distance_m < 2200  # ~30 km/h for 200 s + a 40 s halt
    assert r.waiting_s >= 30  # the halt is charged as waiting time
    assert vm.waiting_text == "00:00:%02d" % int(r.waiting_s)
    assert vm.flag_text == "Bandeira I" and vm.flag_reason == "dia útil, 06:00–22:00"


@pytest.mark.article("Art. 43")
def test_meter_state_survives_a_restart(tmp_path, clock):
    points = demo_trace()
    # uninterrupted reference
    ref_clock = type(clock)(clock.now)
    ref, ref_gps = make(JsonStore(tmp_path / "ref"), ref_clock, points=points)
    ref.start()
    run(ref, ref_gps, ref_clock, 300)
    # the same trip, the app killed after 150 fixes
    store = JsonStore(tmp_path / "app")
    vm, gps = make(store, clock, points=points)
    vm.start()
    run(vm, gps, clock, 150)
    trip_id = vm.trip_id
    del vm
    vm2, gps2 = make(store, clock, points=points)
    assert vm2.restored and vm2.running and vm2.trip_id == trip_id
    assert len(vm2.trace) == 150
    gps2.index = 150  # the phone keeps delivering fixes where it was
    run(vm2, gps2, clock, 150)
    assert vm2.last.total == ref.last.total
    assert vm2.last.distance_m == pytest.approx(ref.last.distance_m)
    assert vm2.total_text == ref.total_text


def test_periodic_save_is_throttled(store, clock):
    vm, gps = make(store, clock, save_every_s=5)
    vm.start()
    run(vm, gps, clock, 3)
    saved = store.load("meter")
    assert len(saved["trace"]) == 0  # saved at start only
    run(vm, gps, clock, 3)
    assert len(store.load("meter")["trace"]) == 5


def test_corrupt_state_file_is_set_aside(store, clock):
    store.app_dir.mkdir(parents=True)
    store.path("meter").write_text("{not json")
    vm, _ = make(store, clock)
    assert not vm.restored and not vm.running
    assert store.app_dir.joinpath("meter.json.broken").exists()


@pytest.mark.article("Art. 43", "Art. 45, §5")
def test_finished_trips_queue_while_offline_and_sync_later(store, clock):
    trips = FakeTrips()
    trips.online = False
    vm, gps = make(store, clock, trips=trips)
    vm.start()
    run(vm, gps, clock, 120)
    fare = vm.stop()
    assert vm.status_text == f"Corrida encerrada: cobrar {vm.total_text}"
    assert not vm.running and store.load("meter") is None
    assert vm.sync_text == "1 corrida aguardando conexão"
    vm.start()
    run(vm, gps, clock, 30)
    vm.stop()
    assert vm.sync_text == "2 corridas aguardando conexão"
    # the queue survives a restart
    vm2, _ = make(store, clock, trips=trips)
    assert len(vm2.queue) == 2
    trips.online = True
    assert vm2.sync() == 2
    assert vm2.sync_text == "Corridas sincronizadas" and store.load("sync_queue") == []
    first = trips.uploaded[0]
    assert Decimal(first["total"]) == fare.total
    # the server can recompute the fare from the uploaded trace (Art. 43)
    fixes = [Fix.from_dict(f) for f in first["trace"]]
    server = recompute(fixes, T, started_at=datetime.fromisoformat(first["started_at"]),
                       stopped_at=datetime.fromisoformat(first["stopped_at"]))
    assert server.total == fare.total


def test_sync_uploads_in_order_and_stops_at_first_failure(store, clock):
    class Flaky:
        def __init__(self):
            self.calls = 0
            self.got = []

        def upload(self, token, trip):
            self.calls += 1
            if self.calls == 2:
                raise ConnectionError("lost")
            self.got.append(trip["trip_id"])

    trips = Flaky()
    vm, gps = make(store, clock)
    for _ in range(3):
        vm.start()
        run(vm, gps, clock, 5)
        vm.stop()
    ids = [t["trip_id"] for t in vm.queue]
    vm.trips = trips
    assert vm.sync() == 1 and len(vm.queue) == 2
    assert vm.sync() == 2 and trips.got == ids


def test_cannot_start_twice_or_stop_idle(store, clock):
    vm, _ = make(store, clock)
    with pytest.raises(RuntimeError):
        vm.stop()
    vm.start()
    with pytest.raises(RuntimeError):
        vm.start()


@pytest.mark.article("Art. 45, §3", "Art. 45, §5")
def test_a_correction_table_converts_the_reading_the_passenger_pays_and_survives_a_restart(tmp_path, clock):
    from taxilaw.tariffs import apply_correction

    store = JsonStore(tmp_path / "app")
    vm, gps = make(store, clock)
    table = {"factor": "1.1111", "authorization": "Decreto do Prefeito 41/2026", "valid_until": "2026-07-30"}
    vm.set_tariff(T, correction=table)
    assert "× 1,1111 (Art. 45, §3)" in vm.tariff_text
    vm.start()
    run(vm, gps, clock, 60)
    vm.set_tariff(T)  # a new answer mid-trip: the running trip keeps the table it started under
    restarted, gps = make(store, clock)
    reading = restarted.stop()
    due = apply_correction(reading.total, "1.1111")
    assert restarted.fare_due(reading.total) == due > reading.total
    assert "cobrar R$ " + f"{due:.2f}".replace(".", ",") in restarted.status_text
    plain, _ = make(JsonStore(tmp_path / "plain"), clock)
    assert plain.fare_due(Decimal("21.00")) == Decimal("21.00")  # no table: the reading (Art. 45, §5)


def test_a_blocking_upload_runs_on_a_worker_one_trip_at_a_time(store, clock):
    from driver_app.background import Background

    from .test_ranks import HeldExecutor, UiPosts

    executor, ui, trips = HeldExecutor(), UiPosts(), FakeTrips()  # FakeTrips has only the blocking upload
    gps = ReplayGps(demo_trace(), clock)
    vm = MeterViewModel(store, T, gps, clock, trips=trips, token=lambda: "tok", post=ui,
                        background=Background(ui, executor))
    for _ in range(2):
        vm.start()
        run(vm, gps, clock, 5)
        vm.stop()  # returns at once: the upload waits for a worker
    assert trips.uploaded == [] and len(executor.jobs) == 1
    assert vm.sync_text == "Enviando à central: aguardando confirmação… (+1 na fila)"
    executor.run_all()
    assert len(trips.uploaded) == 1 and len(vm.queue) == 2  # uploaded; applied only on the UI thread
    ui.drain()
    assert len(vm.queue) == 1 and len(executor.jobs) == 1  # the answer sent the next trip
    executor.run_all()
    ui.drain()
    assert vm.queue == [] and vm.sync_text == "Corridas sincronizadas" and len(trips.uploaded) == 2
