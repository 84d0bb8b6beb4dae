"""Rides that ask for an equipped cab (taxilaw.accessibility): offered only to such cabs, else escalated with a
sentence the passenger and the console read (Art. 66)."""

import json

import pytest
from django.utils import timezone

from backend.registry.models import Vehicle
from dispatch import errors, protocol
from dispatch.events import snapshots
from dispatch.models import Cab, Offer
from dispatch.rides import grid, offers

pytestmark = pytest.mark.django_db
PICKUP = (-21.131, -42.367)
WHEELCHAIR = ("wheelchair_accessible",)


@pytest.fixture
def free_cab(working_cab):
    def make(lat=PICKUP[0], lon=PICKUP[1], **features):
        permit = working_cab()
        Vehicle.objects.filter(permit=permit, in_service=True).update(**features)
        return Cab.objects.create(permit=permit, driver=permit.holder, online=True, status="livre", lat=lat, lon=lon,
                                  cell=grid.cell_of(lat, lon), position_at=timezone.now())
    return make


@pytest.mark.article("Art. 66")
def test_a_wheelchair_ride_goes_to_a_farther_accessible_cab_not_a_nearer_one_that_is_not(free_cab):
    near = free_cab(PICKUP[0] + 0.001, PICKUP[1])
    accessible = free_cab(PICKUP[0] + 0.02, PICKUP[1], wheelchair_accessible=True)  # ~2.2 km away
    ride = offers.request_ride(pickup={"lat": PICKUP[0], "lon": PICKUP[1]}, needs=WHEELCHAIR)
    ride.refresh_from_db()
    assert (ride.status, ride.needs) == ("offered", ["wheelchair_accessible"])
    offer = Offer.objects.get(ride=ride)
    assert offer.cab_id == accessible.pk and near.pk not in [c["cab_id"] for c in offer.candidates]
    assert "acessível para cadeira de rodas" in offer.reason
    body = snapshots.ride(ride)
    assert body["needs_display"] == "acessível para cadeira de rodas" and "needs_unmet" not in body


@pytest.mark.article("Art. 66")
def test_without_a_free_accessible_cab_the_ride_escalates_and_says_why_in_portuguese(free_cab):
    free_cab(PICKUP[0] + 0.001, PICKUP[1], child_seat=True)  # near and free, but no wheelchair
    ride = offers.request_ride(pickup={"lat": PICKUP[0], "lon": PICKUP[1]}, needs=WHEELCHAIR)
    ride.refresh_from_db()
    assert (ride.status, ride.escalated) == ("requested", True) and not Offer.objects.exists()
    body = snapshots.ride(ride)
    assert body["needs_unmet"].startswith("Nenhum táxi acessível para cadeira de rodas está livre perto de você agora.")
    # a cab that frees is not offered it unless equipped: the retry leaves it escalated
    assert offers.offer_escalated(ride.pk) is None
    accessible = free_cab(PICKUP[0] + 0.03, PICKUP[1], wheelchair_accessible=True)
    assert offers.offer_escalated(ride.pk).cab_id == accessible.pk


@pytest.mark.article("Art. 66")
def test_the_rank_queue_passes_over_a_cab_without_the_need_and_the_audit_says_why(free_cab):
    from backend.ranks.models import Rank, RankCheckIn

    rank = Rank.objects.create(name="Praça", lat=PICKUP[0], lon=PICKUP[1], active=True)
    queued = free_cab()
    RankCheckIn.objects.create(rank=rank, permit=queued.permit, checked_in_at=timezone.now())
    accessible = free_cab(PICKUP[0] + 0.01, PICKUP[1], wheelchair_accessible=True)
    ride = offers.request_ride(pickup={"lat": PICKUP[0], "lon": PICKUP[1]}, needs=WHEELCHAIR)
    offer = Offer.objects.get(ride=ride)
    assert offer.cab_id == accessible.pk
    assert offer.candidates[0]["cab_id"] == queued.pk and offer.candidates[0]["reasons"] == ["vehicle_not_equipped"]


@pytest.mark.article("Art. 66")
def test_an_operator_cannot_send_a_wheelchair_ride_to_a_cab_without_the_ramp(free_cab):
    ride = offers.request_ride(pickup={"lat": PICKUP[0], "lon": PICKUP[1]}, needs=WHEELCHAIR, caller_name="Rui", caller_phone="3233330000")
    plain = free_cab()
    with pytest.raises(errors.DispatchError) as refused:
        offers.assign_by_operator(ride.pk, plain.permit_id)
    assert refused.value.code == "not_equipped" and "cadeira de rodas" in refused.value.message


def test_the_request_frame_carries_known_needs_only():
    frame = {"type": "ride_request", "pickup": {"lat": PICKUP[0], "lon": PICKUP[1]}, "needs": ["wheelchair_accessible"]}
    assert protocol.parse("passenger", json.dumps(frame))[1]["needs"] == ["wheelchair_accessible"]
    frame.pop("needs")
    assert protocol.parse("passenger", json.dumps(frame))[1]["needs"] == []
    with pytest.raises(protocol.ProtocolError):
        protocol.parse("passenger", json.dumps({**frame, "needs": ["jetpack"]}))
