"""Offers (Art. 66): a new ride is written already offered; a cab answers one offer at a time."""

import pytest
from django.utils import timezone

from backend.trips.models import Passenger, Ride
from dispatch import errors
from dispatch.models import Cab, Offer
from dispatch.rides import grid, offers, ride_steps

pytestmark = pytest.mark.django_db
PICKUP = (-21.131, -42.367)


@pytest.fixture
def free_cab(working_cab):
    def make(lat=PICKUP[0], lon=PICKUP[1]):
        permit = working_cab()
        return Cab.objects.create(permit=permit, driver=permit.holder, online=True, status="livre", lat=lat, lon=lon,
                                  cell=grid.cell_of(lat, lon), position_at=timezone.now())
    return make


@pytest.mark.article("Art. 66")
def test_a_new_ride_is_written_already_offered_to_the_nearest_free_cab_with_its_audit(free_cab):
    far, near = free_cab(PICKUP[0] + 0.004, PICKUP[1]), free_cab(PICKUP[0] + 0.001, PICKUP[1])
    ride = offers.request_ride(pickup={"lat": PICKUP[0], "lon": PICKUP[1], "address": "Praça João Pinheiro"})
    ride.refresh_from_db()
    assert (ride.status, ride.version, ride.escalated) == ("offered", 1, False) and ride.offered_at is not None
    offer = Offer.objects.get(ride=ride)
    assert (offer.cab_id, offer.status) == (near.pk, "pending")
    assert [(c["cab_id"], c["source"], c["allowed"]) for c in offer.candidates] == [(near.pk, "nearest", True), (far.pk, "nearest", True)]
    assert offer.candidates[0]["permit"] == near.permit.number and round(offer.distance_m) == offer.candidates[0]["distance_m"]


@pytest.mark.article("Art. 66")
def test_a_new_ride_no_cab_may_take_goes_to_the_operators_at_once():
    ride = offers.request_ride(pickup={"lat": PICKUP[0], "lon": PICKUP[1]})
    ride.refresh_from_db()
    assert (ride.status, ride.escalated) == ("requested", True)
    assert not Offer.objects.exists()


@pytest.mark.article("Art. 66")
def test_an_operator_cannot_hand_a_cab_a_second_offer_while_it_answers_one(free_cab):
    cab = free_cab()
    first = offers.request_ride(pickup={"lat": PICKUP[0], "lon": PICKUP[1]})
    waiting = offers.request_ride(pickup={"lat": PICKUP[0], "lon": PICKUP[1]})  # escalated: the only cab is busy answering
    with pytest.raises(errors.DispatchError) as refused:
        offers.assign_by_operator(waiting.pk, cab.permit_id)
    assert refused.value.code == "cab_has_offer"
    assert list(Offer.objects.values_list("ride_id", "status")) == [(first.pk, "pending")]
    assert Ride.objects.get(pk=waiting.pk).status == "requested"


@pytest.mark.article("Art. 66")
def test_a_passenger_with_a_ride_open_is_refused_a_second_and_nothing_is_written(free_cab):
    free_cab(), free_cab()
    passenger = Passenger.objects.create(name="Ana", phone="32999990000")
    first = offers.request_ride(pickup={"lat": PICKUP[0], "lon": PICKUP[1]}, passenger=passenger)
    with pytest.raises(errors.DispatchError) as refused:
        offers.request_ride(pickup={"lat": PICKUP[0], "lon": PICKUP[1]}, passenger=passenger)
    assert refused.value.code == "ride_open"
    assert list(Ride.objects.values_list("pk", flat=True)) == [first.pk] and Offer.objects.count() == 1
    ride_steps.cancel_ride(first.pk, by="passenger", passenger=passenger, reason="desisti")
    assert offers.request_ride(pickup={"lat": PICKUP[0], "lon": PICKUP[1]}, passenger=passenger).status == "offered"
