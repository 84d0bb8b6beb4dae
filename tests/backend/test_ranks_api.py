"""Ranks (Art. 22-27; Art. 9, V) through the API: each rule allowed and refused."""

from datetime import timedelta

import pytest

from backend.api_errors import LawViolation
from backend.ranks.models import Rank, RankAssignment, RankCheckIn, RankObservation, SwapRequest
from backend.ranks.services import ranks as rank_services

from .ranks_helpers import CENTRAL, OUTSIDE, PERIPHERAL, at, at_rank, make_rank, refused, seen_at

pytestmark = pytest.mark.django_db


def assign(dimutran, rank, permit, since):
    if rank["zone"] == "central":  # reached only by promotion (Art. 27; test_api_rules.py): the promotion's own path
        return rank_services.assign_rank(permit=permit, rank=Rank.objects.get(pk=rank["id"]), since=since)
    response = dimutran.post(f"/api/ranks/{rank['id']}/titulars/", {"permit": permit.pk, "since": since.isoformat()}, format="json")
    assert response.status_code == 201, response.content.decode()
    return response.json()


def checkin(client, permit, rank, when=None, position=True):
    """Check in over REST; ``position``: the server last saw the cab at the rank (else nowhere it knows)."""
    data = {"permit": permit.pk, "rank": rank["id"]}
    if position:
        seen_at(permit, at_rank(rank))
    if when is not None:
        data["at"] = when.isoformat()
    return client.post("/api/rank-checkins/", data, format="json")


@pytest.mark.article("Art. 22", "Art. 24", "Art. 25")
def test_dimutran_creates_ranks_zoned_by_the_polygon_and_everyone_reads(dimutran, working_cab, user_for, anonymous):
    central = make_rank(dimutran, "Praça", CENTRAL)
    peripheral = make_rank(dimutran, "Barra", PERIPHERAL, category="livre")
    assert (central["zone"], peripheral["zone"]) == ("central", "peripheral")
    holder = user_for(working_cab().holder)
    assert len(holder.get("/api/ranks/").json()["results"]) == 2
    assert holder.post("/api/ranks/", {"name": "X", "lon": CENTRAL[0], "lat": CENTRAL[1], "category": "livre"}, format="json").status_code == 403
    assert anonymous.get("/api/ranks/").status_code in (401, 403)
    # update goes through the service and re-zones
    response = dimutran.patch(f"/api/ranks/{peripheral['id']}/", {"lon": CENTRAL[0], "lat": CENTRAL[1]}, format="json")
    assert response.status_code == 200 and response.json()["zone"] == "central"
    # delete cancels
    assert dimutran.delete(f"/api/ranks/{central['id']}/").json()["active"] is False


@pytest.mark.article("Art. 23", "Art. 25")
def test_rank_outside_the_municipality_is_refused(dimutran):
    response = dimutran.post("/api/ranks/", {"name": "Longe", "lon": OUTSIDE[0], "lat": OUTSIDE[1], "category": "livre"}, format="json")
    body = refused(response, "Art. 23")
    assert "Art. 25" in body["detail"] and "location" in body
    assert not Rank.objects.exists()


@pytest.mark.article("Art. 23, § único")
def test_temporary_rank_must_be_free_with_duration(dimutran, working_cab, today):
    response = dimutran.post("/api/ranks/", {"name": "Festa", "lon": PERIPHERAL[0], "lat": PERIPHERAL[1], "category": "privativo",
                                             "temporary": True, "opens_on": today.isoformat(), "closes_on": today.isoformat()}, format="json")
    refused(response, "Art. 23, § único")
    response = dimutran.post("/api/ranks/", {"name": "Festa", "lon": PERIPHERAL[0], "lat": PERIPHERAL[1], "category": "livre",
                                             "temporary": True}, format="json")
    refused(response, "Art. 23, § único")
    assert not Rank.objects.exists()
    rank = make_rank(dimutran, "Festa", category="livre", temporary=True, opens_on=(today - timedelta(days=1)).isoformat(),
                     closes_on=(today + timedelta(days=1)).isoformat())
    permit = working_cab()
    assert checkin(dimutran, permit, rank, at(today)).status_code == 201
    RankCheckIn.objects.all().delete()
    refused(checkin(dimutran, permit, rank, at(today + timedelta(days=3))), "Art. 23, § único")
    assert not RankCheckIn.objects.exists()


