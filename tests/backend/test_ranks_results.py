"""Contest results into the registry (Art. 3, 19, 20, §2, 21, 27) and force majeure at the rank (Art. 9, V)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from backend.ranks.models import AbsenceJustification, Candidate, Contest, ContestDraw, Rank, RankAssignment
from backend.ranks.services import contests as contest_services
from backend.ranks.services import ranks as rank_services
from backend.registry.models import Permit
from backend.registry.services import permits as registry
from taxilaw.permits import term_signature_deadline

from .ranks_helpers import CENTRAL, at, at_rank, make_rank, refused
from .test_ranks_contests import publish, register

pytestmark = pytest.mark.django_db


def _classify(dimutran, contest):
    response = dimutran.post(f"/api/contests/{contest['id']}/classify/", {}, format="json")
    assert response.status_code == 200, response.content.decode()
    return dimutran.get(f"/api/contests/{contest['id']}/ranking/").json()["ranked"]


def _publish_result(dimutran, contest, on):
    return dimutran.post(f"/api/contests/{contest['id']}/publish-result/", {"result_published_on": on.isoformat()}, format="json")


def _result_day(contest):
    from datetime import date

    return date.fromisoformat(contest["contest_date"]) + timedelta(days=2)


@pytest.mark.article("Art. 3", "Art. 3, §1", "Art. 19", "Art. 20, §2", "Art. 22, I")
def test_winner_becomes_a_permit_awaiting_term_and_joins_the_rank_on_signing(dimutran, make_person, today):
    rank = make_rank(dimutran, "Barra")
    contest = publish(dimutran, today, [rank])
    year = (today + timedelta(days=40)).year
    winner, loser = make_person(), make_person()
    assert register(dimutran, contest, winner, model_year=year, no_accident_certificate=True).status_code == 201
    assert register(dimutran, contest, loser, model_year=year - 3).status_code == 201
    _classify(dimutran, contest)
    assert _publish_result(dimutran, contest, today).status_code == 400  # before the contest (Art. 19)
    published = _result_day(contest)

    response = _publish_result(dimutran, contest, published)
    assert response.status_code == 200, response.content.decode()
    assert response.json()["status"] == "granted" and response.json()["result_published_on"] == published.isoformat()
    permit = Permit.objects.get(holder=winner)
    assert permit.number == f"TX-{published.year}-001"
    assert permit.status == Permit.Status.AWAITING_TERM
    assert permit.result_published_on == published and permit.contest_model_year == year
    assert not Permit.objects.filter(holder=loser).exists()
    assert Candidate.objects.get(person=winner).permit == permit
    assert not RankAssignment.objects.filter(permit=permit).exists()  # designated from the term's signature
    ranked = dimutran.get(f"/api/contests/{contest['id']}/ranking/").json()["ranked"]
    assert ranked[0]["permit_number"] == permit.number
    refused(_publish_result(dimutran, contest, published), "Art. 19")  # once only

    signed = published + timedelta(days=10)
    registry.sign_term(permit=permit, signed_on=signed)
    assignment = RankAssignment.objects.get(permit=permit, ended_on__isnull=True)
    assert assignment.rank_id == rank["id"] and assignment.since == signed


@pytest.mark.article("Art. 3", "Art. 3, §1", "Art. 19", "Art. 22, I")
def test_signing_the_term_through_the_api_designates_the_winner_at_its_rank(dimutran, make_person, working_cab, today):
    """The registry's sign-term endpoint knows nothing of ranks; the designation still starts at the signature."""
    rank = make_rank(dimutran, "Barra")
    contest = publish(dimutran, today, [rank])
    winner = make_person()
    assert register(dimutran, contest, winner, model_year=(today + timedelta(days=40)).year).status_code == 201
    _classify(dimutran, contest)
    published = _result_day(contest)
    assert _publish_result(dimutran, contest, published).status_code == 200
    permit = Permit.objects.get(holder=winner)
    url = f"/api/permits/{permit.pk}/sign-term/"

    # the day after the deadline, which a weekend or holiday on the 30th day moves (Art. 3, §1)
    late = dimutran.post(url, {"signed_on": (term_signature_deadline(published) + timedelta(days=1)).isoformat()}, format="json")
    refused(late, "Art. 3, §1")
    assert not RankAssignment.objects.filter(permit=permit).exists()  # no term, no designation

    signed = published + timedelta(days=3)
    response = dimutran.post(url, {"signed_on": signed.isoformat()}, format="json")
    assert response.status_code == 201, response.content.decode()
    assignment = RankAssignment.objects.get(permit=permit)
    assert (assignment.rank_id, assignment.since, assignment.ended_on) == (rank["id"], signed, None)

    other = working_cab()  # a term signed without a contest win designates nothing (Art. 22, I)
    assert other.term_signed_on is not None and not RankAssignment.objects.filter(permit=other).exists()


