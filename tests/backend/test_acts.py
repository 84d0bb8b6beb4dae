"""The statute's amounts as dated acts: append-only by every door, a new act reaches only what comes after its date."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from backend.api_errors import LawViolation
from backend.enforcement.models import InfractionType
from backend.parameters.models import DatedParameter
from backend.parameters.selectors import current_parameters
from taxilaw.permits import late_renewal_fine

from .enforcement_helpers import articles, decide, draw_up

pytestmark = pytest.mark.django_db

MON = date(2026, 3, 2)


@pytest.fixture
def admin_client():
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("chefe", "c@example.com", "x"))
    return client


def _seed(name):
    return DatedParameter.objects.filter(name=name).order_by("-effective_from").first()


@pytest.mark.article("Art. 64", "Art. 55, II")
def test_pending_auto_keeps_its_value_after_a_new_act_dated_later(dimutran, working_cab, today):
    permit = working_cab()
    old = InfractionType.objects.get(code="seal_removed")
    auto = draw_up(dimutran, permit, ["seal_removed"], MON)
    edit = dimutran.patch(f"/api/infraction-types/{old.pk}/", {"group": "A"}, format="json")
    assert edit.status_code == 405
    back = dimutran.post("/api/infraction-types/", {
        "code": "seal_removed", "description": old.description, "article": old.article, "group": "A",
        "default_penalty": "fine", "effective_from": MON, "source": "Decreto 10/2026",
    }, format="json")
    assert back.status_code == 400 and articles(back) == {"Art. 67"}  # a new act never reaches back
    newer = dimutran.post("/api/infraction-types/", {
        "code": "seal_removed", "description": old.description, "article": old.article, "group": "A",
        "default_penalty": "fine", "effective_from": today + timedelta(days=1), "source": "Decreto 10/2026",
    }, format="json")
    assert newer.status_code == 201, newer.json()
    old.refresh_from_db()
    assert old.group == "B" and old.effective_until == today
    decided = decide(dimutran, auto["id"], MON + timedelta(days=15), [{"infraction": old.pk, "kind": "fine"}])
    assert decided.status_code == 201, decided.json()
    assert decided.json()["decision"]["penalties"][0]["amount"] == "140.00"


@pytest.mark.article("Art. 55, II")
def test_a_fine_group_is_the_statutes_and_no_decree_changes_it(dimutran, today):
    tomorrow = today + timedelta(days=1)
    body = {"name": "fine_group_b_brl", "effective_from": tomorrow, "value": "200.00", "source": "Decreto 11/2026"}
    by_decree = dimutran.post("/api/parameters/", body, format="json")
    assert by_decree.status_code == 400 and articles(by_decree) == {"Art. 55, II"}
    by_law = dimutran.post("/api/parameters/", {**body, "source": "Lei 5.000/2026"}, format="json")
    assert by_law.status_code == 201, by_law.json()
    fine_2002 = DatedParameter.objects.get(name="fine_group_b_brl", effective_from=date(2002, 2, 19))
    assert dimutran.put(f"/api/parameters/{fine_2002.pk}/", {**body, "effective_from": "1987-12-28"}, format="json").status_code == 405
    assert dimutran.delete(f"/api/parameters/{fine_2002.pk}/").status_code == 405


@pytest.mark.article("Art. 4, §2")
def test_late_renewal_fine_cannot_become_zero_in_place(dimutran, admin_client, today):
    fine = _seed("late_renewal_fine_ufm")
    assert dimutran.patch(f"/api/parameters/{fine.pk}/", {"value": "0"}, format="json").status_code == 405
    form = {"name": fine.name, "effective_from": fine.effective_from, "value": "0", "source": "Decreto"}
    admin_client.post(f"/admin/parameters/datedparameter/{fine.pk}/change/", form)
    fine.value = Decimal("0")
    with pytest.raises(LawViolation) as refused:
        fine.save()
    assert refused.value.decision.articles == ("Art. 4, §2",)
    with pytest.raises(LawViolation):
        DatedParameter.objects.filter(pk=fine.pk).update(value=0)
    with pytest.raises(LawViolation):
        DatedParameter.objects.get(pk=fine.pk).delete()
    zero = dimutran.post("/api/parameters/", {**form, "effective_from": today + timedelta(days=1)}, format="json")
    assert zero.status_code == 400 and articles(zero) == {"Art. 4, §2"}
    assert late_renewal_fine(current_parameters(), today + timedelta(days=2)) > 0


@pytest.mark.article("Art. 63, §5")
def test_the_deposit_cannot_come_back(dimutran, admin_client, today):
    body = {"name": "appeal_deposit_required", "effective_from": today + timedelta(days=1), "value": "1", "source": "Lei 5.001/2026"}
    api = dimutran.post("/api/parameters/", body, format="json")
    assert api.status_code == 400 and articles(api) == {"Art. 63, §5"}
    page = admin_client.post("/admin/parameters/datedparameter/add/", body)
    assert page.status_code == 200 and "Súmula Vinculante 21" in page.content.decode()
    with pytest.raises(LawViolation):
        DatedParameter.objects.create(name="appeal_deposit_required", effective_from=today, value=1, source="Lei")
    assert current_parameters().as_of("appeal_deposit_required", today + timedelta(days=5)) == 0


@pytest.mark.article("Art. 67")
def test_the_admin_records_a_new_act_and_shows_the_old_ones_read_only(admin_client, today):
    ufm = _seed("ufm_brl")
    change = admin_client.get(f"/admin/parameters/datedparameter/{ufm.pk}/change/")
    assert change.status_code == 200 and 'name="value"' not in change.content.decode()
    body = {"name": "ufm_brl", "effective_from": today + timedelta(days=1), "value": "6.50", "source": "Decreto 12/2026"}
    past = admin_client.post("/admin/parameters/datedparameter/add/", {**body, "effective_from": today - timedelta(days=1)})
    assert past.status_code == 200 and "(Art. 67)" in past.content.decode()
    assert admin_client.post("/admin/parameters/datedparameter/add/", body).status_code == 302
    params = current_parameters()
    assert params.as_of("ufm_brl", today) == ufm.value and params.as_of("ufm_brl", today + timedelta(days=1)) == Decimal("6.50")
    assert admin_client.post(f"/admin/parameters/datedparameter/{ufm.pk}/delete/", {"post": "yes"}).status_code == 403
    ufm.refresh_from_db()
    assert ufm.value != Decimal("6.50")


@pytest.mark.article("Art. 64")
def test_the_admin_adds_a_catalogue_version_and_edits_none(admin_client, today):
    old = InfractionType.objects.get(code="attire")
    page = admin_client.get(f"/admin/enforcement/infractiontype/{old.pk}/change/")
    assert page.status_code == 200 and 'name="group"' not in page.content.decode()
    body = {
        "code": "attire", "description": old.description, "article": old.article, "group": "B", "fine_ufm": "",
        "default_penalty": old.default_penalty, "effective_from": today + timedelta(days=30), "source": "Decreto 13/2026",
    }
    assert admin_client.post("/admin/enforcement/infractiontype/add/", body).status_code == 302
    assert InfractionType.objects.filter(code="attire").count() == 2
    old.refresh_from_db()
    assert old.group == "C" and old.effective_until == today + timedelta(days=29)
