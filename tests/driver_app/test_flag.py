from datetime import datetime

import pytest

from driver_app.clients import FakeClock, FakeDispatch
from driver_app.gps import ReplayGps
from driver_app.viewmodels import DriverState, FlagViewModel, MeterViewModel
from driver_app.viewmodels.flag import DISPLAY, colour_255
from taxilaw.flags import MURIAE_TZ, municipal_holiday_dates
from taxilaw.tariffs import MURIAE_DEMO_TARIFF


def test_every_state_has_a_distinct_colour_and_label():
    assert set(DISPLAY) == {"livre", "bandeira_1", "bandeira_2", "a_caminho", "ocupado", "fora_de_servico"}
    assert len({c for _l, c in DISPLAY.values()}) == 6
    assert [DISPLAY[k][0] for k in ("livre", "bandeira_1", "bandeira_2", "a_caminho", "ocupado",
                                    "fora_de_servico")] == [
        "Livre", "Bandeira I", "Bandeira II", "A caminho", "Ocupado", "Fora de serviço"]
    assert colour_255("livre")[1] > 140  # green


def test_transitions_and_dispatch_status(clock):
    dispatch = FakeDispatch()
    vm = FlagViewModel(clock, dispatch=dispatch)
    assert vm.state == DriverState.FORA_DE_SERVICO and vm.label == "Fora de serviço"
    assert vm.go_free() and vm.label == "Livre" and vm.colour == DISPLAY["livre"][1]
    vm.to_pickup()
    assert vm.label == "A caminho"
    vm.trip_started(None)
    assert vm.label == "Ocupado"  # occupied, meter not (yet) running
    vm.trip_ended()
    assert vm.label == "Livre"
    vm.go_off_duty()
    # a_caminho and a dispatched ride's ocupado are the central's own (offer_accept, ride_on_board): not sent
    assert [m["status"] for m in dispatch.sent] == ["livre", "livre", "fora_de_servico"]
    assert dispatch.sent[0] == {"type": "status", "status": "livre"}
    vm.go_free()
    vm.trip_started(None, street=True)  # a street passenger: only the app knows the cab is taken
    assert dispatch.sent[-1] == {"type": "status", "status": "ocupado"}


@pytest.mark.article("Art. 51")
def test_driver_not_allowed_to_work_cannot_go_free(clock):
    vm = FlagViewModel(clock)
    vm.go_free()
    vm.set_compliance({"allowed": False, "articles": ["Art. 51"],
                       "reasons": [{"article": "Art. 51", "code": "cmt_expired", "message": "CMT vencida."}]})
    assert vm.state == DriverState.FORA_DE_SERVICO  # forced out of service
    assert not vm.go_free()
    assert vm.message == "Impedido de trabalhar: CMT vencida."
    assert vm.reason == "Impedido: CMT vencida."
    assert not vm.can_go_free


@pytest.mark.article("Art. 51")
def test_a_refusal_that_answers_during_a_trip_takes_the_cab_out_of_service_when_it_ends(clock):
    vm = FlagViewModel(clock)
    vm.go_free()
    vm.trip_started(None)  # a trip resumed at start-up; /api/me/ answers later, off the UI thread
    vm.set_compliance({"allowed": False, "reasons": [{"message": "CMT vencida."}]})
    assert vm.state == DriverState.OCUPADO  # the passenger aboard is driven to the end
    vm.trip_ended()
    assert vm.state == DriverState.FORA_DE_SERVICO and not vm.go_free()


@pytest.mark.article("Art. 45, I")
def test_free_on_a_working_day_shows_bandeira_i(clock):
    vm = FlagViewModel(clock)
    vm.go_free()
    assert vm.reason == "Corrida agora: Bandeira I (dia útil, 06:00–22:00)"


@pytest.mark.article("Art. 45, II")
@pytest.mark.parametrize("when, reason", [
    (datetime(2026, 3, 4, 22, 0, tzinfo=MURIAE_TZ), "Corrida agora: Bandeira II (22:00–06:00)"),
    (datetime(2026, 3, 5, 5, 59, tzinfo=MURIAE_TZ), "Corrida agora: Bandeira II (22:00–06:00)"),
    (datetime(2026, 3, 8, 12, 0, tzinfo=MURIAE_TZ), "Corrida agora: Bandeira II (domingo)"),
    (datetime(2026, 4, 21, 12, 0, tzinfo=MURIAE_TZ), "Corrida agora: Bandeira II (feriado: Tiradentes)"),
    (datetime(2026, 6, 29, 12, 0, tzinfo=MURIAE_TZ), "Corrida agora: Bandeira II (feriado: feriado municipal)"),
])
def test_free_shows_the_flag_a_trip_would_start_with(when, reason):
    vm = FlagViewModel(FakeClock(when), municipal_holiday_dates([2026]))
    vm.go_free()
    assert vm.reason == reason


@pytest.mark.article("Art. 45, II")
def test_running_meter_switches_to_bandeira_ii_at_the_10th_km(clock, store):
    dispatch = FakeDispatch()
    flag = FlagViewModel(clock, dispatch=dispatch)
    # 40 km/h due north, one fix per second: the 10th km begins after 9 000 m (~810 s)
    points = [(-21.131 + (40 / 3.6 * i) / 110_760.0, -42.366, 5.0) for i in range(0, 1000)]
    gps = ReplayGps(points, clock)
    meter = MeterViewModel(store, MURIAE_DEMO_TARIFF, gps, clock)
    meter.subscribe(lambda vm: flag.on_meter(vm.last) if vm.running else None)
    flag.go_free()
    meter.start()
    flag.trip_started(meter.last)
    gps.step()
    assert flag.display_state == "bandeira_1" and flag.reason == "dia útil, 06:00–22:00"
    for _ in range(700):
        clock.advance(1)
        gps.step()
    assert flag.label == "Bandeira I"
    for _ in range(200):
        clock.advance(1)
        gps.step()
    assert flag.label == "Bandeira II" and flag.reason == "10º km"
    assert flag.colour == DISPLAY["bandeira_2"][1]
    assert meter.flag_text == "Bandeira II" and meter.flag_reason == "10º km"
    assert dispatch.sent == [{"type": "status", "status": "livre"}]  # the flag is the meter's, not the central's


@pytest.mark.article("Art. 45, II")
def test_running_meter_shows_22h_reason(store):
    clock = FakeClock(datetime(2026, 3, 4, 21, 59, 0, tzinfo=MURIAE_TZ))
    flag = FlagViewModel(clock)
    gps = ReplayGps([(-21.131, -42.366, 5.0)] * 200, clock)
    meter = MeterViewModel(store, MURIAE_DEMO_TARIFF, gps, clock)
    meter.subscribe(lambda vm: flag.on_meter(vm.last) if vm.running else None)
    meter.start()
    flag.trip_started(meter.last)
    for _ in range(90):
        clock.advance(1)
        gps.step()
    assert flag.label == "Bandeira II" and flag.reason == "22:00–06:00"
