"""The nearest-cab search over the grid finds the same cabs as a scan of every cab (Art. 66)."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone
from geopy.distance import geodesic

from backend.trips.models import Ride
from dispatch import choosing, grid
from dispatch.models import Cab, Offer

CENTRE = (-21.131, -42.367)
pytestmark = pytest.mark.django_db


@pytest.fixture
def fleet(working_cab):
    """40 cabs: most free and fresh, scattered up to ~8 km from the centre; some busy, offline, stale or offered."""
    rnd = random.Random(66)
    now = timezone.now()
    cabs = []
    for i in range(40):
        permit = working_cab()
        spread = 0.02 if i % 3 else 0.07
        lat, lon = CENTRE[0] + rnd.uniform(-spread, spread), CENTRE[1] + rnd.uniform(-spread, spread)
        cabs.append(Cab.objects.create(
            permit=permit, driver=permit.holder, online=i % 11 != 5, status="ocupado" if i % 13 == 7 else "livre",
            lat=lat, lon=lon, cell=grid.cell_of(lat, lon), position_at=now - timedelta(minutes=10 if i % 17 == 3 else 0),
        ))
    ride = Ride.objects.create(pickup_lat=CENTRE[0], pickup_lon=CENTRE[1], status="offered", created_by="operator")
    Offer.objects.create(ride=ride, cab=cabs[1], driver=cabs[1].driver, expires_at=now + timedelta(seconds=30), reason="teste")
    return cabs


def _scan(lat, lon, exclude, wanted):
    """The baseline: every free, online, fresh cab with no pending offer, by geodesic distance."""
    fresh = timezone.now() - choosing.POSITION_FRESH
    free = Cab.objects.filter(status="livre", online=True, position_at__gte=fresh).exclude(offers__status="pending")
    eligible = [c for c in free if c.pk not in exclude]
    return [c.pk for c in sorted(eligible, key=lambda c: geodesic((lat, lon), (c.lat, c.lon)).meters)[:wanted]]


@pytest.mark.article("Art. 66")
@pytest.mark.parametrize("seed", range(6))
def test_grid_search_finds_the_nearest_free_cabs_like_a_full_scan(fleet, seed):
    rnd = random.Random(seed)
    lat, lon = CENTRE[0] + rnd.uniform(-0.03, 0.03), CENTRE[1] + rnd.uniform(-0.03, 0.03)
    exclude = {fleet[rnd.randrange(len(fleet))].pk}
    found = choosing.nearest_free(lat, lon, exclude)
    assert [c.cab.pk for c in found] == _scan(lat, lon, exclude, choosing.CANDIDATES_PER_OFFER)
    assert [round(c.distance_m) for c in found] == sorted(round(c.distance_m) for c in found)


@pytest.mark.article("Art. 66")
def test_grid_search_leaves_out_busy_offline_stale_and_already_offered_cabs(fleet):
    found = {c.cab.pk for c in choosing.nearest_free(*CENTRE, set(), wanted=len(fleet))}
    left_out = {c.pk for i, c in enumerate(fleet) if i % 11 == 5 or i % 13 == 7 or i % 17 == 3 or i == 1}
    assert found and not found & left_out
