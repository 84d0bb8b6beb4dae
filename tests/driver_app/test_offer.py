from driver_app.clients import FakeDispatch
from driver_app.session import demo_offer
from driver_app.viewmodels import DriverState, FlagViewModel, OfferViewModel


def setup(clock):
    dispatch = FakeDispatch()
    flag = FlagViewModel(clock, dispatch=dispatch)
    offer = OfferViewModel(dispatch, flag, clock)
    dispatch.connect("tok", offer.on_message)
    flag.go_free()
    dispatch.sent.clear()
    return dispatch, flag, offer


def test_offer_shows_pickup_distance_and_countdown(clock):
    dispatch, flag, offer = setup(clock)
    assert offer.pickup_text == "Nenhuma chamada" and not offer.active
    dispatch.push(demo_offer(clock, seconds=20))
    assert offer.active
    assert offer.pickup_text == "Rua Coronel Izalino, 120 – Centro (em frente à matriz)"
    assert offer.distance_text == "850 m até o passageiro"
    assert offer.countdown_text == "0:20" and offer.progress == 1.0
    clock.advance(5.5)
    assert offer.countdown_text == "0:15"
    assert 0.7 < offer.progress < 0.75


def test_distance_in_km_and_expires_in(clock):
    dispatch, flag, offer = setup(clock)
    dispatch.push({"type": "offer", "offer_id": "o9", "pickup": {"address": "Rodoviária"}, "distance_m": 2350,
                   "expires_in_s": 15})
    assert offer.distance_text == "2,3 km até o passageiro" and offer.countdown_text == "0:15"


def test_accept_sends_and_goes_to_pickup(clock):
    dispatch, flag, offer = setup(clock)
    dispatch.push(demo_offer(clock))
    oid = offer.offer["offer_id"]
    assert offer.accept()
    assert dispatch.sent[0] == {"type": "accept", "offer_id": oid}
    assert flag.state == DriverState.A_CAMINHO and flag.label == "A caminho"
    assert not offer.active and offer.outcome == "accepted"


def test_decline(clock):
    dispatch, flag, offer = setup(clock)
    dispatch.push(demo_offer(clock))
    offer.decline()
    assert dispatch.sent[-1]["type"] == "decline" and dispatch.sent[-1]["reason"] == "driver"
    assert flag.state == DriverState.LIVRE and offer.outcome == "declined"


def test_unanswered_offer_times_out(clock):
    dispatch, flag, offer = setup(clock)
    dispatch.push(demo_offer(clock, seconds=10))
    clock.advance(9)
    offer.tick()
    assert offer.active
    clock.advance(1)
    offer.tick()
    assert not offer.active and offer.outcome == "expired"
    assert dispatch.sent[-1]["reason"] == "timeout"
    assert not offer.accept()  # too late


def test_offer_while_busy_is_declined_and_cancel_closes(clock):
    dispatch, flag, offer = setup(clock)
    flag.to_pickup()
    dispatch.push(demo_offer(clock))
    assert not offer.active and dispatch.sent[-1]["reason"] == "busy"
    assert not flag.go_free()  # during a ride only the ride's steps free the cab
    flag.trip_ended()
    dispatch.push(demo_offer(clock))
    dispatch.push({"type": "offer_cancelled", "offer_id": offer.offer["offer_id"]})
    assert not offer.active and offer.outcome == "cancelled"
