"""The acts of the law that had no door (issue #28, #31): each is done through the admin action's intermediate form
(POSTed with the form's own fields, dates as the widget shows them, dd/mm/aaaa) and through the API, calling the same
service; an unlawful one is refused with its article, as an admin error message or a 400, never a 5xx."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from backend.parameters.models import DatedParameter
from backend.registry.models import Permit, Transfer, Vehicle

from .conftest import vehicle_data

pytestmark = pytest.mark.django_db

PERMITS = "/admin/registry/permit/"
TRANSFERS = "/admin/registry/transfer/"


def br(day: date) -> str:
    return day.strftime("%d/%m/%Y")


def act(admin_client, changelist, action, record, **fields):
    """Staff select ``record``, choose ``action``, see its form, and register the act: (form page, answer followed)."""
    chosen = {"action": action, "_selected_action": [record.pk]}
    page = admin_client.post(changelist, chosen)
    assert page.status_code == 200 and 'name="apply"' in page.content.decode()
    answer = admin_client.post(changelist, {**chosen, "apply": "Registrar o ato", **fields}, follow=True)
    assert answer.status_code == 200
    return page.content.decode(), answer.content.decode()


def _refused(text: str, article: str) -> bool:
    return 'class="error"' in text and article in text


# ---------------------------------------------------------------- Art. 11, § único: the final judgment

@pytest.mark.article("Art. 11, § único")
def test_the_admin_records_a_judicial_loss_and_refuses_a_future_judgment(admin_client, working_cab, today):
    permit = working_cab()
    page, answer = act(admin_client, PERMITS, "record_judicial_loss", permit, judgment_final_on=br(today + timedelta(days=1)))
    assert 'class="vDateField' in page  # the admin's calendar widget, no raw text
    assert _refused(answer, "Art. 11, § único")
    assert Permit.objects.get(pk=permit.pk).judicial_loss_final_on is None
    _, answer = act(admin_client, PERMITS, "record_judicial_loss", permit, judgment_final_on=br(today - timedelta(days=3)))
    assert br(today - timedelta(days=3)) in answer and "perda judicial registrada" in answer
    assert Permit.objects.get(pk=permit.pk).judicial_loss_final_on == today - timedelta(days=3)


@pytest.mark.article("Art. 11, § único")
def test_the_api_records_a_judicial_loss_and_refuses_a_future_judgment(dimutran, user_for, working_cab, today):
    permit = working_cab()
    url = f"/api/permits/{permit.pk}/judicial-loss/"
    assert user_for(permit.holder).post(url, {"judgment_final_on": today}, format="json").status_code == 403
    refused = dimutran.post(url, {"judgment_final_on": today + timedelta(days=1)}, format="json")
    assert refused.status_code == 400 and "Art. 11, § único" in refused.content.decode()
    missing = dimutran.post(url, {}, format="json")
    assert missing.status_code == 400 and "obrigatório" in missing.content.decode()  # DRF's errors in pt-BR
    done = dimutran.post(url, {"judgment_final_on": today}, format="json")
    assert done.status_code == 200 and done.json()["judicial_loss_final_on"] == today.isoformat()


# ---------------------------------------------------------------- Art. 34, § único: the tolerance

@pytest.mark.article("Art. 34, § único")
def test_the_admin_grants_a_tolerance_once_and_refuses_to_extend_it(admin_client, working_cab, today):
    permit = working_cab()
    page, answer = act(admin_client, PERMITS, "tolerate_vehicle", permit, case="provisional_vehicle", started_on=br(today))
    assert "até 3 meses" in page and f'value="{br(today)}"' in page  # today, as a Brazilian writes it
    until = Permit.objects.get(pk=permit.pk).vehicle_tolerance_until
    assert until is not None and until > today + timedelta(days=85) and f"tolerância concedida até {br(until)}" in answer
    _, answer = act(admin_client, PERMITS, "tolerate_vehicle", permit, case="not_operating", started_on=br(today))
    assert _refused(answer, "Art. 34, § único") and br(until) in answer
    assert Permit.objects.get(pk=permit.pk).vehicle_tolerance_until == until


@pytest.mark.article("Art. 34, § único")
def test_the_api_grants_a_tolerance_and_refuses_a_future_one(dimutran, working_cab, today):
    permit = working_cab()
    url = f"/api/permits/{permit.pk}/vehicle-tolerance/"
    refused = dimutran.post(url, {"case": "not_operating", "started_on": today + timedelta(days=2)}, format="json")
    assert refused.status_code == 400 and "Art. 34, § único" in refused.content.decode()
    bad_case = dimutran.post(url, {"case": "forever"}, format="json")
    assert bad_case.status_code == 400 and "não é uma escolha válida" in bad_case.content.decode()
    done = dimutran.post(url, {"case": "not_operating"}, format="json")
    assert done.status_code == 200 and done.json()["vehicle_tolerance_until"] > today.isoformat()
    again = dimutran.post(url, {"case": "not_operating"}, format="json")
    assert again.status_code == 400 and "tolerance_running" in again.content.decode()


# ---------------------------------------------------------------- Art. 34, II: the justified swap

def _swap_fields(today, model_year, **extra):
    return {"on": br(today), **vehicle_data(model_year), "owner_count": 1,
            "justification": "O táxi atual foi perdido em acidente; o permissionário comprovou.", **extra}


@pytest.mark.article("Art. 34, II")
def test_the_admin_swaps_for_an_older_taxi_with_justification_within_three_years(admin_client, working_cab, today):
    permit = working_cab()
    old = permit.vehicles.get(in_service=True)
    _, answer = act(admin_client, PERMITS, "replace_vehicle_justified", permit, **_swap_fields(today, today.year - 5))
    assert _refused(answer, "Art. 34, II")
    assert permit.vehicles.get(in_service=True) == old
    fields = _swap_fields(today, today.year - 3)
    _, answer = act(admin_client, PERMITS, "replace_vehicle_justified", permit, **fields)
    new = permit.vehicles.get(in_service=True)
    assert new.model_year == today.year - 3 and new.plate == fields["plate"] and "em serviço desde" in answer
    from django.contrib.admin.models import LogEntry

    assert "acidente" in LogEntry.objects.get(object_id=str(permit.pk)).change_message  # the justification is kept


@pytest.mark.article("Art. 34, II")
def test_the_api_swaps_for_an_older_taxi_only_with_justification_within_three_years(dimutran, working_cab, today):
    permit = working_cab()
    url = f"/api/permits/{permit.pk}/replace-vehicle/"
    unjustified = dimutran.post(url, vehicle_data(today.year - 3), format="json")
    assert unjustified.status_code == 400 and "replacement_not_justified" in unjustified.content.decode()
    too_old = dimutran.post(url, {**vehicle_data(today.year - 5), "justified": True}, format="json")
    assert too_old.status_code == 400 and "Art. 34, II" in too_old.content.decode()
    done = dimutran.post(url, {**vehicle_data(today.year - 3), "justified": True}, format="json")
    assert done.status_code == 201 and permit.vehicles.get(in_service=True).model_year == today.year - 3


def test_the_admin_swap_asks_for_a_justification_and_one_permit(admin_client, working_cab, today):
    permit, other = working_cab(), working_cab()
    fields = _swap_fields(today, today.year - 3, justification="")
    chosen = {"action": "replace_vehicle_justified", "_selected_action": [permit.pk]}
    answer = admin_client.post(PERMITS, {**chosen, "apply": "Registrar o ato", **fields})
    assert answer.status_code == 200 and "Este campo é obrigatório" in answer.content.decode()
    both = admin_client.post(PERMITS, {**chosen, "_selected_action": [permit.pk, other.pk]}, follow=True)
    assert "Selecione um único registro" in both.content.decode()
    taken = _swap_fields(today, today.year - 3, plate=other.vehicles.get().plate)
    answer = admin_client.post(PERMITS, {**chosen, "apply": "Registrar o ato", **taken})
    assert answer.status_code == 200 and "Já há um táxi em serviço com esta placa" in answer.content.decode()


# ---------------------------------------------------------------- Art. 6-7: transfers and their fee

def _transferable(working_cab, make_person, today):
    permit = working_cab(signed_on=today - timedelta(days=2 * 365 + 40))
    return permit, make_person()


def _allow_transfers():
    DatedParameter.objects.create(name="permit_transfers_allowed", effective_from=date(2021, 3, 12), value=1, source="teste")


@pytest.mark.article("Art. 6, I", "Art. 6, §5")
def test_the_admin_transfers_a_permit_and_registers_the_fee(admin_client, working_cab, make_person, today):
    permit, buyer = _transferable(working_cab, make_person, today)
    fields = {"transferee": buyer.pk, "kind": "inter_vivos", "requested_on": br(today), **vehicle_data(today.year),
              "owner_count": 1}
    _, answer = act(admin_client, PERMITS, "request_transfer", permit, **fields)
    assert _refused(answer, "ADI 5337")  # off by default since STF ADI 5337 (docs/readings-registry.md)
    assert not Transfer.objects.exists()
    _allow_transfers()
    _, answer = act(admin_client, PERMITS, "request_transfer", permit, **{**fields, "plate": vehicle_data(today.year)["plate"]})
    transfer = Transfer.objects.get()
    assert transfer.status == Transfer.Status.AWAITING_FEE and "aguardando pagamento" in answer
    assert Permit.objects.get(pk=permit.pk).holder != buyer  # the alvará only after the fee (Art. 6, §5)
    _, answer = act(admin_client, TRANSFERS, "pay_transfer_fee", transfer, paid_on=br(today))
    assert "alvará emitido" in answer and Permit.objects.get(pk=permit.pk).holder == buyer
    assert Vehicle.objects.get(permit=permit, in_service=True).model_year == today.year
    _, answer = act(admin_client, TRANSFERS, "pay_transfer_fee", transfer, paid_on=br(today))
    assert _refused(answer, "Art. 6, §5")


@pytest.mark.article("Art. 6, I")
def test_the_admin_refuses_a_transfer_before_two_years(admin_client, working_cab, make_person, today):
    _allow_transfers()
    permit, buyer = working_cab(), make_person()
    _, answer = act(admin_client, PERMITS, "request_transfer", permit, transferee=buyer.pk, kind="inter_vivos",
                    requested_on=br(today))
    assert _refused(answer, "Art. 6, I") and not Transfer.objects.exists()


# ---------------------------------------------------------------- Art. 63: the decision and the notices

MON = date(2026, 3, 2)  # a Monday; the defence term (5 days) ends on Monday 09/03


@pytest.mark.article("Art. 63", "Art. 63, §1", "Art. 63, §2", "Art. 63, §4")
def test_the_admin_decides_an_auto_after_the_defence_and_records_the_notices(admin_client, dimutran, working_cab):
    from backend.enforcement.models import Appeal, AutoDeInfracao, PenaltyDecision

    from .enforcement_helpers import appeal, draw_up, judge

    auto = AutoDeInfracao.objects.get(pk=draw_up(dimutran, working_cab(), ["attire"], MON)["id"])
    [infraction] = auto.infractions.all()
    autos = "/admin/enforcement/autodeinfracao/"
    decision = {"upheld": "1", "reasoning": "Infração comprovada pelo fiscal.", "serious_consequences": "on",
                f"kind_{infraction.pk}": "fine", f"revocation_ground_{infraction.pk}": "breach_of_term"}
    page, answer = act(admin_client, autos, "decide_auto", auto, decided_on="09/03/2026", **decision)
    assert infraction.description in page and "multa (Art. 54, c)" in page
    assert _refused(answer, "Art. 63, §1") and not PenaltyDecision.objects.exists()
    _, answer = act(admin_client, autos, "decide_auto", auto, decided_on="10/03/2026", **decision)
    taken = PenaltyDecision.objects.get(auto=auto)
    assert taken.decided_on == date(2026, 3, 10) and taken.total_fine > 0 and "decisão de 10/03/2026 registrada" in answer

    decisions = "/admin/enforcement/penaltydecision/"
    _, answer = act(admin_client, decisions, "notify_decision", taken, notified_on="09/03/2026")
    assert _refused(answer, "Art. 63, §2")
    _, answer = act(admin_client, decisions, "notify_decision", taken, notified_on="11/03/2026")
    assert "notificação de 11/03/2026 registrada" in answer
    assert PenaltyDecision.objects.get(pk=taken.pk).notified_on == date(2026, 3, 11)

    filed = Appeal.objects.get(pk=appeal(dimutran, taken.pk, "2026-03-12")["id"])
    assert judge(dimutran, filed.pk, "2026-03-20", "upheld").status_code == 200
    appeals = "/admin/enforcement/appeal/"
    _, answer = act(admin_client, appeals, "notify_judgment", filed, notified_on="19/03/2026")
    assert _refused(answer, "Art. 63, §4") and Appeal.objects.get(pk=filed.pk).judgment_notified_on is None
    _, answer = act(admin_client, appeals, "notify_judgment", filed, notified_on="23/03/2026")
    assert Appeal.objects.get(pk=filed.pk).judgment_notified_on == date(2026, 3, 23)


@pytest.mark.article("Art. 6, I", "Art. 6, §5")
def test_the_api_transfers_a_permit_and_registers_the_fee(dimutran, working_cab, make_person, today):
    permit, buyer = _transferable(working_cab, make_person, today)
    body = {"transferee": buyer.pk, "kind": "inter_vivos", "requested_on": today, "vehicle": vehicle_data(today.year)}
    off = dimutran.post(f"/api/permits/{permit.pk}/transfers/", body, format="json")
    assert off.status_code == 400 and "ADI 5337" in off.content.decode()
    _allow_transfers()
    transfer = dimutran.post(f"/api/permits/{permit.pk}/transfers/", body, format="json")
    assert transfer.status_code == 201 and transfer.json()["status"] == "awaiting_fee"
    pay = f"/api/transfers/{transfer.json()['id']}/pay-fee/"
    assert dimutran.post(pay, {"paid_on": today}, format="json").json()["status"] == "completed"
    again = dimutran.post(pay, {"paid_on": today}, format="json")
    assert again.status_code == 400 and "Art. 6, §5" in again.content.decode()
    assert Permit.objects.get(pk=permit.pk).holder == buyer
