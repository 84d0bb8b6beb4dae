"""Bad input gets HTTP 400 in Portuguese citing the article, and nothing half-written."""

from datetime import date, timedelta

import pytest

from backend.parameters.models import DatedParameter
from backend.registry.models import Auxiliary, Permit, Person, Vehicle
from backend.registry.services import auxiliaries, permits

from .conftest import vehicle_data

pytestmark = pytest.mark.django_db


def refused(response, article):
    assert response.status_code == 400, response.content.decode()
    body = response.json()
    assert article in [r["article"] for r in body["reasons"]], body
    return body


@pytest.mark.article("Art. 5, IV", "Art. 5, I")
def test_invalid_cpf_and_cnh_are_refused_per_field(dimutran):
    response = dimutran.post("/api/people/", {"full_name": "Fulano", "cpf": "111.111.111-11", "cnh": "00000000000"}, format="json")
    body = refused(response, "Art. 5, IV")
    assert "CPF" in body["cpf"][0]
    assert not Person.objects.exists()


@pytest.mark.article("Art. 5, I")
def test_valid_cpf_with_invalid_cnh_is_refused(dimutran):
    response = dimutran.post("/api/people/", {"full_name": "Fulano", "cpf": "529.982.247-25", "cnh": "12345678901"}, format="json")
    refused(response, "Art. 5, I")
    assert not Person.objects.exists()


