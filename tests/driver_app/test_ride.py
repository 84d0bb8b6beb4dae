"""The dispatched ride, the rank queue, positions, the tariff from the server and the sync queue's
refusals -- view-models and session without a window or a socket."""

from datetime import timedelta
from decimal import Decimal

import pytest

from driver_app.clients import FakeDispatch, FakeTariffs, NetworkError, RejectedError
from driver_app.gps import ReplayGps, SharedGps
from driver_app.session import build_session
from driver_app.viewmodels import DriverState, FlagViewModel, MeterViewModel, PositionReporter
from taxilaw.meter_data import MeterParams
from taxilaw.tariffs import MURIAE_DEMO_TARIFF
from taxiwire import outbound


def offer_body(clock, offer_id=7, ride_id=3):
    return {"id": offer_id, "ride_id": ride_id, "status": "pending", "distance_m": 420, "reason": "",
            "pickup": {"address": "Praça", "lat": -21.13, "lon": -42.36},
            "expires_at": (clock() + timedelta(seconds=20)).isoformat()}


def offer_msg(clock, offer_id=7, ride_id=3):
    return outbound.OFFER(offer=offer_body(clock, offer_id, ride_id))


def demo(tmp_path, clock):
    s = build_session(tmp_path / "app", demo=True, clock=clock)
    s.login.login("demo", "demo")
    s.after_login()
    return s


def test_offer_accepted_arriving_on_board_and_the_meter_knows_the_ride(tmp_path, clock):
    s = demo(tmp_path, clock)
    s.flag.go_free()
    s.on_dispatch(offer_msg(clock))
    assert s.offer.accept()
    s.on_dispatch({"type": "offer_accepted", "ride_id": 3})
    assert s.ride.status == "accepted" and "Praça" in s.ride.ride_text
    assert s.ride.arriving() and s.dispatch.sent[-1] == {"type": "ride_arriving", "ride_id": 3}
    assert s.ride.status == "accepted" and s.ride.pending == "arriving"  # shown only once the central answers
    s.on_dispatch({"type": "ride_updated", "ride": {"id": 3, "status": "arriving"}})
    s.start_trip()
    assert {"type": "ride_on_board", "ride_id": 3} in s.dispatch.sent
    assert s.meter.ride_id == 3 and s.ride.status == "on_board" and s.flag.state == DriverState.OCUPADO
    for _ in range(30):
        clock.advance(1)
        s.gps.step()
    s.stop_trip()
    assert s.extras["trips"].uploaded[-1]["ride_id"] == 3
    assert not s.ride.active and s.flag.state == DriverState.LIVRE


def test_snapshot_restores_the_ride_and_the_same_offer_is_not_declined(tmp_path, clock):
    s = demo(tmp_path, clock)
    s.flag.go_free()
    s.on_dispatch(offer_msg(clock))
    s.on_dispatch({"type": "snapshot", "cab": {}, "offer": offer_body(clock), "ride": None})  # the pending offer, again
    assert s.offer.active and not [m for m in s.dispatch.sent if m["type"] == "offer_decline"]
    s2 = demo(tmp_path / "other", clock)
    s2.on_dispatch({"type": "snapshot", "cab": {}, "offer": None,
                    "ride": {"id": 5, "status": "on_board", "pickup": {"address": "Rua A"}}})
    assert s2.ride.ride_id == 5 and s2.flag.state == DriverState.OCUPADO
    s2.start_trip()
    assert s2.meter.ride_id == 5


