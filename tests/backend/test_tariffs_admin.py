"""The admin asks the law core too: a bad tariff is a form error, never a 500."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model

from backend.tariffs.models import CorrectionTable, TariffDecree, TariffStudy
from taxilaw.tariffs import MURIAE_DEMO_TARIFF

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    client.force_login(get_user_model().objects.create_superuser("chefe", "c@example.com", "x"))
    return client


def form(**extra):
    data = {"effective_from": "2031-01-01", "bandeirada": "6.00", "price_km_b1": "3.00", "price_km_b2": "3.60",
            "price_hour_waiting": "14.40", "decree": "Decreto 1/2031"}
    data.update(extra)
    return data


@pytest.mark.article("Art. 45, I")
def test_admin_refuses_a_negative_price_with_the_article(admin_client):
    response = admin_client.post("/admin/tariffs/tariffdecree/add/", form(price_km_b1="-1.00"))
    assert response.status_code == 200
    assert "Art. 45, I" in response.content.decode()
    assert not TariffDecree.objects.filter(effective_from="2031-01-01").exists()
    ok = admin_client.post("/admin/tariffs/tariffdecree/add/", form())
    assert ok.status_code == 302
    assert TariffDecree.objects.filter(effective_from="2031-01-01").exists()


@pytest.mark.article("Art. 44")
def test_admin_tariff_in_force_is_read_only(admin_client):
    demo = TariffDecree.objects.get(effective_from=MURIAE_DEMO_TARIFF.effective_from)
    page = admin_client.get(f"/admin/tariffs/tariffdecree/{demo.pk}/change/").content.decode()
    assert 'name="bandeirada"' not in page
    assert admin_client.get(f"/admin/tariffs/tariffdecree/{demo.pk}/delete/").status_code == 403


@pytest.mark.article("Art. 45, §4")
def test_admin_refuses_a_long_correction_table(admin_client):
    demo = TariffDecree.objects.get(effective_from=MURIAE_DEMO_TARIFF.effective_from)
    start = demo.effective_from
    response = admin_client.post("/admin/tariffs/correctiontable/add/", {
        "tariff": demo.pk, "factor": "1.1000", "authorization": "Portaria 1", "authorized_on": start.isoformat(),
        "valid_from": start.isoformat(), "valid_until": (start + timedelta(days=45)).isoformat()})
    assert response.status_code == 200
    assert "Art. 45, §4" in response.content.decode()
    assert not CorrectionTable.objects.exists()


@pytest.mark.article("Art. 42, § único")
def test_admin_study_is_computed_on_save(admin_client):
    data = {
        "reference": "Estudo admin", "effective_from": "2027-01-01", "vehicle_description": "Sedã",
        "vehicle_value": "100000.00", "km_per_month": "6000", "paid_km_ratio": "0.6", "average_trip_km": "4",
        "bandeirada_share": "0.25", "b2_ratio": "1.2", "waiting_equivalent_kmh": "4.8",
        "items-TOTAL_FORMS": "2", "items-INITIAL_FORMS": "0", "items-MIN_NUM_FORMS": "0", "items-MAX_NUM_FORMS": "1000",
        "items-0-item": "c", "items-0-amount": "0.60", "items-0-basis": "km", "items-0-note": "",
        "items-1-item": "j", "items-1-amount": "5000", "items-1-basis": "month", "items-1-note": "",
    }
    response = admin_client.post("/admin/tariffs/tariffstudy/add/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    study = TariffStudy.objects.get()
    assert study.capital_capped is True
    assert study.proposed_km_b1 > 0