@pytest.mark.article("Art. 5, IV")
def test_valid_documents_are_stored_normalized(dimutran):
    from validate_docbr import CNH

    response = dimutran.post("/api/people/", {"full_name": "Fulano", "cpf": "529.982.247-25", "cnh": CNH().generate()}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["cpf"] == "52998224725"


@pytest.mark.article("Art. 5, II")
def test_invalid_plate_and_renavam_are_refused(dimutran, working_cab, today):
    permit = working_cab()
    before = Vehicle.objects.count()
    data = vehicle_data(today.year, plate="AB-12", renavam="123")
    response = dimutran.post(f"/api/permits/{permit.pk}/replace-vehicle/", data, format="json")
    assert response.status_code == 400
    assert Vehicle.objects.count() == before
    assert Vehicle.objects.get(permit=permit, in_service=True).plate != "AB12"


@pytest.mark.article("Art. 2, § único")
def test_second_permit_is_refused(working_cab):
    from backend.api_errors import LawViolation

    permit = working_cab()
    with pytest.raises(LawViolation) as refusal:
        permits.grant_permit(person=permit.holder, number="TX-999", result_published_on=date(2026, 1, 10), on=date(2026, 1, 10))
    assert "Art. 2, § único" in refusal.value.decision.articles
    assert not Permit.objects.filter(number="TX-999").exists()


@pytest.mark.article("Art. 48")
def test_third_auxiliary_is_refused(dimutran, working_cab, make_person, today):
    permit = working_cab()
    for _ in range(2):
        auxiliaries.authorize_auxiliary(permit=permit, person=make_person(), on=today)
    third = make_person()
    response = dimutran.post("/api/auxiliaries/", {"permit": permit.pk, "person": third.pk}, format="json")
    refused(response, "Art. 48")
    assert Auxiliary.objects.filter(permit=permit).count() == 2


@pytest.mark.article("Art. 48", "Art. 14")
def test_co_owned_cab_gets_one_auxiliary_only(dimutran, working_cab, make_person, today):
    permit = working_cab()
    Permit.objects.filter(pk=permit.pk).update(co_owned_grandfathered=True)
    auxiliaries.authorize_auxiliary(permit=permit, person=make_person(), on=today)
    response = dimutran.post("/api/auxiliaries/", {"permit": permit.pk, "person": make_person().pk}, format="json")
    refused(response, "Art. 48")


@pytest.mark.article("Art. 28", "Art. 28, § único")
def test_over_age_vehicle_is_refused(dimutran, working_cab, today):
    permit = working_cab()
    response = dimutran.post(f"/api/permits/{permit.pk}/replace-vehicle/", vehicle_data(today.year - 12), format="json")
    refused(response, "Art. 28")
    assert Vehicle.objects.filter(permit=permit).count() == 1


@pytest.mark.article("Art. 14")
def test_co_owned_vehicle_is_refused(dimutran, working_cab, today):
    permit = working_cab()
    response = dimutran.post(f"/api/permits/{permit.pk}/replace-vehicle/", vehicle_data(today.year, owner_count=2), format="json")
    refused(response, "Art. 14")


@pytest.mark.article("Art. 6, I", "Art. 6, §1")
def test_transfer_inside_the_two_year_lock_is_refused(dimutran, working_cab, make_person, today):
    DatedParameter.objects.create(name="permit_transfers_allowed", effective_from=date(2021, 3, 12), value=1, source="teste")
    permit = working_cab(signed_on=today - timedelta(days=200))
    buyer = make_person()
    response = dimutran.post(
        f"/api/permits/{permit.pk}/transfers/",
        {"transferee": buyer.pk, "kind": "inter_vivos", "requested_on": today, "vehicle": vehicle_data(today.year)},
        format="json",
    )
    body = refused(response, "Art. 6, §1")
    assert "Art. 6" in body["detail"]
    permit.refresh_from_db()
    assert permit.holder_id != buyer.pk and not permit.transfers.exists()


@pytest.mark.article("Art. 3, §1")
def test_late_term_signature_is_refused(dimutran, make_person):
    person = make_person()
    published = date(2026, 3, 2)  # the 30th day after it, 1 April, is a working day
    granted = permits.grant_permit(person=person, number="TX-777", result_published_on=published, on=published)
    permit = {"id": granted.pk}
    response = dimutran.post(f"/api/permits/{permit['id']}/sign-term/", {"signed_on": published + timedelta(days=31)}, format="json")
    body = refused(response, "Art. 3, §1")
    assert "30 dias" in body["detail"]
    assert Permit.objects.get(pk=permit["id"]).alvaras.count() == 0
    on_time = dimutran.post(f"/api/permits/{permit['id']}/sign-term/", {"signed_on": published + timedelta(days=30)}, format="json")
    assert on_time.status_code == 201


@pytest.mark.article("Art. 3, §1")
def test_sweep_loses_the_right_after_30_days(make_person):
    on = date(2026, 4, 2)  # Thursday; 30 days after 2 and 3 March end on working days
    late = permits.grant_permit(person=make_person(), number="TX-801", result_published_on=date(2026, 3, 2), on=on)
    fresh = permits.grant_permit(person=make_person(), number="TX-802", result_published_on=date(2026, 3, 3), on=on)
    result = permits.lapse_permits(on=on)
    assert result["lost"] == ["TX-801"]
    late.refresh_from_db(), fresh.refresh_from_db()
    assert late.status == "lost" and fresh.status == "awaiting_term"


@pytest.mark.article("Art. 4, §2", "Art. 4, §3")
def test_late_renewal_is_fined_and_extinct_after_the_deadline(dimutran, working_cab, today):
    permit = working_cab()
    expiry = permit.alvaras.get().expires_on
    docs = {"professional_license": True, "vehicle_registration_insurance": True, "issqn_paid": True, "cpf": True, "no_fine_debt": True}
    late = dimutran.post(f"/api/permits/{permit.pk}/renewals/", {"requested_on": expiry + timedelta(days=10), "documents": docs}, format="json")
    assert late.status_code == 201
    body = late.json()
    assert body["timing"] == "late" and body["late_fine_brl"] == "5.00"  # 1 UFM
    # Art. 5, V: the unpaid fine is a debt; the alvará waits for it.
    assert body["status"] == "open" and [m["article"] for m in body["missing"]] == ["Art. 5, V"]
    paid = dimutran.post(f"/api/renewals/{body['id']}/documents/", {"late_fine_paid": True}, format="json")
    assert paid.json()["status"] == "granted"

    other = working_cab()
    expiry = other.alvaras.get().expires_on
    response = dimutran.post(f"/api/permits/{other.pk}/renewals/", {"requested_on": expiry + timedelta(days=75), "documents": docs}, format="json")
    refused(response, "Art. 4, §3")


@pytest.mark.article("Art. 5")
def test_unknown_renewal_document_is_a_field_error(dimutran, working_cab):
    permit = working_cab()
    response = dimutran.post(f"/api/permits/{permit.pk}/renewals/", {"documents": {"passaporte": True}}, format="json")
    assert response.status_code == 400 and "documents" in response.json()


def test_malformed_json_and_missing_fields_are_400(dimutran):
    response = dimutran.post("/api/people/", "{not json", content_type="application/json")
    assert response.status_code == 400
    response = dimutran.post("/api/people/", {}, format="json")
    assert response.status_code == 400 and {"full_name", "cpf"} <= set(response.json())


@pytest.mark.article("Art. 11, § único")
def test_judicial_loss_substitution_within_30_days_with_proof(dimutran, working_cab, today):
    from datetime import date

    permit = working_cab()
    final = date(2026, 3, 2)  # 30 days later, 1 April, is a working day
    late = dimutran.post(
        f"/api/permits/{permit.pk}/judicial-loss-substitution/",
        {"judgment_final_on": final, "requested_on": date(2026, 4, 2), "proof_presented": True, "vehicle": vehicle_data(today.year)},
        format="json",
    )
    refused(late, "Art. 11, § único, I")
    no_proof = dimutran.post(
        f"/api/permits/{permit.pk}/judicial-loss-substitution/",
        {"judgment_final_on": final, "requested_on": date(2026, 4, 1), "proof_presented": False, "vehicle": vehicle_data(today.year)},
        format="json",
    )
    refused(no_proof, "Art. 11, § único, II")
    new = vehicle_data(today.year)
    ok = dimutran.post(
        f"/api/permits/{permit.pk}/judicial-loss-substitution/",
        {"judgment_final_on": final, "requested_on": date(2026, 4, 1), "proof_presented": True, "vehicle": new},
        format="json",
    )
    assert ok.status_code == 201 and Vehicle.objects.get(permit=permit, in_service=True).plate == new["plate"]


@pytest.mark.django_db
def test_registry_sweep_command_runs(working_cab):
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("registry_sweep", stdout=out)
    assert "extintas: 0" in out.getvalue()


@pytest.mark.article("Art. 5, I", "Art. 9, IV")
def test_an_expired_cnh_is_no_proof_of_qualification_at_renewal(dimutran, working_cab):
    permit = working_cab()
    expiry = permit.alvaras.get().expires_on
    permit.holder.cnh_expires_on = expiry - timedelta(days=1)
    permit.holder.save(update_fields=["cnh_expires_on"])
    docs = {"professional_license": True, "vehicle_registration_insurance": True, "issqn_paid": True, "cpf": True, "no_fine_debt": True}
    body = dimutran.post(f"/api/permits/{permit.pk}/renewals/", {"requested_on": expiry, "documents": docs}, format="json").json()
    assert body["status"] == "open" and [m["article"] for m in body["missing"]] == ["Art. 5, I"]
    permit.holder.cnh_expires_on = expiry + timedelta(days=1800)
    permit.holder.save(update_fields=["cnh_expires_on"])
    granted = dimutran.post(f"/api/renewals/{body['id']}/documents/", {"documents": {"professional_license": True}}, format="json")
    assert granted.json()["status"] == "granted"


@pytest.mark.article("Art. 49")
def test_a_person_not_enrolled_in_social_security_gets_no_permit(make_person):
    from backend.api_errors import LawViolation

    person = make_person(social_security_registered=False)
    with pytest.raises(LawViolation) as refusal:
        permits.grant_permit(person=person, number="TX-NSS", result_published_on=date(2026, 3, 2), on=date(2026, 3, 2))
    assert "Art. 49" in refusal.value.decision.articles and not Permit.objects.filter(number="TX-NSS").exists()
