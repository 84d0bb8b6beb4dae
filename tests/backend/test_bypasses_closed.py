"""No path around the law core: the API, the admin and the contest's result (Art. 15, 20 §2, 28, 41 §2, 48, 54 b)."""

import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from backend.parameters.models import DatedParameter
from backend.registry.models import Permit, RevocationInquiry, Suspension, Vehicle
from backend.registry.services import auxiliaries, permits
from taxilaw.inspection_items import approved_vistoria

from .conftest import vehicle_data
from .ranks_helpers import make_rank, refused
from .test_ranks_contests import publish, register
from .test_ranks_results import _classify, _publish_result, _result_day

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client():
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("chefe", "c@example.com", "x"))
    return client


@pytest.mark.article("Art. 3", "Art. 19")
def test_the_api_grants_no_permit_outside_a_contest_or_transfer(dimutran, make_person, today):
    response = dimutran.post("/api/permits/", {"holder": make_person().pk, "number": "TX-900", "result_published_on": today}, format="json")
    assert response.status_code == 405
    assert not Permit.objects.filter(number="TX-900").exists()


@pytest.mark.article("Art. 54, b", "Art. 63")
def test_the_api_suspends_only_through_auto_defence_and_decision(dimutran, working_cab, today):
    permit = working_cab()
    body = {"permit": permit.pk, "starts_on": today, "ends_on": today + timedelta(days=5), "reason": "sem processo"}
    assert dimutran.post("/api/suspensions/", body, format="json").status_code == 405
    assert not Suspension.objects.exists()
    assert dimutran.get("/api/suspensions/").status_code == 200


@pytest.mark.article("Art. 41, §2", "Art. 15")
def test_the_fleet_cap_counts_permits_awaiting_their_term(dimutran, make_person, today):
    rank = make_rank(dimutran, "Barra")
    contest = publish(dimutran, today, [rank])
    assert register(dimutran, contest, make_person(), model_year=today.year).status_code == 201
    _classify(dimutran, contest)
    published = _result_day(contest)
    awaiting = permits.grant_permit(person=make_person(), number="TX-AW1", result_published_on=today, on=today)
    # The municipality shrinks to one taxi's worth: the permit awaiting its term already holds that vacancy.
    DatedParameter.objects.create(name="population", effective_from=today, value=1500, source="teste")
    body = refused(_publish_result(dimutran, contest, published), "Art. 41, §2")
    assert "fleet_cap_reached" in [r["code"] for r in body["reasons"]]
    assert list(Permit.objects.values_list("number", flat=True)) == [awaiting.number]


@pytest.mark.article("Art. 20, §2")
def test_a_winner_cannot_register_a_car_older_than_the_one_declared(dimutran, make_person, today):
    permit = permits.grant_permit(person=make_person(), number="TX-D1", result_published_on=today, on=today,
                                  contest_model_year=today.year)
    permits.sign_term(permit=permit, signed_on=today)
    older = dimutran.post("/api/vehicles/", {"permit": permit.pk, "on": today, **vehicle_data(today.year - 9)}, format="json")
    refused(older, "Art. 20, §2")
    assert not Vehicle.objects.filter(permit=permit).exists()
    same = dimutran.post("/api/vehicles/", {"permit": permit.pk, "on": today, **vehicle_data(today.year)}, format="json")
    assert same.status_code == 201


def _inline_management(permit, vehicles=(), auxiliaries_rows=()):
    data = {"co_owned_grandfathered": "", "_save": "Salvar"}
    for prefix, rows, initial in (("alvaras", (), permit.alvaras.count()), ("vehicles", vehicles, permit.vehicles.count()),
                                  ("auxiliaries", auxiliaries_rows, permit.auxiliaries.count())):
        data.update({f"{prefix}-TOTAL_FORMS": initial + len(rows), f"{prefix}-INITIAL_FORMS": initial,
                     f"{prefix}-MIN_NUM_FORMS": 0, f"{prefix}-MAX_NUM_FORMS": 1000})
    for i, existing in enumerate(permit.alvaras.all()):
        data[f"alvaras-{i}-id"] = existing.pk
    base = permit.vehicles.count()
    for i, existing in enumerate(permit.vehicles.all()):
        data.update({f"vehicles-{i}-id": existing.pk, f"vehicles-{i}-permit": permit.pk, f"vehicles-{i}-plate": existing.plate,
                     f"vehicles-{i}-make": existing.make, f"vehicles-{i}-model": existing.model,
                     f"vehicles-{i}-model_year": existing.model_year, f"vehicles-{i}-colour": existing.colour,
                     f"vehicles-{i}-renavam": existing.renavam, f"vehicles-{i}-manufacture_year": existing.manufacture_year,
                     f"vehicles-{i}-in_service": "on" if existing.in_service else "",
                     f"vehicles-{i}-in_service_since": existing.in_service_since or ""})
    for j, row in enumerate(vehicles):
        data.update({f"vehicles-{base + j}-{k}": v for k, v in row.items()})
        data[f"vehicles-{base + j}-permit"] = permit.pk
    base = permit.auxiliaries.count()
    for i, existing in enumerate(permit.auxiliaries.all()):
        data.update({f"auxiliaries-{i}-id": existing.pk, f"auxiliaries-{i}-permit": permit.pk,
                     f"auxiliaries-{i}-person": existing.person_id, f"auxiliaries-{i}-authorized_on": existing.authorized_on,
                     f"auxiliaries-{i}-status": existing.status, f"auxiliaries-{i}-split_regime": existing.split_regime})
    for j, row in enumerate(auxiliaries_rows):
        data.update({f"auxiliaries-{base + j}-{k}": v for k, v in row.items()})
        data[f"auxiliaries-{base + j}-permit"] = permit.pk
    return data


