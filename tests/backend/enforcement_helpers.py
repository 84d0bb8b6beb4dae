"""Helpers for the enforcement tests: a completed ride, autos drawn up through the API."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from backend.enforcement.models import InfractionType
from backend.trips.models import Passenger, Ride, RideStatus
from dispatch.models import Cab


def infraction(code):
    return InfractionType.objects.get(code=code)


def passenger_client(passenger):
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Passenger {passenger.token}")
    return client


def make_ride(permit, passenger=None, status=RideStatus.COMPLETED, at=None):
    at = at or timezone.now() - timedelta(hours=2)
    cab, _ = Cab.objects.get_or_create(permit=permit, defaults={"driver": permit.holder})
    passenger = passenger or Passenger.objects.create(name="Maria", phone="32999990000")
    completed = status == RideStatus.COMPLETED
    return Ride.objects.create(
        passenger=passenger, pickup_lat=-21.13, pickup_lon=-42.37, pickup_address="Praça João Pinheiro",
        destination_address="Rodoviária", status=status, cab=cab, permit=permit, driver=permit.holder,
        accepted_at=at - timedelta(minutes=20), on_board_at=at - timedelta(minutes=15),
        completed_at=at if completed else None, fare=Decimal("23.40") if completed else None,
        trace=[[-21.13, -42.37, 0], [-21.14, -42.36, 300]] if completed else [],
    )


def draw_up(client, permit, codes, committed_on, issued_on=None, delivered_on=None):
    """POST an auto from an inspection and deliver its copy; returns the auto's JSON."""
    response = client.post(
        "/api/autos/",
        {
            "permit": permit.pk, "person": permit.holder_id, "infractions": [infraction(c).pk for c in codes],
            "committed_on": committed_on, "issued_on": issued_on or committed_on, "observation": "Constatado pelo fiscal.",
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    auto = response.json()
    if delivered_on is not False:
        r = client.post(f"/api/autos/{auto['id']}/deliver-copy/", {"delivered_on": delivered_on or issued_on or committed_on}, format="json")
        assert r.status_code == 200, r.json()
    return auto


def decide(client, auto_id, decided_on, penalties, **extra):
    body = {"decided_on": decided_on, "reasoning": "Infração comprovada.", "penalties": penalties, **extra}
    return client.post(f"/api/autos/{auto_id}/decide/", body, format="json")


def articles(response):
    return {r["article"] for r in response.json().get("reasons", [])}


class Dispatch:
    """A permit's cab connected through dispatch, and what dispatch's background re-check tells it."""

    def connect(self, permit):
        from dispatch.rides import cabs

        return cabs.go_online(permit.holder)  # connected, the registry's facts kept on the cab

    def told(self) -> list[int]:
        """Run the re-check the background tick runs: the permits told they may no longer work."""
        from dispatch.rides import cabs

        return cabs.tell_the_no_longer_allowed()


@pytest.fixture
def dispatch_tick():
    return Dispatch()


def appeal(client, decision_id, filed_on, instance="comutram", **deposit):
    """File an appeal (DIMUTRAN registers the date of the filing); returns its JSON."""
    body = {"decision": decision_id, "instance": instance, "grounds": "Razões do recurso.", "filed_on": filed_on, **deposit}
    response = client.post("/api/appeals/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def judge(client, appeal_id, judged_on, result, reductions=(), text="Julgamento fundamentado.", **extra):
    body = {"judged_on": judged_on, "result": result, "judgment_text": text, "reductions": list(reductions), **extra}
    return client.post(f"/api/appeals/{appeal_id}/judge/", body, format="json")


def codes(response):
    return [r["code"] for r in response.json().get("reasons", [])]
