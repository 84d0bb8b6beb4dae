"""Issue #28, class 1: every admin form that wrote what only a service decides, tried as DIMUTRAN staff would (the
form's own fields, POSTed as a superuser). Each bypass is refused with its article or finds nothing editable, and
the same form still accepts the lawful act (so the refusal proves the rule, not broken data)."""

import re
from datetime import date, timedelta

import pytest

from backend.enforcement.models import AutoDeInfracao, PenaltyDecision
from backend.ranks.models import Contest, Rank
from backend.registry.models import Auxiliary, Permit, Renewal, Vehicle
from backend.registry.services import auxiliaries, permits

from .conftest import vehicle_data
from .enforcement_helpers import decide, draw_up, infraction
from .ranks_helpers import CENTRAL, OUTSIDE, PERIPHERAL
from .test_bypasses_closed import _inline_management

pytestmark = pytest.mark.django_db


def _signed_permit(make_person, today, number, **grant):
    permit = permits.grant_permit(person=make_person(), number=number, result_published_on=today, on=today, **grant)
    permits.sign_term(permit=permit, signed_on=today)
    return Permit.objects.get(pk=permit.pk)


def _vehicle_change(vehicle, **typed):
    return {"make": vehicle.make, "model": vehicle.model, "colour": vehicle.colour, "_save": "Salvar", **typed}


@pytest.mark.article("Art. 34", "Art. 1, III")
def test_the_admin_swaps_no_taxi_by_unticking_in_service_and_adding_an_older_one(admin_client, working_cab, today):
    permit = working_cab()
    taxi = permit.vehicles.get()
    url = f"/admin/registry/vehicle/{taxi.pk}/change/"
    assert 'name="in_service"' not in admin_client.get(url).content.decode()
    assert admin_client.post(url, _vehicle_change(taxi, in_service="", colour="prata")).status_code == 302
    taxi.refresh_from_db()
    assert taxi.in_service and taxi.colour == "prata"  # the description is edited, the service stays
    older = {"permit": permit.pk, **vehicle_data(today.year - 8), "owner_count": 1}
    refused = admin_client.post("/admin/registry/vehicle/add/", older)
    assert refused.status_code == 200 and "Art. 34" in refused.content.decode()
    assert list(permit.vehicles.values_list("pk", flat=True)) == [taxi.pk]


@pytest.mark.article("Art. 28", "Art. 20, §2")
def test_the_admin_vehicle_add_form_is_register_vehicle(admin_client, make_person, today):
    permit = _signed_permit(make_person, today, "TX-DV1")
    add = "/admin/registry/vehicle/add/"
    old = admin_client.post(add, {"permit": permit.pk, **vehicle_data(today.year - 12), "owner_count": 1})
    assert old.status_code == 200 and "Art. 28" in old.content.decode()
    assert not Vehicle.objects.filter(permit=permit).exists()
    assert admin_client.post(add, {"permit": permit.pk, **vehicle_data(today.year), "owner_count": 1}).status_code == 302
    assert Vehicle.objects.get(permit=permit).in_service_since == today  # the service's date, not a typed one


def _permit_typed(admin_client, permit, field, value):
    """POST the permit's change form as staff would, with ``field`` typed; the form itself is accepted."""
    url = f"/admin/registry/permit/{permit.pk}/change/"
    assert f'name="{field}"' not in admin_client.get(url).content.decode()
    assert admin_client.post(url, {**_inline_management(permit), field: value}).status_code == 302
    permit.refresh_from_db()
    return permit


@pytest.mark.article("Art. 34, § único")
def test_the_admin_types_no_vehicle_tolerance_on_the_permit(admin_client, working_cab):
    assert _permit_typed(admin_client, working_cab(), "vehicle_tolerance_until", "2030-12-31").vehicle_tolerance_until is None


@pytest.mark.article("Art. 14")
def test_the_admin_ticks_no_co_ownership_before_the_law(admin_client, working_cab):
    assert not _permit_typed(admin_client, working_cab(), "co_owned_grandfathered", "on").co_owned_grandfathered


