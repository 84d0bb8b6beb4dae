"""Statements API, CSV, PDF, the /extratos/ page and the admin: who sees what (Lei 1.242/1987, Art. 1, §2-§6)."""

import csv
import io
from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from backend.registry.services import auxiliaries
from backend.statements import services
from backend.statements.models import WeeklyStatement

from .statements_helpers import AFTER_WEEK, AUTHORIZED_ON, MONDAY, SIGNED_ON, local, ride


@pytest.fixture
def fleet(working_cab, make_person):
    """Two permits: A (holder + auxiliaries x and y), B (another holder); the week of 16/11/2026 closed."""
    permit_a = working_cab(signed_on=SIGNED_ON)
    x, y = make_person(), make_person()
    auxiliaries.authorize_auxiliary(permit=permit_a, person=x, on=AUTHORIZED_ON)
    auxiliaries.authorize_auxiliary(permit=permit_a, person=y, on=AUTHORIZED_ON, contract_auxiliary_percent=Decimal("30"),
                                    contract_reference="Contrato de parceria 3/2026")
    permit_b = working_cab(signed_on=SIGNED_ON)
    ride(permit_a, permit_a.holder, "50.00", local(MONDAY, 9))
    ride(permit_a, x, "10.06", local(MONDAY, 10))
    ride(permit_a, y, "100.00", local(MONDAY, 11))
    ride(permit_b, permit_b.holder, "77.70", local(MONDAY, 12))
    services.close_week(MONDAY, now=AFTER_WEEK)
    get = lambda permit, person: WeeklyStatement.objects.get(permit=permit, driver=person)  # noqa: E731
    return {
        "a": permit_a, "b": permit_b, "x": x, "y": y,
        "a_own": get(permit_a, permit_a.holder), "x_st": get(permit_a, x), "y_st": get(permit_a, y),
        "b_own": get(permit_b, permit_b.holder),
    }


