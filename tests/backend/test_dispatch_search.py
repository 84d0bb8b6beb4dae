"""The nearest-cab search over the grid finds the same cabs as a scan of every cab (Art. 66)."""

import math
import random
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone
from geopy.distance import geodesic
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backend.registry.services import permits
from backend.trips.models import Ride
from dispatch.models import Cab, Offer
from dispatch.rides import choosing, grid
from taxilaw.geodesy import DEGREE_SCALE_MAX_DEG, degree_m, segment_distance_m

CENTRE = (-21.131, -42.367)


@pytest.fixture
def fleet(db, working_cab):
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


@pytest.mark.django_db
@pytest.mark.article("Art. 66")
@pytest.mark.parametrize("seed", range(6))
def test_grid_search_finds_the_nearest_free_cabs_like_a_full_scan(fleet, seed):
    rnd = random.Random(seed)
    lat, lon = CENTRE[0] + rnd.uniform(-0.03, 0.03), CENTRE[1] + rnd.uniform(-0.03, 0.03)
    exclude = {fleet[rnd.randrange(len(fleet))].pk}
    found = choosing.nearest_free(lat, lon, exclude)
    assert [c.cab.pk for c in found] == _scan(lat, lon, exclude, choosing.CANDIDATES_PER_OFFER)
    assert [round(c.distance_m) for c in found] == sorted(round(c.distance_m) for c in found)


@pytest.mark.django_db
@pytest.mark.article("Art. 66")
def test_grid_search_leaves_out_busy_offline_stale_and_already_offered_cabs(fleet):
    found = {c.cab.pk for c in choosing.nearest_free(*CENTRE, set(), wanted=len(fleet))}
    left_out = {c.pk for i, c in enumerate(fleet) if i % 11 == 5 or i % 13 == 7 or i % 17 == 3 or i == 1}
    assert found and not found & left_out


# --- the search against a brute-force nearest over random fleets (hypothesis) --------------------------

POOL = 24
PLACES = [CENTRE, (0.0, 0.0)]  # Muriaé, and where the cells' rows and columns change sign
STATES = {  # status, online, minutes since the position, zone
    "free": ("livre", True, 0, "central"),
    "busy": ("ocupado", True, 0, "central"),
    "offline": ("livre", False, 0, "central"),
    "stale": ("livre", True, 10, "central"),
    "outside": ("livre", True, 0, "outside"),
}
# Where in its cell the pickup is: anywhere (to 1e-9 of a cell), or on or next to the edges and the middle
# (where the 2x2 quadrant changes). Cabs are placed to a GPS fix's 1e-7 degree: PostgreSQL refuses float
# underflow (the statement squares differences of coordinates, none real is below 1e-154 degree).
in_cell = st.one_of(st.integers(0, 10**9 - 1).map(lambda n: n / 1e9), st.sampled_from([0.0, 1e-9, 0.4999999, 0.5, 0.5000001, 1 - 1e-9]))


@pytest.fixture
def pool(make_person, today):
    """Cabs with a permit and a driver (all the search joins), placed anew by each example."""
    signed = today - timedelta(days=30)
    cabs = []
    for i in range(POOL):
        person = make_person()
        permit = permits.grant_permit(person=person, number=f"PS-{i:03d}", result_published_on=signed - timedelta(days=5), on=signed)
        cabs.append(Cab.objects.create(permit=permit, driver=person))
    return cabs


def _brute_force(lat, lon, cabs, exclude, wanted):
    """Every eligible cab of the largest square searched, by the distance the search records, ties by id."""
    row, col = math.floor(lat / grid.CELL_DEG), math.floor(lon / grid.CELL_DEG)

    def in_reach(cab):
        r, c = map(int, cab.cell.split(":"))
        return max(abs(r - row), abs(c - col)) <= choosing.MAX_RINGS

    eligible = [c for c in cabs if c.state == "free" and c.pk not in exclude and in_reach(c)]
    return sorted((segment_distance_m(lat, lon, c.lat, c.lon), c.pk) for c in eligible)[:wanted]


