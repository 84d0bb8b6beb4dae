"""The passenger's safety during a ride (docs/passenger-safety.md): a revocable link to follow it that shows the cab
(Art. 32) and nothing else about the passenger; an SOS stored for DIMUTRAN and announced to the operators."""

import hashlib

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from backend.trips.models import Passenger
from dispatch.events import announcements
from dispatch.models import Cab, Offer, RideShare, SosAlert
from dispatch.rides import grid, offers, ride_steps

pytestmark = pytest.mark.django_db
PICKUP = (-21.131, -42.367)


@pytest.fixture
def accepted(working_cab):
    """A ride of Ana's accepted by a cab 300 m away, and her API client."""
    permit = working_cab()
    cab = Cab.objects.create(permit=permit, driver=permit.holder, online=True, status="livre", lat=PICKUP[0] + 0.003,
                             lon=PICKUP[1], cell=grid.cell_of(PICKUP[0] + 0.003, PICKUP[1]), position_at=timezone.now())
    ana = Passenger.objects.create(name="Ana Secreta", phone="32999990000")
    ride = offers.request_ride(pickup={"lat": PICKUP[0], "lon": PICKUP[1], "address": "Praça João Pinheiro"},
                               destination={"lat": PICKUP[0] + 0.01, "lon": PICKUP[1], "address": "Rua do Destino, 9"}, passenger=ana)
    offers.accept_offer(Offer.objects.get(ride=ride).pk, cab.pk)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Passenger {ana.token}")
    return ride, cab, client


@pytest.mark.article("Art. 32")
def test_a_shared_ride_shows_the_cab_and_its_ends_and_nothing_about_the_passenger(accepted, client):
    ride, cab, ana = accepted
    made = ana.post(f"/api/rides/{ride.pk}/share/")
    assert made.status_code == 201
    token = made.json()["token"]
    assert len(token) >= 43 and made.json()["url"].endswith(f"/acompanhar/{token}/")
    assert not RideShare.objects.filter(token_hash=token).exists()  # only the digest is kept
    assert RideShare.objects.get().token_hash == hashlib.sha256(token.encode()).hexdigest()

    page = client.get(f"/acompanhar/{token}/")
    html = page.content.decode()
    assert page.status_code == 200 and page["Cache-Control"].startswith("max-age=0")
    vehicle = cab.permit.vehicles.get(in_service=True)
    for shown in (vehicle.plate, vehicle.colour, vehicle.model, cab.driver.full_name, "Praça João Pinheiro", "Rua do Destino, 9"):
        assert shown in html
    state = client.get(f"/acompanhar/{token}/estado.json").json()
    assert state["cvi"]["plate"] == vehicle.plate and state["cab_position"] == {"lat": cab.lat, "lon": cab.lon}
    assert set(state) == {"status", "status_display", "cvi", "driver", "cab_position", "pickup", "destination"}
    for secret in ("Ana Secreta", "32999990000", ride.passenger.token):
        assert secret not in html and secret not in str(state)


@pytest.mark.article("Art. 32")
def test_a_link_is_refused_once_revoked_or_once_the_ride_ends_and_only_its_passenger_shares(accepted, client):
    ride, cab, ana = accepted
    first, second = (ana.post(f"/api/rides/{ride.pk}/share/").json()["token"] for _ in range(2))
    assert ana.delete(f"/api/rides/{ride.pk}/share/").json() == {"revoked": 2}
    gone = client.get(f"/acompanhar/{first}/")
    assert gone.status_code == 410 and "deixou de compartilhá-la" in gone.content.decode()
    assert client.get(f"/acompanhar/{second}/estado.json").status_code == 410
    assert client.get("/acompanhar/nao-existe/").status_code == 404

    third = ana.post(f"/api/rides/{ride.pk}/share/").json()["token"]
    assert client.get(f"/acompanhar/{third}/estado.json").status_code == 200
    ride_steps.cancel_ride(ride.pk, by="passenger", passenger=ride.passenger)
    ended = client.get(f"/acompanhar/{third}/")
    assert ended.status_code == 410 and "Esta corrida terminou" in ended.content.decode()
    assert ana.post(f"/api/rides/{ride.pk}/share/").status_code == 409

    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Passenger {Passenger.objects.create(name='Rui', phone='32988887777').token}")
    assert other.post(f"/api/rides/{ride.pk}/share/").status_code == 404


def test_an_sos_is_stored_with_the_last_positions_and_announced_to_the_operators(accepted, monkeypatch,
                                                                                   django_capture_on_commit_callbacks, dimutran):
    ride, cab, ana = accepted
    sent = []
    monkeypatch.setattr(announcements, "post", lambda group, message: sent.append((group, message)))
    with django_capture_on_commit_callbacks(execute=True):
        answer = ana.post(f"/api/rides/{ride.pk}/sos/", {"lat": PICKUP[0] + 0.001, "lon": PICKUP[1], "accuracy_m": 12}, format="json")
    assert answer.status_code == 201 and "ligue 190" in answer.json()["message"]
    alert = SosAlert.objects.get()
    vehicle = cab.permit.vehicles.get(in_service=True)
    assert (alert.ride_id, alert.ride_status, alert.plate, alert.driver_name) == (ride.pk, "accepted", vehicle.plate, cab.driver.full_name)
    assert [(p["source"], p["lat"]) for p in alert.positions] == [("passenger", PICKUP[0] + 0.001), ("cab", cab.lat)]
    [(group, frame)] = [s for s in sent if s[1]["type"] == "sos_alert"]
    assert group == announcements.OPERATORS and frame["alert"]["passenger_phone"] == "32999990000"

    from dispatch import wire
    from dispatch.events import snapshots
    snapshot = snapshots.for_operator()
    wire.validate("operator", snapshot)
    assert [a["id"] for a in snapshot["sos_alerts"]] == [alert.pk]
    assert dimutran.post(f"/api/sos/{alert.pk}/ack/").json() == {"acknowledged": True}
    alert.refresh_from_db()
    assert alert.acknowledged_at is not None and snapshots.for_operator()["sos_alerts"] == []


def test_an_sos_needs_a_ride_under_way(accepted):
    ride, cab, ana = accepted
    ride_steps.cancel_ride(ride.pk, by="passenger", passenger=ride.passenger)
    refused = ana.post(f"/api/rides/{ride.pk}/sos/", {}, format="json")
    assert refused.status_code == 409 and "ligue 190" in refused.json()["detail"]
    assert not SosAlert.objects.exists()
