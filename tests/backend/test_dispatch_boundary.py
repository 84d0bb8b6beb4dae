"""Places outside the municipality of Muriaé (Art. 25): refused as pickups, destinations and ranks; cabs there kept but never offered."""

import json

import pytest
from django.utils import timezone

from dispatch import protocol, wire
from dispatch.models import Cab, Offer
from dispatch.rides import grid, offers

PICKUP = (-21.131, -42.367)  # Praça Cel. Pacheco de Medeiros
OUTSIDE = [(-23.5505, -46.6333), (10.0, 10.0), (-21.0, -43.5)]  # São Paulo, the Atlantic, elsewhere in MG


def frame(kind, **fields):
    return json.dumps({"type": kind, **fields})


@pytest.mark.article("Art. 25")
@pytest.mark.parametrize("lat,lon", OUTSIDE)
def test_a_pickup_outside_the_municipality_is_refused_naming_it(lat, lon):
    with pytest.raises(protocol.ProtocolError) as err:
        protocol.parse("passenger", frame("ride_request", pickup={"lat": lat, "lon": lon}))
    error = wire.error(err.value)
    assert error["code"] == "invalid"
    assert "fora do município de Muriaé" in error["fields"]["pickup"][0]


@pytest.mark.article("Art. 25")
def test_an_operator_ride_with_a_destination_outside_is_refused():
    with pytest.raises(protocol.ProtocolError) as err:
        protocol.parse("operator", frame("ride_create", caller_name="Ana", caller_phone="32999990000",
                                         pickup={"lat": PICKUP[0], "lon": PICKUP[1]},
                                         destination={"lat": -22.9, "lon": -43.2}))  # Rio de Janeiro
    assert "fora do município de Muriaé" in wire.error(err.value)["fields"]["destination"][0]


@pytest.mark.article("Art. 25")
def test_a_pickup_inside_is_accepted():
    kind, data = protocol.parse("passenger", frame("ride_request", pickup={"lat": PICKUP[0], "lon": PICKUP[1]}))
    assert kind == "ride_request" and data["pickup"]["lat"] == PICKUP[0]


@pytest.mark.django_db
@pytest.mark.article("Art. 25", "Art. 66")
def test_a_cab_last_seen_outside_is_never_a_candidate(working_cab):
    def cab(lat, lon, zone):
        permit = working_cab()
        return Cab.objects.create(permit=permit, driver=permit.holder, online=True, status="livre", lat=lat, lon=lon,
                                  cell=grid.cell_of(lat, lon), zone=zone, position_at=timezone.now())

    # the nearer cab reported a position outside the boundary (a GPS glitch, a trip to a neighbour town)
    cab(PICKUP[0] + 0.0005, PICKUP[1], "outside")
    inside = cab(PICKUP[0] + 0.003, PICKUP[1], "central")
    ride = offers.request_ride(pickup={"lat": PICKUP[0], "lon": PICKUP[1]})
    offer = Offer.objects.get(ride=ride)
    assert offer.cab_id == inside.pk
    assert [c["cab_id"] for c in offer.candidates] == [inside.pk]


@pytest.mark.django_db
@pytest.mark.article("Art. 66")
def test_a_ride_without_address_gets_the_nearest_street_for_the_offer():
    ride = offers.request_ride(pickup={"lat": -21.1314, "lon": -42.3675})
    ride.refresh_from_db()
    assert ride.pickup_address == "Rua Coronel Domiciano, bairro Centro"
    typed = offers.request_ride(pickup={"lat": -21.1314, "lon": -42.3675, "address": "Em frente ao Fórum"})
    assert typed.pickup_address == "Em frente ao Fórum"


@pytest.mark.django_db
@pytest.mark.article("Art. 23", "Art. 25")
def test_a_rank_outside_the_municipality_is_refused_by_the_api(dimutran):
    response = dimutran.post("/api/ranks/", {"name": "Ponto Paulista", "lat": -23.5505, "lon": -46.6333, "category": "livre"},
                             format="json")
    assert response.status_code == 400
    assert "fora do município de Muriaé" in response.json()["location"][0]


def test_an_operators_caller_phone_is_kept_in_e164_and_one_without_ddd_is_refused_in_portuguese():
    """The console's phone search and the caller's history read one form, whichever door the ride came by."""
    ride = {"caller_name": "Ana", "pickup": {"lat": PICKUP[0], "lon": PICKUP[1]}}
    kind, data = protocol.parse("operator", frame("ride_create", caller_phone="(32) 3721-1234", **ride))
    assert kind == "ride_create" and data["caller_phone"] == "+553237211234"
    with pytest.raises(protocol.ProtocolError) as err:
        protocol.parse("operator", frame("ride_create", caller_phone="3721-1234", **ride))
    assert wire.error(err.value)["fields"]["caller_phone"] == ["Informe o telefone com DDD, por exemplo (32) 99999-1234."]
