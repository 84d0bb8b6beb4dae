"""DIMUTRAN's indicators over HTTP: the JSON API and the page, staff only, every chart drawn with the demo data."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from .indicator_fixtures import month_end_rides

pytestmark = pytest.mark.django_db
ENDPOINTS = ["/api/indicators/service/", "/api/indicators/bairros/", "/api/indicators/permits/",
             "/api/indicators/fleet/", "/api/indicators/money/", "/api/indicators/ranks/"]


@pytest.mark.parametrize("url", ENDPOINTS)
def test_only_dimutran_reads_the_indicators(url, working_cab, user_for, anonymous, dimutran):
    permit = working_cab()
    assert user_for(permit.holder).get(url).status_code == 403
    assert anonymous.get(url).status_code in (401, 403)
    answer = dimutran.get(url)
    assert answer.status_code == 200 and answer.json()["labels"]


def test_the_service_answer_with_its_period_and_labels(dimutran):
    month_end_rides()
    body = dimutran.get("/api/indicators/service/", {"first": "2026-10-31", "last": "2026-11-01", "grain": "month"}).json()
    assert (body["first"], body["last"], body["grain"]) == ("2026-10-31", "2026-11-01", "month")
    assert [(r["key"], r["requests"]) for r in body["rows"]] == [("2026-10-01", 2), ("2026-11-01", 2)]
    assert body["total"]["requests"] == 4 and body["labels"]["requests"] == "Pedidos"
    money = dimutran.get("/api/indicators/money/", {"first": "2026-10-26", "last": "2026-11-01"}).json()
    assert money["weeks"] == [{"key": "2026-10-26", "rides": 1, "gross": "23.45", "disagreements": 0}]


@pytest.mark.parametrize("query, field", [
    ({"first": "2026-11-02", "last": "2026-11-01"}, "first"),
    ({"first": "2024-01-01", "last": "2026-01-01"}, "first"),
    ({"first": "ontem"}, "first"),
    ({"grain": "year"}, "grain"),
    ({"first": "9999-12-31", "last": "9999-12-31"}, "first"),
    ({"first": "0001-01-01", "last": "0001-01-02"}, "first"),
])
def test_a_bad_period_is_a_clear_400(dimutran, query, field):
    answer = dimutran.get("/api/indicators/service/", query)
    assert answer.status_code == 400 and field in answer.json()


def test_the_schema_documents_the_indicators(dimutran):
    schema = dimutran.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    for url in ENDPOINTS:
        assert url in schema


def test_the_page_is_for_dimutran_only(client, working_cab):
    assert client.get("/dimutran/indicadores/").status_code == 302  # to the login
    holder = working_cab().holder
    user = get_user_model().objects.create_user("motorista", password="x")
    holder.user = user
    holder.save()
    client.force_login(user)
    assert client.get("/dimutran/indicadores/").status_code == 403


def test_every_chart_is_drawn_with_the_demo_data(client):
    call_command("seed_demo", verbosity=0)
    call_command("seed_demo_rides", verbosity=0)
    call_command("seed_demo_rides", verbosity=0)  # idempotent
    client.force_login(get_user_model().objects.get(username="dimutran"))
    page = client.get("/dimutran/indicadores/")
    assert page.status_code == 200
    html = page.content.decode()
    charts = re.findall(r'<svg id="(chart-[a-z-]+)" class="chart" data-bars="(\d+)"', html)
    assert len(charts) == 8
    assert all(int(bars) > 0 for _, bars in charts), charts
    drawn = re.findall(r'<svg id="(map-[a-z]+)" class="map" data-marks="(\d+)"', html)
    assert [name for name, _ in drawn] == ["map-unanswered", "map-ranks"]
    assert all(int(marks) > 0 for _, marks in drawn), drawn  # the demo's unanswered requests and its four ranks
    assert html.count('<path class="streets" d="M') == 2 and html.count('<circle class="mark"') == sum(int(m) for _, m in drawn)
    assert "Praça Cel. Pacheco de Medeiros" in html and 'class="n h' in html  # the occupancy table, shaded
    assert "Centro" in html and "Podem trabalhar" in html and "TX-093" in html  # a bairro; TX-093 is suspended
    for reason in ("alvará vencido", "reprovado na vistoria", "vistoria vencida", "permissão suspensa", "veículo acima da idade"):
        assert reason in html  # the demo's blocked cabs, each reason in pt-BR (no law-core code shown)


def test_a_bad_period_on_the_page_says_so_and_shows_four_weeks(client):
    call_command("seed_demo", verbosity=0)
    client.force_login(get_user_model().objects.get(username="dimutran"))
    page = client.get("/dimutran/indicadores/", {"first": "2026-11-02", "last": "2026-11-01"}).content.decode()
    assert "O primeiro dia deve ser anterior ou igual ao último." in page
    assert "Mostrando as últimas 4 semanas" in page and f"a {timezone.localdate():%d/%m/%Y}" in page


def test_a_chart_escapes_its_text_and_counts_only_drawn_bars():
    from backend.indicators import charts

    svg = charts.bars("chart-x", 'Pedidos <b>"x"</b>', ["<script>alert(1)</script>", "b"], [3, 0])
    assert "<script>" not in svg and "&lt;script&gt;" in svg and 'data-bars="1"' in svg
    assert 'data-bars="0"' in charts.hbars("chart-y", "Nada", [], [])