@pytest.mark.django_db
@pytest.mark.article("Art. 66")
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])  # each example places every cab
@given(
    place=st.sampled_from(PLACES),
    cell=st.tuples(st.integers(-3, 3), st.integers(-3, 3)),
    within=st.tuples(in_cell, in_cell),
    spread=st.sampled_from([0.002, 0.01, 0.03, 0.08]),  # a few cells, or beyond the largest square
    offsets=st.lists(st.tuples(st.floats(-1, 1), st.floats(-1, 1)), min_size=POOL, max_size=POOL),
    states=st.lists(st.sampled_from(["free", "free", "free", *STATES]), min_size=POOL, max_size=POOL),
    excluded=st.sets(st.integers(0, POOL - 1), max_size=3),
    wanted=st.sampled_from([1, 3, choosing.CANDIDATES_PER_OFFER]),
)
def test_grid_search_equals_a_brute_force_nearest_on_random_fleets(pool, place, cell, within, spread, offsets, states, excluded, wanted):
    with transaction.atomic():  # each example on its own: a failing one leaves the next a usable transaction
        row, col = math.floor(place[0] / grid.CELL_DEG) + cell[0], math.floor(place[1] / grid.CELL_DEG) + cell[1]
        lat, lon = (row + within[0]) * grid.CELL_DEG, (col + within[1]) * grid.CELL_DEG
        now = timezone.now()
        for cab, (dlat, dlon), state in zip(pool, offsets, states):
            cab.status, cab.online, minutes, cab.zone = STATES[state]
            cab.lat, cab.lon = round(lat + dlat * spread, 7), round(lon + dlon * spread, 7)
            cab.position_at, cab.state = now - timedelta(minutes=minutes), state
            cab.cell = grid.cell_of(cab.lat, cab.lon)
        Cab.objects.bulk_update(pool, ["status", "online", "lat", "lon", "cell", "zone", "position_at"])
        exclude = {pool[i].pk for i in excluded}
        found = choosing.nearest_free(lat, lon, exclude, wanted=wanted)
        assert [(c.distance_m, c.cab.pk) for c in found] == _brute_force(lat, lon, pool, exclude, wanted)
        assert all(c.cab.permit.number.startswith("PS-") and c.cab.driver.full_name for c in found)


@pytest.mark.article("Art. 66")
def test_the_largest_square_is_within_the_flat_distances_bound():
    """The search's stopping rule trusts the flat distance at the pickup's scale over the largest square."""
    assert (choosing.MAX_RINGS + 1) * grid.CELL_DEG <= DEGREE_SCALE_MAX_DEG


@pytest.mark.article("Art. 66")
@settings(max_examples=400, deadline=None)
@given(
    lat=st.floats(-60, 60), lon=st.floats(-179, 179), shrink=st.floats(0.5, 1.0),
    other=st.tuples(st.floats(-0.1, 0.1), st.floats(-0.1, 0.1)),
)
def test_each_block_adds_new_cells_and_no_point_outside_it_is_nearer_than_its_reach(lat, lon, shrink, other):
    seen, reaches = set(), []
    olat, olon = lat + other[0], lon + other[1]
    inside = False
    for cells, reach in grid.blocks(lat, lon, shrink, choosing.SEARCH_RADII):
        assert not seen & set(cells)
        seen |= set(cells)
        reaches.append(reach)
        inside = inside or grid.cell_of(olat, olon) in cells
        if not inside:
            assert math.hypot(olat - lat, (olon - lon) * shrink) >= reach * (1 - 1e-9)
    assert grid.cell_of(lat, lon) in next(grid.blocks(lat, lon, shrink, ()))[0]
    assert reaches == sorted(reaches) and reaches[0] >= 0.5 * grid.CELL_DEG * shrink * (1 - 1e-9)
    assert len(seen) == (2 * choosing.MAX_RINGS + 1) ** 2


