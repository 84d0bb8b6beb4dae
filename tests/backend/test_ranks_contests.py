"""Contests (Art. 15-21, 27, 28, 41) through the API; the published ranking in HTML and PDF."""

from datetime import timedelta

import pytest

from backend.parameters.models import DatedParameter
from backend.ranks.models import Candidate, Contest

from .ranks_helpers import CENTRAL, PERIPHERAL, make_rank, refused

pytestmark = pytest.mark.django_db

COMMISSION = [
    {"name": "Vereadora Ana", "body": "camara_municipal"},
    {"name": "Secretário Beto", "body": "executivo_municipal"},
    {"name": "Delegado Caio", "body": "delegacia_transito"},
    {"name": "Presidente Dora", "body": "sindicato_condutores"},
]


def edital(today, ranks, **extra):
    data = {
        "title": "Edital 1/2026 — permissões de táxi",
        "publication_dates": [(today + timedelta(days=d)).isoformat() for d in (1, 3, 5)],
        "contest_date": (today + timedelta(days=40)).isoformat(),
        "vacancies": [{"rank": r["id"], "permits": 1} for r in ranks],
        "commission": COMMISSION,
    }
    data.update(extra)
    return data


def publish(dimutran, today, ranks, **extra):
    response = dimutran.post("/api/contests/", edital(today, ranks, **extra), format="json")
    assert response.status_code == 201, response.content.decode()
    return response.json()


def register(dimutran, contest, person, **extra):
    data = {"person": person.pk, "model_year": extra.pop("model_year", 2026), **extra}
    return dimutran.post(f"/api/contests/{contest['id']}/candidates/", data, format="json")


@pytest.mark.article("Art. 16", "Art. 17", "Art. 18")
def test_publish_edital(dimutran, today):
    rank = make_rank(dimutran, "Barra")
    contest = publish(dimutran, today, [rank])
    assert contest["status"] == "published"
    assert contest["vacancies"] == [{"rank": rank["id"], "rank_name": "Barra", "permits": 1}]
    assert len(contest["commission"]) == 4


@pytest.mark.article("Art. 17")
def test_contest_date_too_early_is_refused_and_nothing_written(dimutran, today):
    rank = make_rank(dimutran, "Barra")
    response = dimutran.post("/api/contests/", edital(today, [rank], contest_date=(today + timedelta(days=20)).isoformat()), format="json")
    body = refused(response, "Art. 17")
    assert body["reasons"][0]["code"] == "contest_too_early"
    assert not Contest.objects.exists()


@pytest.mark.article("Art. 16", "Art. 18")
def test_consecutive_publications_and_incomplete_commission_are_refused(dimutran, today):
    rank = make_rank(dimutran, "Barra")
    dates = [(today + timedelta(days=d)).isoformat() for d in (1, 2, 4)]
    body = refused(dimutran.post("/api/contests/", edital(today, [rank], publication_dates=dates, commission=COMMISSION[:3]), format="json"), "Art. 16")
    assert "Art. 18" in [r["article"] for r in body["reasons"]]
    assert not Contest.objects.exists()


@pytest.mark.article("Art. 41, §2")
def test_no_contest_while_the_fleet_is_at_the_cap(dimutran, working_cab, today):
    working_cab()
    DatedParameter.objects.create(name="population", effective_from=today - timedelta(days=1), value=1000, source="teste")
    rank = make_rank(dimutran, "Barra")
    body = refused(dimutran.post("/api/contests/", edital(today, [rank]), format="json"), "Art. 41, §2")
    assert body["reasons"][0]["code"] == "fleet_at_cap"
    assert not Contest.objects.exists()


@pytest.mark.article("Art. 41")
def test_edital_cannot_offer_more_permits_than_the_room_left(dimutran, today):
    DatedParameter.objects.create(name="population", effective_from=today - timedelta(days=1), value=2000, source="teste")
    rank = make_rank(dimutran, "Barra")
    data = edital(today, [rank])
    data["vacancies"][0]["permits"] = 3  # cap 2
    refused(dimutran.post("/api/contests/", data, format="json"), "Art. 41")
    assert not Contest.objects.exists()