def ids(response):
    assert response.status_code == 200, response.content
    return {row["id"] for row in response.json()["results"]}


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_holder_sees_own_and_auxiliaries_statements(fleet, user_for):
    client = user_for(fleet["a"].holder)
    assert ids(client.get("/api/statements/")) == {fleet["a_own"].pk, fleet["x_st"].pk, fleet["y_st"].pk}
    body = client.get(f"/api/statements/{fleet['x_st'].pk}/").json()
    assert body["gross"] == "10.06" and body["auxiliary_part"] == "2.52" and body["holder_part"] == "7.54"
    assert "Art. 1, §2" in body["expenses_note"] and "Combustível" in body["expenses_note"]
    assert client.get(f"/api/statements/{fleet['b_own'].pk}/").status_code == 404  # another holder's


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_auxiliary_sees_only_own_statement(fleet, user_for):
    client = user_for(fleet["x"])
    assert ids(client.get("/api/statements/")) == {fleet["x_st"].pk}
    for other in ("a_own", "y_st", "b_own"):
        assert client.get(f"/api/statements/{fleet[other].pk}/").status_code == 404
        assert client.get(f"/api/statements/{fleet[other].pk}.csv").status_code == 404
        assert client.get(f"/statements/{fleet[other].pk}.pdf").status_code == 404


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_other_holder_gets_404_and_dimutran_sees_all(fleet, user_for, dimutran, anonymous):
    other = user_for(fleet["b"].holder)
    assert ids(other.get("/api/statements/")) == {fleet["b_own"].pk}
    assert other.get(f"/api/statements/{fleet['x_st'].pk}/").status_code == 404
    assert other.get(f"/api/statements/{fleet['x_st'].pk}.csv").status_code == 404
    assert len(ids(dimutran.get("/api/statements/"))) == 4
    assert anonymous.get("/api/statements/").status_code in (401, 403)
    assert anonymous.get(f"/api/statements/{fleet['x_st'].pk}.csv").status_code in (401, 403)


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_filter_by_week(fleet, dimutran):
    assert len(ids(dimutran.get("/api/statements/", {"week": (MONDAY + timedelta(days=4)).isoformat()}))) == 4
    assert ids(dimutran.get("/api/statements/", {"week": (MONDAY - timedelta(days=7)).isoformat()})) == set()
    assert ids(dimutran.get("/api/statements/", {"permit": fleet["b"].pk})) == {fleet["b_own"].pk}
    assert dimutran.get("/api/statements/", {"week": "16/11/2026"}).status_code == 400


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_current_week_for_the_logged_in_driver(fleet, user_for, dimutran):
    now = timezone.now()
    at = max(now - timedelta(minutes=1), services.week_bounds(now)[0])
    ride(fleet["a"], fleet["x"], "8.00", at)
    body = user_for(fleet["x"]).get("/api/statements/current/").json()
    assert body["week_start"] == services.monday_of(now).isoformat()
    [st] = body["statements"]
    assert st["id"] is None and st["is_closed"] is False
    assert (st["gross"], st["auxiliary_part"], st["holder_part"]) == ("8.00", "2.00", "6.00")
    holder_body = user_for(fleet["a"].holder).get("/api/statements/current/").json()
    assert [s["role"] for s in holder_body["statements"]] == ["permissionario"]
    assert dimutran.get("/api/statements/current/").status_code == 404  # DIMUTRAN staff drive no taxi


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §2", "Art. 1, §6")
def test_csv_download(fleet, user_for):
    response = user_for(fleet["y"]).get(f"/api/statements/{fleet['y_st'].pk}.csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    assert [r["linha"] for r in rows] == ["semana", "corrida"] + ["acerto"] * 9
    row, ride_row = rows[:2]
    assert (ride_row["corrida_tarifa"], ride_row["corrida_origem"], ride_row["corrida_pagamento"]) == (
        "100,00", "central", "não informado")
    assert (rows[-1]["acerto_descricao"], rows[-1]["acerto_valor"]) == (
        f"{fleet['y'].full_name} paga R$ 70,00 a {fleet['a'].holder.full_name}", "70,00")
    assert row["permissao"] == fleet["a"].number and row["motorista"] == fleet["y"].full_name
    assert (row["valor_bruto"], row["parte_auxiliar"], row["parte_permissionario"]) == ("100,00", "30,00", "70,00")
    assert row["percentual_auxiliar"] == "30,00" and row["contrato"] == "Contrato de parceria 3/2026"
    assert row["semana_inicio"] == "16/11/2026" and row["semana_fim"] == "22/11/2026"
    assert "Art. 1, §2" in row["observacao_art_1_par_2"]


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §2")
def test_pdf_download(fleet, user_for):
    response = user_for(fleet["a"].holder).get(f"/statements/{fleet['x_st'].pk}.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    from backend.statements.documents import lines

    assert ("Parte do auxiliar", "R$ 2,52") in lines(fleet["x_st"])


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_statements_page_for_a_logged_in_holder(fleet, user_for):
    user_for(fleet["a"].holder)
    client = Client()
    client.force_login(fleet["a"].holder.user)
    page = client.get("/extratos/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Semana de 16/11/2026 a 22/11/2026" in html
    assert fleet["x"].full_name in html and fleet["y"].full_name in html
    assert "R$ 2,52" in html and "R$ 7,54" in html
    assert f"/api/statements/{fleet['x_st'].pk}.csv" in html and f"/statements/{fleet['x_st'].pk}.pdf" in html
    assert "Art. 1, §2" in html and "Semana em curso" in html
    assert fleet["b"].holder.full_name not in html
    # the session also opens the CSV and PDF links
    assert client.get(f"/api/statements/{fleet['x_st'].pk}.csv").status_code == 200
    assert client.get(f"/statements/{fleet['x_st'].pk}.pdf").content.startswith(b"%PDF")


@pytest.mark.django_db
def test_statements_page_for_a_driver_and_login(fleet, user_for):
    user_for(fleet["x"])
    client = Client()
    assert client.get("/extratos/")["Location"].startswith("/extratos/entrar/")
    login = client.post("/extratos/entrar/", {"username": fleet["x"].user.username, "password": "x"})
    assert login.status_code == 302 and login["Location"] == "/extratos/"
    html = client.get("/extratos/").content.decode()
    assert fleet["x"].full_name in html and fleet["y"].full_name not in html
    assert client.post("/extratos/sair/").status_code == 302


@pytest.mark.django_db
def test_admin_is_read_only(fleet):
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("chefe", "c@example.com", "x"))
    assert client.get("/admin/statements/weeklystatement/").status_code == 200
    pk = fleet["x_st"].pk
    assert client.get(f"/admin/statements/weeklystatement/{pk}/change/").status_code == 200  # view only
    assert client.post(f"/admin/statements/weeklystatement/{pk}/change/", {"gross": "1.00"}).status_code == 403
    assert client.get("/admin/statements/weeklystatement/add/").status_code == 403
    assert client.post(f"/admin/statements/weeklystatement/{pk}/delete/", {"post": "yes"}).status_code == 403
    assert WeeklyStatement.objects.get(pk=pk).gross == Decimal("10.06")


@pytest.mark.django_db
def test_statements_are_in_the_openapi_schema(client):
    schema = client.get("/api/schema/").content
    assert b"/api/statements/" in schema and b"/api/statements/current/" in schema
