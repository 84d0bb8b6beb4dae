"""The tariff study of Art. 42 and its printable report."""

from decimal import Decimal

import pytest

from backend.tariffs.models import TariffStudy
from taxilaw.brazil import br_number, brl

pytestmark = pytest.mark.django_db


def study_data(j_amount="500.00", **extra):
    data = {
        "reference": "Estudo de reajuste 2027/1 — Muriaé",
        "effective_from": "2027-01-01",
        "vehicle_description": "Sedã 1.6 flex, 0 km",
        "vehicle_value": "100000.00",
        "km_per_month": "6000",
        "items": [
            {"item": "a", "amount": "0.05", "basis": "km"},
            {"item": "b", "amount": "1200.00"},
            {"item": "c", "amount": "0.60", "basis": "km"},
            {"item": "d", "amount": "150.00"},
            {"item": "e", "amount": "0.08", "basis": "km"},
            {"item": "f", "amount": "0"},
            {"item": "g", "amount": "90.00"},
            {"item": "h", "amount": "200.00"},
            {"item": "i", "amount": "10.00"},
            {"item": "j", "amount": j_amount},
            {"item": "l", "amount": "120.00"},
        ],
    }
    data.update(extra)
    return data


@pytest.mark.article("Art. 42", "Art. 42, § único")
def test_study_computes_a_proposal(dimutran):
    response = dimutran.post("/api/tariff-studies/", study_data(), format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["capital_capped"] is False
    assert body["warnings"] == []
    assert Decimal(body["proposed_km_b2"]) >= Decimal(body["proposed_km_b1"]) > 0
    assert any(line["article"] == "Art. 42, § único" for line in body["lines"])
    assert TariffStudy.objects.get().items.count() == 11


@pytest.mark.article("Art. 42, § único")
def test_capital_remuneration_is_capped_at_12_percent_a_year(dimutran):
    # 12% a year of R$ 100.000,00 is R$ 1.000,00 a month
    capped = dimutran.post("/api/tariff-studies/", study_data(j_amount="3000.00"), format="json").json()
    at_cap = dimutran.post("/api/tariff-studies/", study_data(j_amount="1000.00"), format="json").json()
    assert capped["capital_capped"] is True
    assert capped["warnings"][0]["article"] == "Art. 42, § único"
    assert capped["warnings"][0]["code"] == "capital_remuneration_over_cap"
    assert capped["proposed_km_b1"] == at_cap["proposed_km_b1"]
    assert capped["cost_per_km"] == at_cap["cost_per_km"]
    assert at_cap["capital_capped"] is False
    j_line = next(line for line in capped["lines"] if line["label"].startswith("j) remuneração"))
    assert Decimal(j_line["value"]) == (Decimal("1000") / 6000).quantize(Decimal("0.0001"))


@pytest.mark.article("Art. 42")
def test_bad_study_is_400(dimutran):
    bad = study_data(km_per_month="0")
    response = dimutran.post("/api/tariff-studies/", bad, format="json")
    assert response.status_code == 400
    assert response.json()["reasons"][0]["article"] == "Art. 42"
    dup = study_data()
    dup["items"].append({"item": "a", "amount": "1"})
    assert "items" in dimutran.post("/api/tariff-studies/", dup, format="json").json()
    wrong = study_data()
    wrong["items"].append({"item": "k", "amount": "1"})
    assert dimutran.post("/api/tariff-studies/", wrong, format="json").status_code == 400
    assert not TariffStudy.objects.exists()


@pytest.mark.article("Art. 42", "Art. 44")
def test_report_html_and_pdf_render_for_dimutran(dimutran, client, django_user_model):
    study = dimutran.post("/api/tariff-studies/", study_data(j_amount="3000.00"), format="json").json()
    staff = django_user_model.objects.create_user("fiscal2", password="x", is_staff=True)
    client.force_login(staff)
    html = client.get(study["report_html"])
    assert html.status_code == 200
    text = html.content.decode()
    assert "Estudo tarifário" in text and "R$ 100.000,00" in text
    assert "Art. 42, § único" in text
    pdf = client.get(study["report_pdf"])
    assert pdf.status_code == 200
    assert pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")


@pytest.mark.article("Art. 42")
def test_report_is_dimutran_only(dimutran, client, user_for, make_person):
    study = dimutran.post("/api/tariff-studies/", study_data(), format="json").json()
    assert client.get(study["report_pdf"]).status_code == 302  # to the login page
    person = make_person()
    user_for(person)
    person.refresh_from_db()
    client.force_login(person.user)
    assert client.get(study["report_html"]).status_code == 403
    assert client.get(study["report_pdf"]).status_code == 403
    assert client.get("/tariff-studies/999999/report/").status_code == 403


def test_brazilian_money_format():
    assert brl(Decimal("1234.5")) == "R$ 1.234,50"
    assert brl(Decimal("1234567.891")) == "R$ 1.234.567,89"
    assert brl("0") == "R$ 0,00"
    assert br_number(Decimal("0.1234")) == "0,1234"