@pytest.mark.article("Art. 22, I", "Art. 22, II")
def test_titulars_only_at_private_ranks(dimutran, working_cab, today):
    permit = working_cab()
    free = make_rank(dimutran, "Rodoviária", category="livre")
    refused(dimutran.post(f"/api/ranks/{free['id']}/titulars/", {"permit": permit.pk, "since": today.isoformat()}, format="json"), "Art. 22, II")
    private = make_rank(dimutran, "Hospital")
    assign(dimutran, private, permit, today)
    other = make_rank(dimutran, "Fórum")
    assign(dimutran, other, permit, today)  # moving ends the previous designation
    assert RankAssignment.objects.get(permit=permit, ended_on__isnull=True).rank_id == other["id"]
    assert dimutran.get(f"/api/ranks/{other['id']}/titulars/").json()[0]["permit"] == permit.pk


@pytest.mark.article("Art. 22, II")
def test_any_taxi_stands_at_a_free_rank(dimutran, working_cab, user_for):
    rank = make_rank(dimutran, "Livre", category="livre")
    permits = [working_cab() for _ in range(5)]
    for p in permits:
        assert checkin(dimutran, p, rank).status_code == 201
    assert not RankCheckIn.objects.filter(visitor=True).exists()


@pytest.mark.article("Art. 27, §3")
def test_visitor_at_a_small_private_rank_only_when_empty(dimutran, working_cab, user_for, today):
    rank = make_rank(dimutran, "Hospital")
    titular, visitor, second = working_cab(), working_cab(), working_cab()
    assign(dimutran, rank, titular, today - timedelta(days=10))
    own = checkin(user_for(titular.holder), titular, rank)
    assert own.status_code == 201 and own.json()["visitor"] is False
    body = refused(checkin(user_for(visitor.holder), visitor, rank), "Art. 27, §3")
    assert body["reasons"][0]["code"] == "visitor_small_rank_not_empty"
    assert RankCheckIn.objects.count() == 1
    out = dimutran.post(f"/api/rank-checkins/{own.json()['id']}/check-out/", {}, format="json")
    assert out.status_code == 200 and out.json()["checked_out_at"]
    allowed = checkin(dimutran, visitor, rank)
    assert allowed.status_code == 201 and allowed.json()["visitor"] is True
    refused(checkin(dimutran, second, rank), "Art. 27, §3")


@pytest.mark.article("Art. 27, §3")
def test_visitors_at_a_larger_rank_within_the_band(dimutran, working_cab, today):
    rank = make_rank(dimutran, "Praça", CENTRAL)
    titulars = [working_cab() for _ in range(6)]
    for p in titulars:
        assign(dimutran, rank, p, today - timedelta(days=10))
    for p in titulars[:4]:
        assert checkin(dimutran, p, rank).status_code == 201
    v1, v2, v3 = working_cab(), working_cab(), working_cab()
    body = refused(checkin(dimutran, v1, rank), "Art. 27, §3")  # 4 own cabs present
    assert body["reasons"][0]["code"] == "visitor_rank_provided"
    RankCheckIn.objects.filter(permit=titulars[3]).update(checked_out_at=at(today, 23))
    assert checkin(dimutran, v1, rank).status_code == 201
    assert checkin(dimutran, v2, rank).status_code == 201
    body = refused(checkin(dimutran, v3, rank), "Art. 27, §3")  # 6-10 titulars: 2 visitors
    assert body["reasons"][0]["code"] == "visitor_limit_reached"


@pytest.mark.article("Art. 22")
def test_a_holder_checks_in_only_their_own_cab_and_once(dimutran, working_cab, user_for):
    rank = make_rank(dimutran, "Livre", category="livre")
    mine, theirs = working_cab(), working_cab()
    client = user_for(mine.holder)
    assert checkin(client, theirs, rank).status_code == 403
    assert checkin(client, mine, rank).status_code == 201
    refused(checkin(client, mine, rank), "Art. 22")
    assert len(client.get("/api/rank-checkins/").json()["results"]) == 1


