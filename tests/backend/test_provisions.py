"""The provisions encoded this round, through the API and the scheduler: the vistoria's planilha and documents
(Art. 29, 31, 33, 36, 39) and the start of service (Art. 13, III)."""

from datetime import datetime, time, timedelta

import pytest
from django.utils import timezone

from backend.registry.models import Inspection, RevocationInquiry
from backend.registry.services import permits, vehicles
from backend.scheduler import jobs as scheduler
from taxilaw.inspection_items import all_documents, approved_vistoria, complete_checklist

from .conftest import vehicle_data
from .enforcement_helpers import articles

pytestmark = pytest.mark.django_db


def _run(day, name):
    return {r.job: r for r in scheduler.run_due(timezone.make_aware(datetime.combine(day, time(12))), only={name})}


@pytest.mark.article("Art. 29", "Art. 36", "Art. 39")
def test_a_vistoria_approves_only_with_the_roof_light_and_the_documents(dimutran, working_cab, today):
    vehicle = working_cab().vehicles.get()
    body = {"vehicle": vehicle.pk, "inspected_on": today, "result": "passed", "seal_number": "SV-2"}
    no_light = dimutran.post("/api/inspections/", {**body, "checklist": {**complete_checklist(), "roof_light": False},
                                                   "documents": all_documents()}, format="json")
    assert no_light.status_code == 400 and articles(no_light) == {"Art. 29"}
    no_crlv = dimutran.post("/api/inspections/", {**body, "checklist": complete_checklist(),
                                                  "documents": {**all_documents(), "crlv": False}}, format="json")
    assert no_crlv.status_code == 400 and articles(no_crlv) == {"Art. 39"}
    ok = dimutran.post("/api/inspections/", {**body, **approved_vistoria()}, format="json")
    assert ok.status_code == 201, ok.json()
    assert ok.json()["checklist"]["roof_light"] is True and ok.json()["documents"]["cmt"] is True
    # A failed vistoria records what failed (Art. 38) and needs no complete planilha.
    failed = dimutran.post("/api/inspections/", {**body, "result": "failed", "seal_number": "",
                                                 "checklist": {"visual_communication": False}}, format="json")
    assert failed.status_code == 201 and Inspection.objects.get(pk=failed.json()["id"]).checklist == {"visual_communication": False}


@pytest.mark.article("Art. 13, III", "Art. 31")
def test_service_starts_with_the_first_approved_vistoria_and_a_late_start_opens_the_inquiry(make_person, today):
    signed = today - timedelta(days=120)
    late = permits.grant_permit(person=make_person(), number="TX-LATE", result_published_on=signed, on=signed)
    permits.sign_term(permit=late, signed_on=signed)
    started = permits.grant_permit(person=make_person(), number="TX-START", result_published_on=signed, on=signed)
    permits.sign_term(permit=started, signed_on=signed)
    vehicle = vehicles.register_vehicle(permit=started, on=signed, **vehicle_data(today.year - 1))
    vehicles.record_inspection(vehicle=vehicle, inspected_on=signed + timedelta(days=10), result="passed", seal_number="S-9",
                               **approved_vistoria())
    started.refresh_from_db()
    assert started.service_started_on == signed + timedelta(days=10)
    assert "inquéritos abertos 1" in _run(today, "service_start")["service_start"].summary
    inquiry = RevocationInquiry.objects.get()
    assert inquiry.permit == late and "Art. 13, III" in inquiry.facts
    assert _run(today + timedelta(days=1), "service_start")["service_start"].summary == "inquéritos abertos 0"