@pytest.mark.article("Art. 11, § único")
def test_the_admin_types_no_final_judgment_of_a_judicial_loss(admin_client, working_cab, today):
    assert _permit_typed(admin_client, working_cab(), "judicial_loss_final_on", today).judicial_loss_final_on is None


@pytest.mark.article("Art. 49", "Art. 48")
def test_the_admin_authorizes_no_auxiliary_outside_the_previdencia(admin_client, working_cab, make_person, today):
    permit = working_cab()
    add = "/admin/registry/auxiliary/add/"
    row = {"permit": permit.pk, "split_regime": "law", "pix_receiver": "driver"}
    refused = admin_client.post(add, {**row, "person": make_person(social_security_registered=False).pk})
    assert refused.status_code == 200 and "Art. 49" in refused.content.decode()
    assert not permit.auxiliaries.exists()
    for _ in range(2):
        assert admin_client.post(add, {**row, "person": make_person().pk}).status_code == 302
    assert set(permit.auxiliaries.values_list("authorized_on", flat=True)) == {today}
    third = admin_client.post(add, {**row, "person": make_person().pk})
    assert third.status_code == 200 and "Art. 48" in third.content.decode()


@pytest.mark.article("Art. 1, §5")
def test_the_admin_does_not_reactivate_an_auxiliary_the_sweep_cancelled(admin_client, working_cab, make_person, today):
    aux = auxiliaries.authorize_auxiliary(permit=working_cab(), person=make_person(), on=today - timedelta(days=200))
    assert aux.pk in auxiliaries.cancel_overdue_auxiliaries(on=today)
    url = f"/admin/registry/auxiliary/{aux.pk}/change/"
    typed = {"status": "active", "authorized_on": today, "cancelled_on": "", "cancel_reason": "", "split_regime": "law",
             "pix_receiver": "holder", "_save": "Salvar"}
    assert admin_client.post(url, typed).status_code == 302
    aux.refresh_from_db()
    assert aux.status == Auxiliary.Status.CANCELLED and aux.authorized_on == today - timedelta(days=200)
    assert aux.pix_receiver == "holder"  # where the payouts go is still edited here


@pytest.mark.article("Art. 4, §2", "Art. 4, §3")
def test_the_admin_types_no_renewal_request_and_receives_one_through_the_service(admin_client, working_cab, today):
    permit, extinct = working_cab(), working_cab()
    add = "/admin/registry/renewal/add/"
    assert admin_client.get(add).status_code == 403
    admin_client.post(add, {"permit": extinct.pk, "requested_on": today, "timing": "on_time", "status": "open",
                            "late_fine_brl": "0", "documents-TOTAL_FORMS": 0, "documents-INITIAL_FORMS": 0})
    assert not Renewal.objects.exists()
    permit.alvaras.update(expires_on=today + timedelta(days=10))  # due now
    extinct.alvaras.update(expires_on=today - timedelta(days=400))  # long past the extinction term
    changelist = "/admin/registry/permit/"
    page = admin_client.post(changelist, {"action": "request_renewal_today", "_selected_action": [permit.pk, extinct.pk]},
                             follow=True).content.decode()
    assert re.search(rf"{extinct.number}: [^<]*\(Art\. 4, §3\)", page) and f"{permit.number}: pedido de renovação recebido" in page
    assert list(Renewal.objects.values_list("permit_id", "requested_on")) == [(permit.pk, today)]


def _management(client, url) -> dict:
    """The inline formsets' hidden management fields, as the page gives them to the browser."""
    page = client.get(url).content.decode()
    return dict(re.findall(r'name="([\w-]+-(?:TOTAL|INITIAL|MIN_NUM|MAX_NUM)_FORMS)"[^>]*value="(\d+)"', page))


def _rank_add(client, name, where):
    add = "/admin/ranks/rank/add/"
    return client.post(add, {"name": name, "lon": where[0], "lat": where[1], "category": "privativo", **_management(client, add)})