@pytest.mark.article("Art. 2, § único", "Art. 3", "Art. 19")
def test_an_ineligible_winner_passes_the_vacancy_to_the_next_classified(dimutran, make_person, working_cab, today):
    rank = make_rank(dimutran, "Barra")
    contest = publish(dimutran, today, [rank])
    year = (today + timedelta(days=40)).year
    holder, newcomer = working_cab().holder, make_person()
    assert register(dimutran, contest, holder, model_year=year + 1).status_code == 201  # first classified
    assert register(dimutran, contest, newcomer, model_year=year).status_code == 201  # second: no vacancy yet
    ranked = _classify(dimutran, contest)
    assert [r["allocated_rank"] is not None for r in ranked] == [True, False]

    response = _publish_result(dimutran, contest, _result_day(contest))
    assert response.status_code == 200, response.content.decode()
    excluded = Candidate.objects.get(person=holder)
    assert excluded.excluded and not excluded.permit_id
    assert "already_holds_permit" in [r["code"] for r in excluded.exclusion_reasons]
    winner = Candidate.objects.get(person=newcomer)
    assert winner.allocated_rank_id == rank["id"] and winner.permit.status == Permit.Status.AWAITING_TERM
    assert Contest.objects.get(pk=contest["id"]).status == Contest.Status.GRANTED


@pytest.mark.article("Art. 23", "Art. 19")
def test_a_cancelled_rank_refuses_the_publication_and_nothing_is_written(dimutran, make_person, today):
    rank = make_rank(dimutran, "Barra")
    contest = publish(dimutran, today, [rank])
    assert register(dimutran, contest, make_person(), model_year=(today + timedelta(days=40)).year).status_code == 201
    _classify(dimutran, contest)
    rank_services.cancel_rank(Rank.objects.get(pk=rank["id"]), today)
    permits_before = Permit.objects.count()
    refused(_publish_result(dimutran, contest, _result_day(contest)), "Art. 23")
    assert Permit.objects.count() == permits_before
    assert Contest.objects.get(pk=contest["id"]).status == Contest.Status.CLASSIFIED


@pytest.mark.article("Art. 21", "Art. 18, § único", "Art. 19")
def test_full_tie_blocks_the_result_until_the_public_draw(dimutran, make_person, today):
    rank = make_rank(dimutran, "Barra")
    contest = publish(dimutran, today, [rank])
    year = (today + timedelta(days=40)).year
    first, second, third = make_person(), make_person(), make_person()
    for p in (first, second):
        assert register(dimutran, contest, p, model_year=year).status_code == 201
    assert register(dimutran, contest, third, model_year=year - 6).status_code == 201
    Candidate.objects.filter(person__in=[first, second]).update(registered_at=timezone.now())  # same protocol instant
    ranked = _classify(dimutran, contest)
    assert [r["needs_draw"] for r in ranked] == [True, True, False]
    ids = {r["person"]: r["id"] for r in ranked}
    assert ranked[0]["person"] == first.pk and ranked[0]["allocated_rank"] == rank["id"]

    body = refused(_publish_result(dimutran, contest, _result_day(contest)), "Art. 21")
    assert body["reasons"][0]["code"] == "draw_pending"
    assert not Permit.objects.filter(holder__in=[first, second, third]).exists()

    drawn_on = _result_day(contest) - timedelta(days=1)
    draw = {"candidates": [ids[second.pk], ids[third.pk]], "drawn_on": drawn_on.isoformat(), "minutes_reference": "Ata 3/2026"}
    refused(dimutran.post(f"/api/contests/{contest['id']}/draws/", draw, format="json"), "Art. 21")  # not a tie
    assert not ContestDraw.objects.exists()
    draw["candidates"] = [ids[second.pk], ids[first.pk]]
    response = dimutran.post(f"/api/contests/{contest['id']}/draws/", draw, format="json")
    assert response.status_code == 201, response.content.decode()
    assert response.json()["candidates"] == [ids[second.pk], ids[first.pk]]

    ranked = dimutran.get(f"/api/contests/{contest['id']}/ranking/").json()["ranked"]
    assert [r["person"] for r in ranked] == [second.pk, first.pk, third.pk]
    assert [r["needs_draw"] for r in ranked] == [False, False, False]
    assert ranked[0]["decided_by"] == contest_services.DRAW_DECIDED_BY and ranked[1]["decided_by"] == "Art. 20"
    assert [r["allocated_rank"] for r in ranked] == [rank["id"], None, None]

    assert _publish_result(dimutran, contest, _result_day(contest)).status_code == 200
    assert Permit.objects.get(holder=second).status == Permit.Status.AWAITING_TERM
    assert not Permit.objects.filter(holder__in=[first, third]).exists()