def test_cancelled_ride_rank_queue_connection_and_errors(tmp_path, clock):
    s = demo(tmp_path, clock)
    s.flag.go_free()
    s.ranks.check_in(4)
    assert s.dispatch.sent[-1] == {"type": "rank_check_in", "rank_id": 4}
    s.on_dispatch({"type": "rank_checked_in", "rank_id": 4, "rank": "Praça", "queue_position": 2, "visitor": False})
    assert s.ride.rank_text == "Praça: 2º na fila"
    s.ranks.check_out()
    s.on_dispatch({"type": "rank_checked_out"})
    assert s.ride.rank_text == ""
    s.on_dispatch(offer_msg(clock))
    s.offer.accept()
    s.on_dispatch({"type": "error", "code": "offer_gone", "message": "Esta oferta não está mais disponível."})
    assert s.flag.state == DriverState.LIVRE and "não está mais disponível" in s.ride.message
    s.on_dispatch(offer_msg(clock, offer_id=8, ride_id=4))
    s.offer.accept()
    s.on_dispatch({"type": "offer_accepted", "ride_id": 4})
    s.on_dispatch({"type": "ride_cancelled", "ride_id": 4})
    assert not s.ride.active and s.flag.state == DriverState.LIVRE and s.ride.message == "Corrida cancelada."
    s.on_dispatch({"type": "connection", "online": False})
    assert s.ride.connection_text == "Sem conexão com a central" and s.ride.message.startswith("Sem conexão")
    s.on_dispatch({"type": "connection", "online": True})
    assert s.ride.message == "" and s.ride.connection_text == "Central conectada"
    s.on_dispatch({"type": "suspended", "reasons": [{"message": "Suspensão (Art. 54, b)"}]})
    assert not s.flag.allowed and "Art. 54" in s.ride.message
    s.on_dispatch({"type": "connection", "online": False, "reason": "policy", "message": "Este táxi já está em serviço."})
    assert s.ride.message == "Este táxi já está em serviço."  # the central's reason, not a generic one
    s.on_dispatch({"type": "connection", "online": False, "reason": "policy", "message": ""})
    assert s.ride.message == "A central encerrou a conexão."


def test_positions_every_5_s_only_while_working(clock):
    dispatch = FakeDispatch()
    flag = FlagViewModel(clock, dispatch=dispatch)
    shared = SharedGps(ReplayGps([(-21.13, -42.36, 5.0)] * 100, clock))
    reporter = PositionReporter(dispatch, flag, shared.channel(), clock)
    meter_channel = shared.channel()

    def run(n):
        for _ in range(n):
            clock.advance(1)
            shared.step()
            reporter.tick()

    run(10)
    assert reporter.sent == 0 and not shared.running  # fora de serviço: GPS off, nothing sent
    flag.go_free()
    run(11)
    positions = [m for m in dispatch.sent if m["type"] == "position"]
    assert len(positions) == 2 and positions[0] == {"type": "position", "lat": -21.13, "lon": -42.36, "accuracy": 5.0}
    seen = []
    meter_channel.start(seen.append)  # the meter shares the GPS
    run(2)
    assert len(seen) == 2
    flag.go_off_duty()
    run(1)
    assert shared.running  # the meter still listens
    meter_channel.stop()
    assert not shared.running


def test_rejected_trip_is_dropped_with_a_message_and_network_errors_keep_it(store, clock):
    class Trips:
        def __init__(self):
            self.answer = NetworkError("offline")

        def upload(self, token, trip):
            if self.answer:
                raise self.answer

    trips = Trips()
    gps = ReplayGps([(-21.13, -42.36, 5.0)] * 10, clock)
    vm = MeterViewModel(store, MURIAE_DEMO_TARIFF, gps, clock, trips=trips, save_every_s=0)
    vm.start(ride_id=12)
    clock.advance(5)
    vm.stop()
    assert len(vm.queue) == 1 and vm.sync_text == "1 corrida aguardando conexão"
    assert store.load("sync_queue")[0]["ride_id"] == 12
    trips.answer = RejectedError("wrong_state", "A corrida está em “concluída”.")
    vm.sync()
    assert vm.queue == [] and store.load("sync_queue") == []
    assert vm.sync_text.startswith("Corrida #12 descartada") and "concluída" in vm.sync_text
    assert store.load("sync_rejected")[0]["rejected"] == "wrong_state"


@pytest.mark.article("Art. 43", "Art. 45", "Art. 45, II")
def test_the_meter_runs_the_servers_tariff_holidays_and_fraction_or_does_not_start(tmp_path, clock):
    s = demo(tmp_path, clock)
    server = dict(MURIAE_DEMO_TARIFF.to_dict(), effective_from="2026-02-01", bandeirada="6.00", decree="Decreto 1/2026")
    params = dict(MeterParams().to_dict(), fraction="0.05")
    s.tariffs = FakeTariffs(tariff=server, meter={"params": params, "holidays": [s.today().isoformat()],
                                                  "holidays_until": "2027-12-31"})
    s.load_tariff()
    assert s.meter.tariff.bandeirada == Decimal("6.00") and s.meter.tariff_note == ""
    assert "Bandeirada R$ 6,00" in s.meter.tariff_text
    assert s.meter.params.fraction == Decimal("0.05")  # the dated parameter, not a literal of the app
    assert s.today() in s.flag.municipal_holidays and s.today() in s.meter.municipal_holidays  # Art. 45, II
    assert s.store.load("tariff")["meter"]["params"]["fraction"] == "0.05"
    s.tariffs.online = False
    s.load_tariff()  # offline: the last answer received, fraction and holidays included
    assert s.meter.tariff.bandeirada == Decimal("6.00") and "Sem conexão" in s.meter.tariff_text
    assert s.meter.params.fraction == Decimal("0.05") and s.today() in s.meter.municipal_holidays
    s.store.delete("tariff")
    s.load_tariff()  # offline and nothing received yet: no tariff, no meter
    assert s.meter.tariff is None and "não pode ser iniciado" in s.meter.tariff_text
    assert s.start_trip() is False and not s.meter.running
    s.tariffs.online = True
    s.tariffs.tariff = None  # the server has no decree in force
    s.load_tariff()
    assert s.start_trip() is False and "Nenhuma tarifa decretada" in s.meter.tariff_text
    s.tariffs.tariff = server
    s.load_tariff()
    assert s.start_trip() is True and s.meter.running


