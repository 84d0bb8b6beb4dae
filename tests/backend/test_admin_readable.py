"""The admin as DIMUTRAN reads it: Portuguese labels and readable values, never raw JSON or English field names."""

import pytest

from backend.enforcement.models import Complaint

from .enforcement_helpers import make_ride, passenger_client

pytestmark = pytest.mark.django_db


@pytest.mark.article("Art. 60")
def test_a_complaint_shows_the_rides_data_as_a_table_with_the_receipt(admin_client, working_cab):
    ride = make_ride(working_cab())
    ride.trace = [{"t": "2026-03-04T10:00:00-03:00", "lat": -21.13, "lon": -42.37},
                  {"t": "2026-03-04T10:12:00-03:00", "lat": -21.14, "lon": -42.36}]
    ride.distance_m = 2112.0089757710466
    ride.save()
    passenger_client(ride.passenger).post("/api/complaints/", {"ride": ride.pk, "description": "Cobrou a bagagem."}, format="json")
    text = admin_client.get(f"/admin/enforcement/complaint/{Complaint.objects.get().pk}/change/").content.decode()
    assert "2,11 km, 12 min, 2 posições de GPS" in text and "R$ 23,40" in text
    assert '"trace"' not in text and "2112,0089" not in text and "/recibos/" in text


def test_every_field_of_every_model_has_a_portuguese_name():
    from django.apps import apps

    ours = [m for m in apps.get_models() if m._meta.app_label not in ("auth", "contenttypes", "sessions", "admin", "authtoken")]
    missing = [f"{m._meta.label}.{f.name}" for m in ours for f in m._meta.concrete_fields
               if not f.auto_created and str(f.verbose_name) == f.name.replace("_", " ")]
    assert not missing, missing


def test_a_ride_reads_in_portuguese_with_km_a_trace_summary_and_r_dollars(admin_client, working_cab):
    ride = make_ride(working_cab())
    ride.trace = [{"t": "2026-03-04T10:00:00-03:00", "lat": -21.13, "lon": -42.37},
                  {"t": "2026-03-04T10:12:00-03:00", "lat": -21.14, "lon": -42.36}]
    ride.distance_m = 2112.0089757710466
    ride.save()
    listing = admin_client.get("/admin/trips/ride/").content.decode()
    assert "R$ 23,40" in listing and "Ride object" not in listing
    text = admin_client.get(f"/admin/trips/ride/{ride.pk}/change/").content.decode()
    assert "2,11 km" in text and "2 posições de GPS, 12 min" in text and "2112,0089" not in text
    assert "Distância" in text and "Pedida em" in text and "/recibos/" in text


@pytest.mark.article("Art. 16")
def test_an_edital_shows_its_publications_as_brazilian_dates_not_json(admin_client):
    from datetime import date

    from backend.ranks.models import Contest

    contest = Contest.objects.create(title="Edital 1/2026", publication_dates=["2026-11-20", "2026-11-02"],
                                     contest_date=date(2026, 12, 15))
    text = admin_client.get(f"/admin/ranks/contest/{contest.pk}/change/").content.decode()
    assert "20/11/2026" in text and "02/11/2026" in text
    assert "2026-11-20" not in text and "[&quot;" not in text and '["' not in text
