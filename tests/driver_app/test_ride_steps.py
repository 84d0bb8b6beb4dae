"""An offer takes over any screen with sound and the passenger; the ride's steps show only their actions;
the driver's cancel and no-show (protocol 1.3) -- view-models without a window."""

from datetime import timedelta

import pytest

from driver_app.session import build_session, demo_offer
from driver_app.viewmodels import DriverState
from driver_app.viewmodels.navigation import SCREEN_NAMES
from taxiwire import outbound


def demo(tmp_path, clock):
    s = build_session(tmp_path / "app", demo=True, clock=clock)
    s.login.login("demo", "demo")
    s.after_login()
    s.flag.go_free()
    return s


def accepted(s, clock):
    s.on_dispatch(demo_offer(clock, offer_id=7, ride_id=3))
    assert s.offer.accept()
    s.on_dispatch({"type": "offer_accepted", "ride_id": 3, "ride": {
        "id": 3, "status": "accepted", "pickup": {"lat": -21.1302, "lon": -42.3655, "address": "Rua Coronel Izalino, 120"},
        "destination": None, "passenger": "Maria Aparecida", "passenger_phone": "(32) 99876-5432", "no_show_at": None}})


@pytest.mark.article("Art. 66")
@pytest.mark.parametrize("screen", [n for n in SCREEN_NAMES if n not in ("login", "offer")])
def test_an_offer_takes_over_every_screen_rings_and_shows_the_passenger(tmp_path, clock, screen):
    s = demo(tmp_path, clock)
    s.on_dispatch(demo_offer(clock, seconds=20))
    assert s.navigator.screen_for(screen, s.offer.active, s.ride.status, s.meter.running) == "offer"
    assert s.extras["sound"].requests == 1  # it rang (driver_app/sound.py)
    assert s.offer.passenger_text == "Passageiro: Maria Aparecida" and s.offer.countdown_text == "0:20"
    assert s.offer.destination_text == "Destino: Hospital São Paulo"
    assert s.offer.call_passenger() and s.extras["phone"].log[-1] == ("call", "tel:32998765432")
    s.offer.decline()
    assert s.navigator.screen_for("offer", s.offer.active, s.ride.status, s.meter.running) == screen


def test_accepting_goes_to_the_ride_whose_steps_show_only_their_actions(tmp_path, clock):
    s = demo(tmp_path, clock)
    s.navigator.screen_for("split", True, "", False)
    accepted(s, clock)
    assert s.navigator.screen_for("offer", False, "", False, en_route=True) == "ride"
    assert [a for a, _label, _ok in s.ride.actions] == ["arriving", "navigate", "call", "cancel"]
    assert s.ride.passenger_text == "Maria Aparecida · (32) 99876-5432"
    assert not s.flag.can_go_free and not s.flag.can_go_off_duty
    assert s.ride.navigate() and s.extras["phone"].log[-1][1].startswith("geo:-21.130200,-42.365500?q=")
    assert s.ride.arriving() and not s.ride.arriving()  # one tap: the second waits for the answer
    assert all(not ok for a, _label, ok in s.ride.actions if a in ("arriving", "cancel"))
    s.on_dispatch({"type": "ride_updated", "ride": {"id": 3, "status": "arriving",
                                                    "no_show_at": (clock() + timedelta(minutes=5)).isoformat()}})
    assert [a for a, _label, _ok in s.ride.actions] == ["on_board", "call", "cancel"]
    s.start_trip()
    assert s.ride.actions == [] and s.flag.state == DriverState.OCUPADO and not s.flag.can_go_free
    assert s.navigator.screen_for("ride", False, s.ride.status, s.meter.running) == "meter"