def test_api_session_wires_the_real_clients(tmp_path, clock):
    from driver_app.clients import HttpRegistryClient, HttpStatementsClient, HttpTariffClient
    from driver_app.ws import DispatchTripsClient, WsDispatchClient

    s = build_session(tmp_path / "app", api="http://127.0.0.1:9", clock=clock)
    assert isinstance(s.extras["registry"], HttpRegistryClient)
    assert isinstance(s.extras["statements"], HttpStatementsClient)
    assert isinstance(s.tariffs, HttpTariffClient)
    assert isinstance(s.dispatch, WsDispatchClient) and s.dispatch.url == "ws://127.0.0.1:9/ws/driver/"
    assert isinstance(s.extras["trips"], DispatchTripsClient)
    assert s.flag.dispatch is s.dispatch and s.offer.dispatch is s.dispatch
    assert not s.online  # nothing connected yet: the sync queue waits


def test_the_servers_ride_updated_answer_sets_the_rides_step(tmp_path, clock):
    """Protocol 1.2: each step is answered with the ride as the server now has it; the app follows the answer."""
    s = demo(tmp_path, clock)
    s.flag.go_free()
    s.on_dispatch(offer_msg(clock))
    assert s.offer.accept()
    s.on_dispatch({"type": "offer_accepted", "ride_id": 3, "ride": {"id": 3, "status": "accepted", "pickup": {"address": "Rua Coronel Izalino"}}})
    assert s.ride.pickup["address"] == "Rua Coronel Izalino"
    s.on_dispatch({"type": "ride_updated", "ride": {"id": 3, "status": "arriving"}})
    assert s.ride.status == "arriving"
    s.on_dispatch({"type": "ride_updated", "ride": {"id": 4, "status": "on_board"}})  # another ride: not this one
    assert s.ride.status == "arriving"


def test_the_app_shows_not_receiving_rides_when_the_central_says_so_and_recovers(tmp_path, clock):
    """Protocol 1.5: the socket stays open while the central stops counting the cab (its serving process was
    swept while stalled); the app says so, with what to do, and says when it is receiving again."""
    s = demo(tmp_path, clock)
    s.flag.go_free()
    s.on_dispatch({"type": "connection", "online": True})
    s.on_dispatch({"type": "snapshot", "cab": {"online": True, "status": "livre"}, "offer": None, "ride": None})
    assert s.ride.connection_text == "Central conectada" and s.ride.message == ""
    s.on_dispatch({"type": "presence", "online": False})
    assert s.ride.connection_text == "Central conectada, mas sem receber corridas"
    assert s.ride.message.startswith("Você não está recebendo corridas") and "feche e abra o aplicativo" in s.ride.message
    assert s.flag.state == DriverState.LIVRE  # the driver's own choice is kept: the central records the cab again
    s.on_dispatch({"type": "presence", "online": True})
    assert s.ride.connection_text == "Central conectada"
    assert s.ride.message == "Registro na central refeito: você voltou a receber corridas."
    s.on_dispatch({"type": "presence", "online": False})  # and again, then a reconnection's snapshot settles it
    s.on_dispatch({"type": "connection", "online": False})
    assert s.ride.connection_text == "Sem conexão com a central"
    s.on_dispatch({"type": "connection", "online": True})
    s.on_dispatch({"type": "snapshot", "cab": {"online": True, "status": "livre"}, "offer": None, "ride": None})
    assert s.ride.connection_text == "Central conectada" and s.ride.message == ""