@pytest.mark.article("Art. 27, §2")
def test_staffing_after_three_empty_observations_of_three_hours(dimutran, working_cab, today):
    rank = make_rank(dimutran, "Hospital")
    url = f"/api/ranks/{rank['id']}/observations/"
    day = today - timedelta(days=10)
    for i, empty in enumerate([True, False, True, True]):
        d = day + timedelta(days=i)
        response = dimutran.post(url, {"start": at(d, 8).isoformat(), "end": at(d, 11).isoformat(), "empty": empty}, format="json")
        assert response.status_code == 201
    report = dimutran.get(f"/api/ranks/{rank['id']}/staffing/").json()
    assert report["allowed"] is True and "Art. 27, §2" in report["articles"]
    # the fourth empty one, measured from the (absent) check-ins
    d = day + timedelta(days=5)
    response = dimutran.post(url, {"start": at(d, 8).isoformat(), "end": at(d, 11).isoformat()}, format="json")
    assert response.json()["empty"] is True
    report = dimutran.get(f"/api/ranks/{rank['id']}/staffing/").json()
    assert report["allowed"] is False and report["reasons"][0]["code"] == "rank_unprovided"


@pytest.mark.article("Art. 27, §2")
def test_observation_sees_the_cab_that_checked_in(dimutran, working_cab, today):
    rank = make_rank(dimutran, "Hospital", category="livre")
    d = today - timedelta(days=2)
    rank_services.check_in(permit=working_cab(), rank=Rank.objects.get(pk=rank["id"]), position=at_rank(Rank.objects.get(pk=rank["id"])), at=at(d, 9))
    response = dimutran.post(f"/api/ranks/{rank['id']}/observations/", {"start": at(d, 8).isoformat(), "end": at(d, 11).isoformat()}, format="json")
    assert response.json()["empty"] is False
    bad = dimutran.post(f"/api/ranks/{rank['id']}/observations/", {"start": at(d, 11).isoformat(), "end": at(d, 8).isoformat()}, format="json")
    refused(bad, "Art. 27, §2")
    assert RankObservation.objects.count() == 1


def _previous_month(today):
    last = today.replace(day=1) - timedelta(days=1)
    return last.replace(day=1), last


@pytest.mark.article("Art. 9, V")
def test_absence_report_from_checkins(dimutran, working_cab, user_for, today):
    rank_data = make_rank(dimutran, "Hospital")
    rank = Rank.objects.get(pk=rank_data["id"])
    first, last = _previous_month(today)
    present, absent = working_cab(), working_cab()
    for p in (present, absent):
        assign(dimutran, rank_data, p, first - timedelta(days=30))
    d = first
    while d <= last:
        c = rank_services.check_in(permit=present, rank=rank, position=at_rank(rank), at=at(d, 7))
        rank_services.check_out(checkin=c, at=at(d, 12))
        if d.day % 3 == 0:  # never 5 in a row, but more than 10 in the month
            c = rank_services.check_in(permit=absent, rank=rank, position=at_rank(rank), at=at(d, 7))
            rank_services.check_out(checkin=c, at=at(d, 9))
        d += timedelta(days=1)
    report = dimutran.get(f"/api/ranks/{rank.pk}/absence/", {"year": first.year, "month": first.month}).json()
    rows = {r["permit"]: r for r in report["permits"]}
    assert rows[present.pk]["allowed"] is True and rows[present.pk]["absent_days"] == []
    assert rows[absent.pk]["allowed"] is False and "Art. 9, V" in rows[absent.pk]["articles"]
    assert user_for(present.holder).get(f"/api/ranks/{rank.pk}/absence/").status_code == 403


