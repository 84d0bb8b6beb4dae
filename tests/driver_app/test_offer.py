from datetime import timedelta

from driver_app.clients import FakeDispatch
from driver_app.session import demo_offer
from driver_app.viewmodels import DriverState, FlagViewModel, OfferViewModel
from taxiwire import outbound


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
    dispatch.push(outbound.OFFER(offer={"id": 9, "ride_id": 4, "status": "pending", "reason": "", "distance_m": 2350,
                                        "pickup": {"lat": -21.1, "lon": -42.3, "address": ""},
                                        "expires_at": (clock() + timedelta(seconds=15)).isoformat()}))
    assert offer.distance_text == "2,3 km até o passageiro" and offer.countdown_text == "0:15"
    assert offer.pickup_text == "-21.10000, -42.30000"  # a pickup given as a point


def test_accept_sends_and_goes_to_pickup(clock):
    dispatch, flag, offer = setup(clock)
    dispatch.push(demo_offer(clock))
    oid = offer.offer["id"]
    assert offer.accept()
    assert dispatch.sent == [{"type": "offer_accept", "offer_id": oid}]  # a_caminho: the central's, on accept
    assert flag.state == DriverState.A_CAMINHO and flag.label == "A caminho"
    assert not offer.active and offer.outcome == "accepted"


def test_decline(clock):
    dispatch, flag, offer = setup(clock)
    dispatch.push(demo_offer(clock))
    offer.decline()
    assert dispatch.sent[-1]["type"] == "offer_decline" and dispatch.sent[-1]["offer_id"] > 0
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
    assert dispatch.sent[-1]["type"] == "offer_decline"
    assert not offer.accept()  # too late


def test_offer_while_busy_is_declined_and_cancel_closes(clock):
    dispatch, flag, offer = setup(clock)
    flag.to_pickup()
    dispatch.push(demo_offer(clock))
    assert not offer.active and dispatch.sent[-1]["type"] == "offer_decline"
    assert not flag.go_free()  # during a ride only the ride's steps free the cab
    flag.trip_ended()
    dispatch.push(demo_offer(clock))
    dispatch.push(outbound.OFFER_CLOSED(offer_id=offer.offer["id"], status="withdrawn"))
    assert not offer.active and offer.outcome == "cancelled"