@pytest.mark.article("Art. 3", "Art. 8")
def test_the_admin_shows_status_and_holder_read_only_and_acts_through_the_services(admin_client, working_cab, make_person, today):
    permit = working_cab()
    url = f"/admin/registry/permit/{permit.pk}/change/"
    page = admin_client.get(url).content.decode()
    assert 'name="status"' not in page and 'name="holder"' not in page
    other = make_person()
    data = _inline_management(permit)
    response = admin_client.post(url, {**data, "status": "revoked", "holder": other.pk})
    assert response.status_code == 302, response.content.decode()[:3000]
    permit.refresh_from_db()
    assert permit.status == "active" and permit.holder_id != other.pk
    assert admin_client.get("/admin/registry/permit/add/").status_code == 403

    waiting = permits.grant_permit(person=make_person(), number="TX-AD1", result_published_on=today, on=today)
    changelist = "/admin/registry/permit/"
    admin_client.post(changelist, {"action": "sign_term_today", "_selected_action": [waiting.pk, permit.pk]}, follow=True)
    waiting.refresh_from_db()
    assert waiting.status == "active" and waiting.alvaras.count() == 1
    followed = admin_client.post(changelist, {"action": "sign_term_today", "_selected_action": [permit.pk]}, follow=True)
    assert "Art. 3" in followed.content.decode()  # already signed: the service's refusal, with its article


@pytest.mark.article("Art. 28", "Art. 48")
def test_the_permits_inlines_add_no_vehicle_and_no_auxiliary(admin_client, make_person, today):
    """The permit's page shows its taxi and auxiliaries; they are added by their own add forms, which call the
    services (tests/backend/test_admin_doors.py), never by an inline row."""
    permit = permits.grant_permit(person=make_person(), number="TX-AV1", result_published_on=today, on=today)
    permits.sign_term(permit=permit, signed_on=today)
    url = f"/admin/registry/permit/{permit.pk}/change/"
    car = {**vehicle_data(today.year), "in_service": "on", "in_service_since": today}
    helper = {"person": make_person().pk, "authorized_on": today, "status": "active", "split_regime": "law"}
    admin_client.post(url, _inline_management(permit, vehicles=[car], auxiliaries_rows=[helper]))
    assert not Vehicle.objects.filter(permit=permit).exists() and not permit.auxiliaries.exists()


@pytest.mark.article("Art. 54, b", "Art. 10, §1")
def test_the_admin_adds_no_suspension_and_no_inquiry_by_hand(admin_client, working_cab, today):
    permit = working_cab()
    for model in ("suspension", "revocationinquiry"):
        assert admin_client.get(f"/admin/registry/{model}/add/").status_code == 403
    admin_client.post("/admin/registry/suspension/add/", {"permit": permit.pk, "starts_on": today, "ends_on": today, "reason": "x"})
    assert not Suspension.objects.exists() and not RevocationInquiry.objects.exists()
    assert admin_client.get("/admin/registry/suspension/").status_code == 200


@pytest.mark.article("Art. 10, §1")
def test_the_admin_records_the_summons_through_the_service_once(admin_client, working_cab, today):
    from backend.registry.services import revocation

    inquiry = revocation.open_inquiry(permit=working_cab(), ground="lock_out", facts="Recusa coletiva.",
                                      opened_on=today - timedelta(days=2))
    changelist = "/admin/registry/revocationinquiry/"
    assert "aguardando intimação" in admin_client.get(changelist).content.decode()
    admin_client.post(changelist, {"action": "summon_today", "_selected_action": [inquiry.pk]}, follow=True)
    inquiry.refresh_from_db()
    assert inquiry.summoned_on == today and "chefe" in inquiry.summons_record
    again = admin_client.post(changelist, {"action": "summon_today", "_selected_action": [inquiry.pk]}, follow=True)
    assert "já foi intimado" in again.content.decode()


