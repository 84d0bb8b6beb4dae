"""Decreed tariffs and correction tables through the API (Art. 44-45)."""

from datetime import date, timedelta

import pytest
from django.contrib.auth import get_user_model

from backend.tariffs import selectors
from backend.tariffs.models import CorrectionTable, TariffDecree
from taxilaw.tariffs import MURIAE_DEMO_TARIFF

pytestmark = pytest.mark.django_db

FUTURE = date(2031, 1, 1)


def tariff_data(**extra):
    data = {"effective_from": FUTURE.isoformat(), "bandeirada": "6.00", "price_km_b1": "3.00", "price_km_b2": "3.60",
            "price_hour_waiting": "14.40", "decree": "Decreto 9.999/2030"}
    data.update(extra)
    return data


def refused(response, article):
    assert response.status_code == 400, response.content.decode()
    body = response.json()
    assert article in [r["article"] for r in body["reasons"]], body
    return body


def test_demo_tariff_is_seeded():
    demo = TariffDecree.objects.get(effective_from=MURIAE_DEMO_TARIFF.effective_from)
    assert demo.to_law() == MURIAE_DEMO_TARIFF


@pytest.mark.article("Art. 44", "Art. 45, I", "Art. 45, II")
def test_dimutran_decrees_a_tariff(dimutran):
    response = dimutran.post("/api/tariffs/", tariff_data(), format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["display"]["price_hour_waiting"] == "R$ 14,40"
    assert body["review_due_on"] == "2031-07-01"
    assert TariffDecree.objects.filter(effective_from=FUTURE).exists()


@pytest.mark.article("Art. 45, I")
def test_negative_price_is_refused_citing_the_article_and_nothing_written(dimutran):
    before = TariffDecree.objects.count()
    response = dimutran.post("/api/tariffs/", tariff_data(price_km_b1="-2.70"), format="json")
    body = refused(response, "Art. 45, I")
    assert "positivo" in body["detail"]
    assert TariffDecree.objects.count() == before


@pytest.mark.article("Art. 1, VII", "Art. 44")
def test_price_not_in_cents_and_missing_decree_are_refused(dimutran):
    response = dimutran.post("/api/tariffs/", tariff_data(bandeirada="5.505", decree=" "), format="json")
    assert response.status_code == 400
    codes = {(r["article"], r["code"]) for r in response.json()["reasons"]}
    assert codes == {("Art. 1, VII", "tariff_price_not_cents"), ("Art. 44", "tariff_without_decree")}
    assert not TariffDecree.objects.filter(effective_from=FUTURE).exists()


@pytest.mark.article("Art. 45, II")
def test_b2_cheaper_than_b1_is_refused(dimutran):
    refused(dimutran.post("/api/tariffs/", tariff_data(price_km_b2="2.00"), format="json"), "Art. 45, II")


@pytest.mark.article("Art. 44")
def test_two_tariffs_on_the_same_day_are_refused(dimutran):
    assert dimutran.post("/api/tariffs/", tariff_data(), format="json").status_code == 201
    refused(dimutran.post("/api/tariffs/", tariff_data(decree="outro"), format="json"), "Art. 44")
    assert TariffDecree.objects.filter(effective_from=FUTURE).count() == 1


@pytest.mark.article("Art. 44")
def test_tariff_in_force_is_immutable_but_a_future_one_can_be_corrected(dimutran):
    demo = TariffDecree.objects.get(effective_from=MURIAE_DEMO_TARIFF.effective_from)
    refused(dimutran.patch(f"/api/tariffs/{demo.pk}/", {"bandeirada": "9.00"}, format="json"), "Art. 44")
    refused(dimutran.delete(f"/api/tariffs/{demo.pk}/"), "Art. 44")
    demo.refresh_from_db()
    assert str(demo.bandeirada) == "5.50"

    future = dimutran.post("/api/tariffs/", tariff_data(), format="json").json()
    response = dimutran.patch(f"/api/tariffs/{future['id']}/", {"bandeirada": "6.10"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["bandeirada"] == "6.10"
    assert dimutran.delete(f"/api/tariffs/{future['id']}/").status_code == 204


@pytest.mark.article("Art. 45")
def test_tariff_in_force_by_date_uses_muriae_local_date(dimutran):
    dimutran.post("/api/tariffs/", tariff_data(), format="json")
    assert selectors.tariff_in_force(date(2030, 12, 31)).effective_from == MURIAE_DEMO_TARIFF.effective_from
    assert selectors.tariff_in_force(FUTURE).effective_from == FUTURE
    from datetime import datetime, timezone

    # 01:00 UTC on 1 Jan is still 31 Dec, 22:00 in Muriaé
    assert selectors.tariff_in_force(datetime(2031, 1, 1, 1, 0, tzinfo=timezone.utc)).effective_from == MURIAE_DEMO_TARIFF.effective_from
    assert selectors.tariff_in_force(datetime(2031, 1, 1, 4, 0, tzinfo=timezone.utc)).effective_from == FUTURE
    body = dimutran.get("/api/tariffs/current/", {"at": "2031-01-01T08:00:00-03:00"}).json()
    assert body["tariff"]["effective_from"] == "2031-01-01"
    assert body["tariff"]["display"]["bandeirada"] == "R$ 6,00"


@pytest.mark.article("Art. 44")
def test_review_alert_after_six_months(dimutran):
    # demo tariff from 2026-01-01: the adjustment is due on 2026-07-01
    ok = dimutran.get("/api/tariffs/current/", {"at": "2026-07-01T12:00:00-03:00"}).json()
    assert ok["review_alert"]["allowed"] is True
    late = dimutran.get("/api/tariffs/current/", {"at": "2026-07-02T12:00:00-03:00"}).json()
    assert late["review_alert"]["allowed"] is False
    reason = late["review_alert"]["reasons"][0]
    assert (reason["article"], reason["code"]) == ("Art. 44", "tariff_review_overdue")
    assert "seis meses" in reason["message"]
    alert = dimutran.get("/api/tariffs/review-alert/", {"at": "2026-07-02T12:00:00-03:00"}).json()
    assert alert["allowed"] is False


@pytest.mark.article("Art. 44")
def test_review_alert_when_no_tariff(dimutran):
    body = dimutran.get("/api/tariffs/current/", {"at": "2020-01-01T12:00:00-03:00"}).json()
    assert body["tariff"] is None
    assert body["review_alert"]["reasons"][0]["code"] == "tariff_missing"


@pytest.mark.article("Art. 44")
def test_review_alert_is_shown_in_the_admin_changelist(client, today):
    TariffDecree.objects.all().delete()
    TariffDecree.objects.create(effective_from=today - timedelta(days=220), bandeirada="5.50", price_km_b1="2.70",
                                price_km_b2="3.25", price_hour_waiting="13.00", decree="Decreto antigo")
    admin = get_user_model().objects.create_superuser("admin", "a@example.com", "x")
    client.force_login(admin)
    response = client.get("/admin/tariffs/tariffdecree/")
    assert response.status_code == 200
    assert "mais de seis meses" in response.content.decode()
    assert "Art. 44" in response.content.decode()
    assert client.get("/admin/tariffs/correctiontable/").status_code == 200
    assert client.get("/admin/tariffs/tariffstudy/").status_code == 200
    assert client.get("/admin/tariffs/tariffdecree/add/").status_code == 200


@pytest.mark.article("Art. 45, I", "Art. 45, II")
def test_current_flag_endpoint(dimutran, user_for, make_person, today):
    holder = user_for(make_person())
    day = holder.get("/api/tariffs/current/", {"at": "2026-03-02T10:00:00-03:00"}).json()  # a Monday
    assert (day["flag"]["flag"], day["flag"]["code"], day["flag"]["article"]) == (1, "day", "Art. 45, I")
    assert day["flag"]["price_km_display"] == "R$ 2,70"
    night = holder.get("/api/tariffs/current/", {"at": "2026-03-02T22:00:00-03:00"}).json()
    assert (night["flag"]["flag"], night["flag"]["code"]) == (2, "night")
    assert night["flag"]["price_km_display"] == "R$ 3,25"
    sunday = holder.get("/api/tariffs/current/", {"at": "2026-03-01T10:00:00-03:00"}).json()
    assert sunday["flag"]["code"] == "sunday"
    # the municipal holiday seeded on migrate (29 June, São Paulo Apóstolo) comes from the database
    patron = holder.get("/api/tariffs/current/", {"at": f"{today.year}-06-29T10:00:00-03:00"}).json()
    assert (patron["flag"]["flag"], patron["flag"]["code"]) == (2, "holiday")
    assert holder.get("/api/tariffs/current/").status_code == 200


def test_current_with_bad_at_is_400(dimutran):
    response = dimutran.get("/api/tariffs/current/", {"at": "2026-03-02T10:00:00"})
    assert response.status_code == 400
    assert "at" in response.json()
    assert dimutran.get("/api/tariffs/current/", {"at": "ontem"}).status_code == 400


@pytest.mark.article("Art. 45")
def test_roles_a_holder_reads_but_cannot_write_tariffs(working_cab, user_for, anonymous):
    holder = user_for(working_cab().holder)
    assert holder.get("/api/tariffs/").status_code == 200
    assert holder.get("/api/correction-tables/").status_code == 200
    assert holder.post("/api/tariffs/", tariff_data(), format="json").status_code == 403
    demo = TariffDecree.objects.get(effective_from=MURIAE_DEMO_TARIFF.effective_from)
    assert holder.patch(f"/api/tariffs/{demo.pk}/", {"bandeirada": "1.00"}, format="json").status_code == 403
    assert holder.delete(f"/api/tariffs/{demo.pk}/").status_code == 403
    assert holder.post("/api/correction-tables/", {}, format="json").status_code == 403
    assert holder.get("/api/tariff-studies/").status_code == 403
    assert not TariffDecree.objects.filter(effective_from=FUTURE).exists()
    assert anonymous.get("/api/tariffs/").status_code in (401, 403)
    assert anonymous.get("/api/tariffs/current/").status_code in (401, 403)


# --- correction tables (Art. 45, §3-§4) -------------------------------------------------


def correction_data(tariff, **extra):
    start = tariff.effective_from
    data = {"tariff": tariff.pk, "factor": "1.1111", "authorization": "Portaria do Prefeito 12/2030",
            "authorized_on": (start - timedelta(days=2)).isoformat(), "valid_from": start.isoformat(),
            "valid_until": (start + timedelta(days=29)).isoformat()}
    data.update(extra)
    return data


@pytest.fixture
def new_tariff(dimutran):
    return TariffDecree.objects.get(pk=dimutran.post("/api/tariffs/", tariff_data(), format="json").json()["id"])


@pytest.mark.article("Art. 45, §3", "Art. 45, §4")
def test_correction_table_of_30_days_is_accepted(dimutran, new_tariff):
    response = dimutran.post("/api/correction-tables/", correction_data(new_tariff), format="json")
    assert response.status_code == 201, response.content
    assert response.json()["days"] == 30
    rows = dimutran.get(f"/api/correction-tables/{response.json()['id']}/rows/", {"start": "10.00", "stop": "10.20"}).json()
    assert rows[0] == {"meter": "10.00", "pay": "11.11", "meter_display": "R$ 10,00", "pay_display": "R$ 11,11"}
    assert len(rows) == 3


@pytest.mark.article("Art. 45, §4")
def test_correction_table_longer_than_30_days_is_refused(dimutran, new_tariff):
    data = correction_data(new_tariff, valid_until=(new_tariff.effective_from + timedelta(days=30)).isoformat())
    body = refused(dimutran.post("/api/correction-tables/", data, format="json"), "Art. 45, §4")
    assert "30 dias" in body["detail"]
    assert not CorrectionTable.objects.exists()


@pytest.mark.article("Art. 45, §3")
def test_correction_table_needs_prior_authorization(dimutran, new_tariff):
    data = correction_data(new_tariff, authorized_on=(new_tariff.effective_from + timedelta(days=1)).isoformat())
    refused(dimutran.post("/api/correction-tables/", data, format="json"), "Art. 45, §3")
    assert not CorrectionTable.objects.exists()