@pytest.mark.article("Art. 26", "Art. 26, §3")
def test_swap_after_two_years_is_authorized_and_carried_out(dimutran, working_cab, today):
    a_rank, b_rank = make_rank(dimutran, "A"), make_rank(dimutran, "B", CENTRAL)
    a, b = working_cab(), working_cab()
    assign(dimutran, a_rank, a, today - timedelta(days=3 * 365))
    assign(dimutran, b_rank, b, today - timedelta(days=800))
    response = dimutran.post("/api/rank-swaps/", {"permit_a": a.pk, "permit_b": b.pk}, format="json")
    assert response.status_code == 201, response.content.decode()
    swap = response.json()
    assert swap["status"] == "pending"
    done = dimutran.post(f"/api/rank-swaps/{swap['id']}/authorize/", {}, format="json")
    assert done.status_code == 200 and done.json()["authorized"] is True
    assert RankAssignment.objects.get(permit=a, ended_on__isnull=True).rank_id == b_rank["id"]
    assert RankAssignment.objects.get(permit=b, ended_on__isnull=True).rank_id == a_rank["id"]
    refused(dimutran.post(f"/api/rank-swaps/{swap['id']}/authorize/", {}, format="json"), "Art. 26")


@pytest.mark.article("Art. 26, §3")
def test_swap_inside_two_years_is_refused_and_nothing_written(dimutran, working_cab, today):
    a_rank, b_rank = make_rank(dimutran, "A"), make_rank(dimutran, "B")
    a, b = working_cab(), working_cab()
    assign(dimutran, a_rank, a, today - timedelta(days=3 * 365))
    assign(dimutran, b_rank, b, today - timedelta(days=365))
    body = refused(dimutran.post("/api/rank-swaps/", {"permit_a": a.pk, "permit_b": b.pk}, format="json"), "Art. 26, §3")
    assert body["reasons"][0]["code"] == "swap_tenure_too_short"
    assert not SwapRequest.objects.exists()
    assert RankAssignment.objects.get(permit=a, ended_on__isnull=True).rank_id == a_rank["id"]


@pytest.mark.article("Art. 9, V")
def test_a_driver_checks_in_only_where_the_server_last_saw_the_cab(dimutran, working_cab, user_for):
    rank = make_rank(dimutran, "Rodoviária", category="livre")
    permit = working_cab()
    driver = user_for(permit.holder)
    lat, lon = at_rank(rank)
    claim = {"permit": permit.pk, "rank": rank["id"], "lat": lat, "lon": lon}  # the rank's own coordinates
    body = refused(driver.post("/api/rank-checkins/", claim, format="json"), "Art. 9, V")
    assert [r["code"] for r in body["reasons"]] == ["checkin_without_position"]  # the server never saw the cab
    seen_at(permit, (lat + 0.045, lon))  # the cab's live position: 5 km north
    far = refused(driver.post("/api/rank-checkins/", claim, format="json"), "Art. 9, V")
    assert [r["code"] for r in far["reasons"]] == ["checkin_away_from_rank"] and "4982 m" in far["reasons"][0]["message"]
    assert not RankCheckIn.objects.exists()
    seen_at(permit, (lat + 0.0009, lon))  # 100 m away: the lawful case
    near = driver.post("/api/rank-checkins/", {"permit": permit.pk, "rank": rank["id"]}, format="json")
    assert near.status_code == 201 and (near.json()["lat"], near.json()["lon"]) == (lat + 0.0009, lon)


@pytest.mark.article("Art. 22")
def test_a_cab_serving_a_ride_does_not_check_in_by_any_door(dimutran, working_cab, user_for):
    from dispatch.rides import cabs

    rank = make_rank(dimutran, "Rodoviária", category="livre")
    permit = working_cab()
    driver = user_for(permit.holder)
    for status in ("ocupado", "a_caminho"):
        seen_at(permit, at_rank(rank), status=status)
        rest = refused(driver.post("/api/rank-checkins/", {"permit": permit.pk, "rank": rank["id"]},
                                                     format="json"), "Art. 22")
        assert [r["code"] for r in rest["reasons"]] == ["checkin_cab_not_free"]
        assert "atendendo uma corrida" in rest["reasons"][0]["message"]
        with pytest.raises(LawViolation) as socket:
            cabs.rank_check_in(permit.pk, rank["id"], at_rank(rank))  # the socket's path, its own fix at the rank
        assert socket.value.decision.codes == ("checkin_cab_not_free",)
    assert not RankCheckIn.objects.exists()
    seen_at(permit, at_rank(rank), status="livre")
    assert cabs.rank_check_in(permit.pk, rank["id"], at_rank(rank))["queue_position"] == 1