@pytest.mark.article("Art. 28", "Art. 20, I")
def test_over_age_vehicle_is_refused_and_nothing_written(dimutran, make_person, today):
    contest = publish(dimutran, today, [make_rank(dimutran, "Barra")])
    year = (today + timedelta(days=40)).year
    refused(register(dimutran, contest, make_person(), model_year=year - 10), "Art. 28")  # 11 years on 31/12 (Art. 28, § único)
    assert not Candidate.objects.exists()
    ok = register(dimutran, contest, make_person(), model_year=year - 9)  # 10 years: admissible, 0 points (Art. 20, I)
    assert ok.status_code == 201 and ok.json()["model_year_points"] == 0


@pytest.mark.article("Art. 27")
def test_promotion_contest_is_for_central_ranks_and_permit_holders(dimutran, make_person, working_cab, today):
    peripheral = make_rank(dimutran, "Barra", PERIPHERAL)
    refused(dimutran.post("/api/contests/", edital(today, [peripheral], promotion=True), format="json"), "Art. 27")
    contest = publish(dimutran, today, [make_rank(dimutran, "Praça", CENTRAL)], promotion=True)
    refused(register(dimutran, contest, make_person()), "Art. 27")
    assert register(dimutran, contest, working_cab().holder).status_code == 201
    assert Candidate.objects.count() == 1


@pytest.mark.article("Art. 19", "Art. 20", "Art. 21, I")
def test_classify_allocate_and_publish_the_ranking(dimutran, make_person, anonymous, today):
    a_rank, b_rank = make_rank(dimutran, "Barra"), make_rank(dimutran, "Hospital")
    contest = publish(dimutran, today, [a_rank, b_rank])
    cid = contest["id"]
    assert anonymous.get(f"/contests/{cid}/ranking/").status_code == 404
    year = (today + timedelta(days=40)).year  # the contest year (Art. 20, I)
    best, tie_more, tie_less, last = (make_person() for _ in range(4))
    for person, name in zip((best, tie_more, tie_less, last), ("Zé Único", "João Três", "Maria Um", "Último")):
        person.full_name = name
        person.save(update_fields=["full_name"])
    exp = (today - timedelta(days=20 * 365)).isoformat()
    assert register(dimutran, contest, best, model_year=year + 1, profession_since=exp, no_accident_certificate=True).json()["total_points"] == 250
    assert register(dimutran, contest, tie_more, model_year=year, profession_since=exp, dependants=3,
                    preferred_ranks=[b_rank["id"]]).status_code == 201
    assert register(dimutran, contest, tie_less, model_year=year, profession_since=exp, dependants=1,
                    preferred_ranks=[b_rank["id"]]).status_code == 201
    assert register(dimutran, contest, last, model_year=year - 5).status_code == 201
    refused(register(dimutran, contest, make_person(), model_year=year, preferred_ranks=[999]), "Art. 19")

    response = dimutran.post(f"/api/contests/{cid}/classify/", {}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "classified"
    ranking = dimutran.get(f"/api/contests/{cid}/ranking/").json()["ranked"]
    assert [r["person_name"] for r in ranking] == ["Zé Único", "João Três", "Maria Um", "Último"]
    assert ranking[1]["decided_by"] == "Art. 21, I"
    assert [r["allocated_rank"] for r in ranking] == [a_rank["id"], b_rank["id"], None, None]
    refused(register(dimutran, contest, make_person()), "Art. 19")  # closed

    html = anonymous.get(f"/contests/{cid}/ranking/")
    assert html.status_code == 200
    text = html.content.decode()
    assert "Zé Único" in text and "Classificação" in text and "Art. 21, I" in text and "Hospital" in text
    pdf = anonymous.get(f"/contests/{cid}/ranking.pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")


@pytest.mark.article("Art. 16")
def test_only_dimutran_publishes_and_registers(working_cab, user_for, dimutran, today):
    holder = user_for(working_cab().holder)
    rank = make_rank(dimutran, "Barra")
    assert holder.post("/api/contests/", edital(today, [rank]), format="json").status_code == 403
    contest = publish(dimutran, today, [rank])
    assert holder.get("/api/contests/").status_code == 200
    assert holder.get(f"/api/contests/{contest['id']}/candidates/").status_code == 403
