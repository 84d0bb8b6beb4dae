"""The driver app's rank screen (``GET /api/driver/ranks/``) and the origin of a trip taken at a ponto."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from backend.ranks.models import Rank, RankCheckIn
from backend.statements.services import running_statement
from dispatch.models import Cab
from dispatch.rides import street_trips

from .ranks_helpers import at_rank, make_rank, seen_at

pytestmark = pytest.mark.django_db


def assign(dimutran, rank, permit, since):
    response = dimutran.post(f"/api/ranks/{rank['id']}/titulars/", {"permit": permit.pk, "since": since.isoformat()},
                             format="json")
    assert response.status_code == 201, response.content.decode()


def stand(dimutran, permit, rank):
    seen_at(permit, at_rank(rank))  # an inspector records today a cab the server sees at the rank (Art. 9, V)
    response = dimutran.post("/api/rank-checkins/", {"permit": permit.pk, "rank": rank["id"]}, format="json")
    assert response.status_code == 201, response.content.decode()
    return response.json()


def near(client, rank, north_m=0):
    lat, lon = at_rank(rank)
    return client.get("/api/driver/ranks/", {"lat": lat + north_m / 111_320, "lon": lon})


@pytest.mark.article("Art. 27, §3", "Art. 22, I", "Art. 9, V")
def test_the_ranks_near_the_cab_with_their_queues_and_the_visitor_rule(dimutran, working_cab, user_for, today):
    rank = make_rank(dimutran, "Hospital")
    far = make_rank(dimutran, "Longe", category="livre", lat=rank["lat"] + 0.02, lon=rank["lon"])
    titular, visitor = working_cab(), working_cab()
    assign(dimutran, rank, titular, today - timedelta(days=10))
    stand(dimutran, titular, rank)

    body = near(user_for(visitor.holder), rank).json()
    assert body["checked_in"] is None and body["permit"] == visitor.number
    first, second = body["ranks"][:2]
    assert (first["id"], second["id"]) == (rank["id"], far["id"])  # nearest first
    assert first["queue"] == 1 and first["titular"] is False and first["visitor_limit"] == 1
    assert first["allowed"] is False
    assert [r["code"] for r in first["reasons"]] == ["visitor_small_rank_not_empty"]
    assert "desprovido de veículos" in first["reasons"][0]["message"]  # pt-BR, as the app shows it
    assert second["allowed"] is False and second["reasons"][0]["code"] == "checkin_away_from_rank"  # 2 km away

    mine = near(user_for(titular.holder), rank).json()
    assert mine["checked_in"]["rank_id"] == rank["id"] and mine["checked_in"]["queue_position"] == 1
    assert mine["ranks"][0]["titular"] is True and mine["ranks"][0]["allowed"] is True


@pytest.mark.article("Art. 27, §3")
def test_an_empty_rank_takes_one_visitor_and_its_own_check_in_is_no_newcomer(dimutran, working_cab, user_for, today):
    rank = make_rank(dimutran, "Hospital")
    titular, visitor = working_cab(), working_cab()
    assign(dimutran, rank, titular, today - timedelta(days=10))
    driver = user_for(visitor.holder)
    assert near(driver, rank).json()["ranks"][0]["allowed"] is True  # the rank is empty: one visitor may stand
    stand(dimutran, visitor, rank)
    assert RankCheckIn.objects.get(permit=visitor).visitor is True
    assert near(driver, rank).json()["ranks"][0]["allowed"] is True  # its own check-in is no newcomer
    seen_at(titular, at_rank(rank))
    own = user_for(titular.holder).post("/api/rank-checkins/", {"permit": titular.pk, "rank": rank["id"]}, format="json")
    assert own.status_code == 201  # a titular always stands at its own rank (Art. 22, I)


def test_bad_positions_are_a_400_in_portuguese_and_a_driver_without_permit_a_404(dimutran, working_cab, user_for,
                                                                                 make_person):
    driver = user_for(working_cab().holder)
    response = driver.get("/api/driver/ranks/", {"lat": "abc", "lon": "-42.36"})
    assert response.status_code == 400 and "lat" in response.json()
    assert driver.get("/api/driver/ranks/", {"lat": "-91", "lon": "-42.36"}).status_code == 400
    assert driver.get("/api/driver/ranks/").status_code == 400
    nobody = user_for(make_person()).get("/api/driver/ranks/", {"lat": "-21.13", "lon": "-42.36"})
    assert nobody.status_code == 404 and "permissão ativa" in nobody.json()["detail"]


def _trace(start, lat, lon):
    return [{"t": start, "lat": lat, "lon": lon, "accuracy_m": 8},
            {"t": start + timedelta(minutes=6), "lat": lat + 0.012, "lon": lon, "accuracy_m": 8}]


@pytest.mark.article("Art. 1, §3", "Art. 22")
def test_a_trip_taken_at_the_ponto_is_counted_as_ponto_and_the_cab_leaves_the_queue(dimutran, working_cab):
    rank = make_rank(dimutran, "Livre", category="livre")
    at_ponto, hailed = working_cab(), working_cab()
    stand(dimutran, at_ponto, rank)
    start = timezone.now() - timedelta(minutes=10)
    RankCheckIn.objects.filter(permit=at_ponto).update(checked_in_at=start - timedelta(minutes=20))
    for permit in (at_ponto, hailed):
        cab, _new = Cab.objects.update_or_create(permit=permit, defaults={"driver": permit.holder, "online": True, "status": "ocupado"})
        ride, _dup = street_trips.record_street_trip(cab.pk, started_at=start, stopped_at=start + timedelta(minutes=6),
                                               meter_total=Decimal("14.10"), trace=_trace(start, *at_rank(rank)))
    assert RankCheckIn.objects.get(permit=at_ponto).checked_out_at == start  # left the ponto with the passenger
    lines = {p.pk: [r.origin for r in running_statement(p, p.holder).ride_lines] for p in (at_ponto, hailed)}
    assert lines == {at_ponto.pk: ["rank"], hailed.pk: ["street"]}
    again, duplicate = street_trips.record_street_trip(Cab.objects.get(permit=at_ponto).pk, started_at=start,
                                                 stopped_at=start + timedelta(minutes=6), meter_total=Decimal("14.10"),
                                                 trace=_trace(start, *at_rank(rank)))
    assert duplicate and again.created_by == "rank"
    assert Rank.objects.get(pk=rank["id"]).checkins.filter(checked_out_at__isnull=True).count() == 0
