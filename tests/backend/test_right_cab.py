"""The right cab (docs/passenger-safety.md): from the accept, the passenger's page and the driver's app show the same
short code beside the plate; the driver says it before the passenger gets in. End to end: the server's frames fed to
the driver app's view-model (driver_app/viewmodels/ride.py)."""

from datetime import date

import pytest
from django.utils import timezone

from backend.parameters.models import DatedParameter
from backend.trips.models import Passenger
from dispatch import wire
from dispatch.events import snapshots
from dispatch.models import Cab, Offer
from dispatch.rides import driver_steps, grid, offers, safety
from driver_app.session import build_session

pytestmark = pytest.mark.django_db
PICKUP = (-21.131, -42.367)


@pytest.fixture
def offered(working_cab):
    permit = working_cab()
    cab = Cab.objects.create(permit=permit, driver=permit.holder, online=True, status="livre", lat=PICKUP[0] + 0.002,
                             lon=PICKUP[1], cell=grid.cell_of(PICKUP[0] + 0.002, PICKUP[1]), position_at=timezone.now())
    ana = Passenger.objects.create(name="Ana", phone="32999990000")
    ride = offers.request_ride(pickup={"lat": PICKUP[0], "lon": PICKUP[1], "address": "Praça João Pinheiro"}, passenger=ana)
    return ride, cab, ana, Offer.objects.get(ride=ride)


def _driver_app(tmp_path):
    s = build_session(tmp_path / "app", demo=True, clock=timezone.now)
    s.login.login("demo", "demo")
    s.after_login()
    s.flag.go_free()
    return s


def test_the_boarding_code_is_random_of_the_dated_length_and_off_at_zero():
    assert len(safety.boarding_code(4)) == 4 and safety.boarding_code(4).isdigit()
    assert len({safety.boarding_code(6) for _ in range(50)}) > 40  # not a constant, not a counter
    assert safety.boarding_code(0) == ""


def test_the_driver_app_shows_the_code_the_passenger_sees_until_boarding(offered, tmp_path):
    ride, cab, ana, offer = offered
    app = _driver_app(tmp_path)
    app.on_dispatch(wire.OFFER(offer=snapshots.offer(offer)))  # the app reads the server's frames as sent
    assert app.offer.accept()
    accepted = driver_steps.accept(offer.pk, cab.pk)  # what the server answers the driver's offer_accept with
    app.on_dispatch(wire.OFFER_ACCEPTED(ride_id=ride.pk, ride=accepted))

    [seen] = snapshots.for_passenger(ana)["rides"]  # the passenger's page
    code = seen["boarding_code"]
    assert len(code) == 4 and code.isdigit() and seen["cvi"]["plate"] == cab.permit.vehicles.get(in_service=True).plate
    assert app.ride.boarding_code == code
    assert app.ride.boarding_code_text == f"Código de embarque: {code}. Diga-o ao passageiro antes que ele entre."

    on_board = driver_steps.on_board(ride.pk, cab.pk)
    app.on_dispatch(wire.RIDE_UPDATED(ride=on_board))
    assert app.ride.status == "on_board" and app.ride.boarding_code_text == ""
    # a shared link never shows it: whoever follows the ride is not the one to check the cab
    assert "boarding_code" not in safety.public_view(ride.__class__.objects.get(pk=ride.pk))


def test_with_the_parameter_at_zero_no_code_is_made(offered):
    ride, cab, ana, offer = offered
    DatedParameter.objects.create(name="boarding_code_digits", effective_from=date(2026, 1, 2), value=0, source="teste")
    accepted = driver_steps.accept(offer.pk, cab.pk)
    assert "boarding_code" not in accepted and ride.__class__.objects.get(pk=ride.pk).boarding_code == ""