@pytest.mark.article("Art. 27")
def test_promotion_result_moves_the_holder_to_the_central_rank(dimutran, working_cab, today):
    peripheral = Rank.objects.get(pk=make_rank(dimutran, "Barra")["id"])
    central = make_rank(dimutran, "Praça", CENTRAL)
    permit = working_cab()
    rank_services.assign_rank(permit=permit, rank=peripheral, since=today - timedelta(days=400))
    contest = publish(dimutran, today, [central], promotion=True)
    assert register(dimutran, contest, permit.holder).status_code == 201
    _classify(dimutran, contest)
    published = _result_day(contest)
    permits_before = Permit.objects.count()
    assert _publish_result(dimutran, contest, published).status_code == 200
    assert Permit.objects.count() == permits_before  # no outorga in a promotion
    now = RankAssignment.objects.get(permit=permit, ended_on__isnull=True)
    assert now.rank_id == central["id"] and now.since == published
    assert RankAssignment.objects.get(permit=permit, rank=peripheral).ended_on == published


def _previous_month(today):
    last = today.replace(day=1) - timedelta(days=1)
    return last.replace(day=1), last


@pytest.mark.article("Art. 9, V")
def test_a_justified_week_is_not_an_absence(dimutran, working_cab, user_for, today):
    rank_data = make_rank(dimutran, "Hospital")
    rank = Rank.objects.get(pk=rank_data["id"])
    first, last = _previous_month(today)
    permit = working_cab()
    rank_services.assign_rank(permit=permit, rank=rank, since=first - timedelta(days=30))
    away = [first + timedelta(days=i) for i in range(7, 14)]  # a week off: 7 consecutive absences
    d = first
    while d <= last:
        if d not in away:
            c = rank_services.check_in(permit=permit, rank=rank, position=at_rank(rank), at=at(d, 7))
            rank_services.check_out(checkin=c, at=at(d, 12))
        d += timedelta(days=1)

    def report():
        url = f"/api/ranks/{rank.pk}/absence/"
        return {r["permit"]: r for r in dimutran.get(url, {"year": first.year, "month": first.month}).json()["permits"]}[permit.pk]

    assert report()["allowed"] is False and "Art. 9, V" in report()["articles"]

    holder = user_for(permit.holder)
    data = {"permit": permit.pk, "start": away[0].isoformat(), "end": away[-1].isoformat(), "reason": "Internação hospitalar"}
    filed = holder.post("/api/absence-justifications/", data, format="json")
    assert filed.status_code == 201, filed.content.decode()
    assert filed.json()["status"] == "pending"
    assert report()["allowed"] is False  # not yet accepted
    jid = filed.json()["id"]
    assert holder.post(f"/api/absence-justifications/{jid}/accept/", {}, format="json").status_code == 403

    accepted = dimutran.post(f"/api/absence-justifications/{jid}/accept/", {}, format="json")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    row = report()
    assert row["allowed"] is True
    assert row["absent_days"] == [] and row["justified_days"] == [d.isoformat() for d in away]
    refused(dimutran.post(f"/api/absence-justifications/{jid}/refuse/", {}, format="json"), "Art. 9, V")  # decided


@pytest.mark.article("Art. 9, V")
def test_justification_must_end_after_it_starts_and_only_for_own_cab(dimutran, working_cab, user_for, today):
    mine, other = working_cab(), working_cab()
    holder = user_for(mine.holder)
    data = {"permit": mine.pk, "start": today.isoformat(), "end": (today - timedelta(days=1)).isoformat(), "reason": "Enchente"}
    refused(holder.post("/api/absence-justifications/", data, format="json"), "Art. 9, V")
    data.update(permit=other.pk, end=today.isoformat())
    assert holder.post("/api/absence-justifications/", data, format="json").status_code == 403
    assert not AbsenceJustification.objects.exists()
