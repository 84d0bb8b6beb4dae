"""A dispatched ride with its passenger on board, and a short trace to complete it with (Art. 43)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from backend.trips.models import Ride
from dispatch.models import Cab

PICKUP = (-21.131, -42.367)


@pytest.fixture
def on_board(working_cab):
    permit = working_cab()
    cab = Cab.objects.create(permit=permit, driver=permit.holder, online=True, status="ocupado", lat=PICKUP[0], lon=PICKUP[1])
    ride = Ride.objects.create(
        pickup_lat=PICKUP[0], pickup_lon=PICKUP[1], status="on_board", created_by="operator", cab=cab, permit=permit,
        driver=permit.holder, on_board_at=timezone.now() - timedelta(minutes=4),
    )
    return cab, ride


def trace():
    now = timezone.now()
    return [{"t": now - timedelta(minutes=3), "lat": PICKUP[0], "lon": PICKUP[1], "accuracy_m": 8},
            {"t": now - timedelta(seconds=5), "lat": PICKUP[0] + 0.01, "lon": PICKUP[1], "accuracy_m": 8}]