@pytest.mark.django_db
@pytest.mark.article("Art. 66")
def test_cabs_tied_by_the_flat_distance_beyond_the_limit_are_read_before_the_answer(pool):
    """Twelve cabs on one circle of the statement's flat distance: it returns ten of them (the limit) in an
    order of rounding errors, while the recorded distances rank them otherwise; the search reads them all."""
    lat, lon = (math.floor(CENTRE[0] / grid.CELL_DEG) + 1e-6) * grid.CELL_DEG, (math.floor(CENTRE[1] / grid.CELL_DEG) + 1e-6) * grid.CELL_DEG
    per_lat, per_lon = degree_m(lat)
    radius = 300 / per_lat  # in degrees of latitude: well inside the pickup's quadrant
    now = timezone.now()
    for i, cab in enumerate(pool):
        angle = 2 * math.pi * i / 12
        cab.lat, cab.lon = lat + radius * math.sin(angle), lon + radius * math.cos(angle) * per_lat / per_lon
        cab.status, cab.online, cab.zone, cab.position_at = ("livre" if i < 12 else "ocupado"), True, "central", now
        cab.cell, cab.state = grid.cell_of(cab.lat, cab.lon), "free" if i < 12 else "busy"
    Cab.objects.bulk_update(pool, ["status", "online", "lat", "lon", "cell", "zone", "position_at"])
    expected = _brute_force(lat, lon, pool, set(), choosing.CANDIDATES_PER_OFFER)
    first_ten = {row[0] for row in choosing._free_rows(lat, lon, per_lon / per_lat, "cell", [c.cell for c in pool], set(), 10)}
    assert {pk for _d, pk in expected} - first_ten  # the case: the statement's ten miss one of the nearest
    assert [(c.distance_m, c.cab.pk) for c in choosing.nearest_free(lat, lon, set())] == expected


def _plan_nodes(node: dict):
    yield node
    for child in node.get("Plans", []):
        yield from _plan_nodes(child)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plan of the prepared search; CI runs it there")
@pytest.mark.django_db
@pytest.mark.article("Art. 66")
def test_a_search_reads_the_pending_offers_once_not_once_for_each_cab(fleet, monkeypatch):
    """Every offer closed since the last vacuum stays in the pending-offer index: read once for each cab of the
    cells, a search grew from under 1 to 24 ms over a 300 s benchmark window (docs/dispatch-benchmark.md)."""
    import psycopg

    now = timezone.now()
    for cab in fleet[2:30]:
        ride = Ride.objects.create(pickup_lat=CENTRE[0], pickup_lon=CENTRE[1], status="completed", created_by="operator")
        Offer.objects.create(ride=ride, cab=cab, driver=cab.driver, expires_at=now, reason="teste")
    Offer.objects.exclude(cab=fleet[1]).update(status="accepted")  # fleet[1]'s offer stays pending
    statements, execute = [], psycopg.Cursor.execute

    def recorded(cursor, query, params=None, **options):
        statements.append((query, params))
        return execute(cursor, query, params, **options)

    monkeypatch.setattr(psycopg.Cursor, "execute", recorded)
    found = {c.cab.pk for c in choosing.nearest_free(*CENTRE, set(), wanted=len(fleet))}
    monkeypatch.undo()
    assert fleet[1].pk not in found and fleet[2].pk in found
    query, params = statements[-1]  # the last, widest block
    with psycopg.Cursor(connection.connection) as cursor:
        # At 10,000 cabs PostgreSQL reads the cabs by index in a nested loop: what it would do for forty if it had to
        for method in ("seqscan", "hashjoin", "mergejoin", "material"):
            cursor.execute(f"SET LOCAL enable_{method} = off")
        (plan,) = cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + query, params).fetchone()[0]
    loops = [node["Actual Loops"] for node in _plan_nodes(plan["Plan"]) if node.get("Relation Name") == "dispatch_offer"]
    assert loops == [1]
