"""The pickup on the streets (driver_app.streetmap) and navigation handed to the phone (driver_app.phone)."""

import pytest

from driver_app.phone import geo_uri
from driver_app.session import demo_offer
from driver_app.streetmap import nearest_name, view_lines

from .test_offer import setup

DOMICIANO = (-21.13165, -42.3683)


@pytest.mark.article("Art. 66")
def test_the_streets_around_the_pickup_fill_the_view_and_the_nearest_is_named():
    lines = view_lines(*DOMICIANO, width=400, height=200, radius_m=300)
    assert len(lines) > 20
    xs = [v for _n, flat in lines for v in flat[0::2]]
    ys = [v for _n, flat in lines for v in flat[1::2]]
    assert min(xs) < 0 < 400 < max(xs) and min(ys) < 100 < max(ys)  # lines cross the whole view
    assert nearest_name(*DOMICIANO, lines, 400, 200) == "Rua Coronel Domiciano"


def test_far_from_any_street_the_view_is_empty():
    assert view_lines(-21.20, -42.40, 400, 200, radius_m=150) == []


@pytest.mark.article("Art. 66")
def test_geo_uri_marks_the_pickup():
    assert geo_uri(-21.1302, -42.3655, "Rua Cel. Izalino, 120") == (
        "geo:-21.130200,-42.365500?q=-21.130200,-42.365500(Rua%20Cel.%20Izalino%2C%20120)")


@pytest.mark.article("Art. 66")
def test_navigation_goes_to_the_offered_then_the_accepted_pickup(clock):
    dispatch, flag, offer = setup(clock)
    nav = offer.phone  # the desktop phone records the geo: URIs it was asked to open
    assert not offer.navigate() and nav.opened == []  # no offer, nowhere to go
    dispatch.push(demo_offer(clock))
    assert offer.navigate()
    assert offer.accept()
    assert offer.navigate()  # after accepting, the way to the passenger
    assert nav.opened == [geo_uri(-21.1302, -42.3655, "Rua Coronel Izalino, 120 – Centro")] * 2


def test_a_declined_offer_leaves_nothing_to_navigate_to(clock):
    dispatch, flag, offer = setup(clock)
    dispatch.push(demo_offer(clock))
    offer.decline()
    assert offer.pickup_point is None