@pytest.mark.article("Art. 47, §1", "Art. 47, §3")
def test_the_admin_records_aferitions_through_the_law_and_never_moves_a_meter_by_hand(admin_client, working_cab, today):
    from backend.registry.models import TaximeterAferition

    meter = working_cab().vehicles.get().taximeters.get()
    before = TaximeterAferition.objects.count()
    add = "/admin/registry/taximeteraferition/add/"
    refused = admin_client.post(add, {"taximeter": meter.pk, "afered_on": today, "certificate": "INMETRO 9", "seal": ""})
    assert refused.status_code == 200 and TaximeterAferition.objects.count() == before
    assert admin_client.post(add, {"taximeter": meter.pk, "afered_on": today, "certificate": "INMETRO 9", "seal": "L-9"}).status_code == 302
    assert TaximeterAferition.objects.filter(taximeter=meter, afered_on=today, seal="L-9").exists()
    url = f"/admin/registry/taximeter/{meter.pk}/change/"
    admin_client.post(url, {"serial": meter.serial, "make": meter.make, "model": "Novo", "installer": "",
                            "installed_on": today, "removed_on": today,
                            "aferitions-TOTAL_FORMS": 0, "aferitions-INITIAL_FORMS": 0})
    meter.refresh_from_db()
    assert meter.removed_on is None and meter.installed_on != today and meter.model == "Novo"
    second = admin_client.post("/admin/registry/taximeter/add/", {"vehicle": meter.vehicle_id, "serial": "Z-1", "make": "Digitax",
                                                                  "model": "X", "installed_on": today})
    assert second.status_code == 200 and "já tem um taxímetro instalado" in second.content.decode()


@pytest.mark.article("Art. 37", "Art. 40", "Art. 51", "Art. 1, §5")
def test_the_admin_adds_vistorias_cmts_and_proofs_only_through_their_services_and_never_edits_what_the_law_sets(
        admin_client, working_cab, make_person, today):
    from backend.registry.models import Cmt, Inspection, SocialSecurityProof

    permit = working_cab()
    vehicle = permit.vehicles.get()
    add = "/admin/registry/inspection/add/"
    row = {"vehicle": vehicle.pk, "kind": "annual", "inspected_on": today, "result": "passed", "seal_number": "", "notes": "",
           # the planilha and the documents of the vistoria (Art. 36, Art. 39), as the form's JSON fields take them
           **{k: json.dumps(v) for k, v in approved_vistoria().items()}}
    assert admin_client.post(add, row).status_code == 200  # a pass needs its seal (Art. 37)
    assert admin_client.post(add, {**row, "seal_number": "S-77"}).status_code == 302
    inspection = Inspection.objects.get(seal_number="S-77")
    assert inspection.valid_until is not None and inspection.fee_brl > 0  # from the law, not typed
    url = f"/admin/registry/inspection/{inspection.pk}/change/"
    admin_client.post(url, {"result": "failed", "valid_until": today, "fee_paid_on": today, "fee_brl": "0", "notes": "Ok."})
    inspection.refresh_from_db()
    assert inspection.result == "passed" and inspection.fee_paid_on is None and inspection.notes == "Ok."
    admin_client.post("/admin/registry/inspection/", {"action": "fee_paid_today", "_selected_action": [inspection.pk]})
    inspection.refresh_from_db()
    assert inspection.fee_paid_on == today

    person = make_person()
    cmt = {"person": person.pk, "number": "CMT-X1", "issued_on": today, "expires_on": today}
    assert admin_client.post("/admin/registry/cmt/add/", cmt).status_code == 200  # Art. 51: valid after its issue
    assert admin_client.post("/admin/registry/cmt/add/", {**cmt, "expires_on": today + timedelta(days=365)}).status_code == 302
    card = Cmt.objects.get(number="CMT-X1")
    admin_client.post(f"/admin/registry/cmt/{card.pk}/change/", {"expires_on": today + timedelta(days=9999)})
    card.refresh_from_db()
    assert card.expires_on == today + timedelta(days=365)

    aux = auxiliaries.authorize_auxiliary(permit=permit, person=make_person(), on=today)
    proof = {"auxiliary": aux.pk, "quarter_end": today.replace(day=15), "presented_on": today}
    assert admin_client.post("/admin/registry/socialsecurityproof/add/", proof).status_code == 200
    assert not SocialSecurityProof.objects.filter(auxiliary=aux).exists()
    for model, pk in (("inspection", inspection.pk), ("cmt", card.pk)):
        assert admin_client.post(f"/admin/registry/{model}/{pk}/delete/", {"post": "yes"}).status_code == 403