@pytest.mark.article("Art. 23", "Art. 24", "Art. 27")
def test_the_admin_locates_ranks_through_create_rank_and_moves_none(admin_client):
    outside = _rank_add(admin_client, "Fora", OUTSIDE)
    assert outside.status_code == 200 and "Art. 23" in outside.content.decode()
    assert not Rank.objects.exists()
    assert _rank_add(admin_client, "Barra", PERIPHERAL).status_code == 302
    rank = Rank.objects.get()
    assert rank.zone == Rank.Zone.PERIPHERAL  # computed by the service from the place (Art. 25)
    url = f"/admin/ranks/rank/{rank.pk}/change/"
    moved = {"name": "Barra Nova", "lon": CENTRAL[0], "lat": CENTRAL[1], "category": "privativo", "_save": "Salvar",
             **_management(admin_client, url)}
    assert admin_client.post(url, moved).status_code == 302
    before = rank.zone
    rank.refresh_from_db()
    assert (rank.lon, rank.lat, rank.zone) == (PERIPHERAL[0], PERIPHERAL[1], before) and rank.name == "Barra Nova"


@pytest.mark.article("Art. 15", "Art. 16", "Art. 17", "Art. 18", "Art. 41")
def test_the_admin_types_no_contest(admin_client, today):
    add = "/admin/ranks/contest/add/"
    assert admin_client.get(add).status_code == 403
    admin_client.post(add, {"title": "Concurso relâmpago", "contest_date": today + timedelta(days=1), "promotion": "",
                            "status": "published"})
    assert not Contest.objects.exists()
    assert admin_client.get("/admin/ranks/contest/").status_code == 200


@pytest.mark.article("Art. 62", "Art. 63, §1", "Art. 63, §2", "Art. 63, §3")
def test_the_admin_moves_no_auto_date_back_and_delivers_the_copy_through_the_service(admin_client, dimutran, working_cab, today):
    permit = working_cab()
    auto = draw_up(dimutran, permit, ["tariff_not_charged"], today - timedelta(days=3), delivered_on=False)
    url = f"/admin/enforcement/autodeinfracao/{auto['id']}/change/"
    assert 'name="copy_delivered_on"' not in admin_client.get(url).content.decode()
    assert admin_client.post(url, {"copy_delivered_on": today - timedelta(days=60)}).status_code == 403
    changelist = "/admin/enforcement/autodeinfracao/"
    admin_client.post(changelist, {"action": "deliver_copy_today", "_selected_action": [auto["id"]]}, follow=True)
    assert AutoDeInfracao.objects.get(pk=auto["id"]).copy_delivered_on == today
    again = admin_client.post(changelist, {"action": "deliver_copy_today", "_selected_action": [auto["id"]]}, follow=True)
    number = AutoDeInfracao.objects.get(pk=auto["id"]).number
    assert re.search(rf"{re.escape(number)}: [^<]*\(Art\. 62", again.content.decode()), again.content.decode()[-3000:]
    assert AutoDeInfracao.objects.get(pk=auto["id"]).copy_delivered_on == today


@pytest.mark.article("Art. 63, §2", "Art. 63, §3")
def test_the_admin_takes_no_decision_and_moves_no_notification_back(admin_client, dimutran, working_cab):
    monday, decided_on = date(2026, 3, 2), date(2026, 3, 10)  # the defence's 5 working days end on 09/03
    auto = draw_up(dimutran, working_cab(), ["tariff_not_charged"], monday)
    body = [{"infraction": infraction("tariff_not_charged").pk, "kind": "fine"}]
    assert decide(dimutran, auto["id"], decided_on, body).status_code == 201  # the lawful door: the service
    decision = PenaltyDecision.objects.get(auto_id=auto["id"])
    assert admin_client.get("/admin/enforcement/penaltydecision/add/").status_code == 403
    url = f"/admin/enforcement/penaltydecision/{decision.pk}/change/"
    early = monday - timedelta(days=1)
    assert admin_client.post(url, {"decided_on": early, "notified_on": early}).status_code == 403
    decision.refresh_from_db()
    assert decision.notified_on is None and decision.decided_on == decided_on