@pytest.mark.article("Art. 1, X")
def test_the_no_show_is_offered_after_the_central_s_waiting_time(tmp_path, clock):
    s = demo(tmp_path, clock)
    accepted(s, clock)
    s.ride.arriving()
    s.on_dispatch({"type": "ride_updated", "ride": {"id": 3, "status": "arriving",
                                                    "no_show_at": (clock() + timedelta(minutes=5)).isoformat()}})
    options = {code: (label, ok) for code, label, ok in s.ride.cancel_options()}
    assert options["passenger_absent"] == ("Passageiro não apareceu (em 5:00)", False)
    assert options["vehicle_problem"][1] and options["passenger_asked"][1]
    assert not s.ride.cancel("passenger_absent") and "5:00" in s.ride.no_show_text
    clock.advance(300)
    assert s.ride.no_show_text.startswith("O tempo de espera passou")
    assert s.ride.cancel("passenger_absent")
    assert s.dispatch.sent[-1] == {"type": "ride_cancel", "ride_id": 3, "reason": "passenger_absent"}
    s.on_dispatch({"type": "ride_cancelled", "ride_id": 3, "reason": "passenger_absent", "next": "end"})
    assert s.ride.ride_id is None and s.ride.message == "Corrida encerrada: passageiro não apareceu."
    assert s.flag.state == DriverState.LIVRE
    assert s.navigator.screen_for("ride", False, s.ride.status, s.meter.running) == "flag"


def test_a_refused_cancel_says_why_and_frees_the_buttons(tmp_path, clock):
    s = demo(tmp_path, clock)
    accepted(s, clock)
    assert s.ride.cancel("vehicle_problem")
    s.on_dispatch({"type": "error", "code": "law", "message": "Só é possível cancelar antes de o passageiro embarcar."})
    assert s.ride.ride_id == 3 and not s.ride.pending and "embarcar" in s.ride.message


def test_the_offer_frame_brings_the_passenger_and_the_destination(tmp_path, clock):
    s = demo(tmp_path, clock)
    s.on_dispatch(outbound.OFFER(offer={
        "id": 4, "ride_id": 9, "status": "pending", "expires_at": (clock() + timedelta(seconds=20)).isoformat(),
        "distance_m": 300, "reason": "", "pickup": {"lat": -21.1, "lon": -42.3, "address": "Praça"},
        "passenger": {"name": "Ana", "phone": "32999990000"},
        "destination": {"lat": -21.2, "lon": -42.4, "address": "Rodoviária"}}))
    assert s.offer.passenger == {"name": "Ana", "phone": "32999990000"}
    assert s.offer.destination_text == "Destino: Rodoviária"


@pytest.mark.article("Art. 1, X", "Art. 9, VII")
def test_a_cheguei_or_no_show_the_central_refuses_shows_its_reason_and_may_be_tried_again(tmp_path, clock):
    away = ("O táxi está a 2989 m do local de embarque; a chegada e a ausência do passageiro só são registradas a "
            "até 500 m dele (Art. 1, X; Art. 9, VII).")
    refusal = {"type": "error", "code": "law", "message": away,
               "reasons": [{"article": "Art. 1, X", "code": "away_from_pickup", "message": away}]}
    s = demo(tmp_path, clock)
    accepted(s, clock)
    assert s.ride.arriving()
    s.on_dispatch(refusal)
    assert s.ride.status == "accepted" and s.ride.pending == "" and s.ride.message == away
    assert [a for a, _label, ok in s.ride.actions if ok][0] == "arriving"  # the button is back
    assert s.ride.arriving()
    s.on_dispatch({"type": "ride_updated", "ride": {"id": 3, "status": "arriving",
                                                    "no_show_at": (clock() + timedelta(minutes=5)).isoformat()}})
    assert s.ride.status == "arriving" and s.ride.message == ""  # accepted: the old refusal goes
    clock.advance(300)
    assert s.ride.cancel("passenger_absent")
    s.on_dispatch(refusal)
    assert s.ride.ride_id == 3 and s.ride.status == "arriving" and s.ride.pending == "" and s.ride.message == away
    assert s.ride.cancel("passenger_absent")  # nearer the pickup, the driver taps again
