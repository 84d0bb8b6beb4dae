"""Passenger complaints (Art. 60, § único) and the whole procedure down to compliance (Art. 54, b, Art. 63)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from backend.enforcement.models import AutoDeInfracao, Complaint
from backend.registry.compliance import may_work
from backend.registry.models import Suspension
from backend.trips.models import Passenger, RideStatus

from .enforcement_helpers import articles, dispatch_tick, infraction, make_ride, passenger_client  # noqa: F401


@pytest.mark.article("Art. 60")
def test_art_60_passenger_complains_about_own_completed_ride_with_its_data(working_cab):
    ride = make_ride(working_cab())
    response = passenger_client(ride.passenger).post("/api/complaints/", {"ride": ride.pk, "description": "Cobrou a bagagem."}, format="json")
    assert response.status_code == 201, response.json()
    data = response.json()["ride_data"]
    assert data["fare"] == "23.40" and data["driver_id"] == ride.driver_id and data["cab_id"] == ride.cab_id
    assert data["completed_at"] and data["trace"] and data["permit"] == ride.permit.number


@pytest.mark.article("Art. 60")
def test_art_60_complaint_about_someone_elses_ride_is_refused(working_cab):
    ride = make_ride(working_cab())
    stranger = Passenger.objects.create(name="João", phone="32988887777")
    response = passenger_client(stranger).post("/api/complaints/", {"ride": ride.pk, "description": "x"}, format="json")
    assert response.status_code == 400 and articles(response) == {"Art. 60"}
    assert response.json()["reasons"][0]["code"] == "complaint_not_own_ride"
    assert not Complaint.objects.exists()


@pytest.mark.article("Art. 60")
def test_art_60_complaint_about_a_ride_that_did_not_happen_is_refused(working_cab):
    ride = make_ride(working_cab(), status=RideStatus.CANCELLED)
    client = passenger_client(ride.passenger)
    response = client.post("/api/complaints/", {"ride": ride.pk, "description": "x"}, format="json")
    assert response.status_code == 400 and articles(response) == {"Art. 60"}
    assert response.json()["reasons"][0]["code"] == "complaint_ride_not_completed"
    missing = client.post("/api/complaints/", {"ride": 999999, "description": "x"}, format="json")
    assert missing.status_code == 400 and articles(missing) == {"Art. 60"}


@pytest.mark.article("Art. 60")
def test_art_60_complaint_needs_a_passenger_token(working_cab, dimutran, anonymous):
    ride = make_ride(working_cab())
    assert anonymous.post("/api/complaints/", {"ride": ride.pk, "description": "x"}, format="json").status_code == 401
    bad = anonymous.post("/api/complaints/", {"ride": ride.pk, "description": "x"}, format="json", HTTP_AUTHORIZATION="Passenger nope")
    assert bad.status_code == 401
    assert dimutran.post("/api/complaints/", {"ride": ride.pk, "description": "x"}, format="json").status_code == 403
    assert passenger_client(ride.passenger).get("/api/complaints/").status_code == 403


@pytest.mark.article("Art. 60, § único")
def test_art_60_unico_dismissal_needs_reasons(working_cab, dimutran, today):
    ride = make_ride(working_cab())
    complaint = passenger_client(ride.passenger).post("/api/complaints/", {"ride": ride.pk, "description": "x"}, format="json").json()
    refused = dimutran.post(f"/api/complaints/{complaint['id']}/triage/", {"issue_auto": False, "reasoning": " "}, format="json")
    assert refused.status_code == 400 and articles(refused) == {"Art. 60, § único"}
    ok = dimutran.post(f"/api/complaints/{complaint['id']}/triage/", {"issue_auto": False, "reasoning": "Cobrança conforme taxímetro."}, format="json")
    assert ok.status_code == 200 and ok.json()["status"] == "dismissed"
    again = dimutran.post(f"/api/complaints/{complaint['id']}/triage/", {"issue_auto": False, "reasoning": "x"}, format="json")
    assert again.status_code == 400


@pytest.mark.article("Art. 60, § único", "Art. 62", "Art. 62, § único", "Art. 63, §1", "Art. 54, b", "Art. 63, §3", "Art. 63, §4", "Art. 57")
def test_complaint_to_suspension_to_appeal_and_compliance(working_cab, dimutran, user_for, today, dispatch_tick):
    permit = working_cab()
    dispatch_tick.connect(permit)
    driver = user_for(permit.holder)
    ride = make_ride(permit)
    complaint = passenger_client(ride.passenger).post(
        "/api/complaints/", {"ride": ride.pk, "description": "Cobrou R$ 10 pelo retorno."}, format="json"
    ).json()

    # DIMUTRAN triages it into an auto (Art. 60, § único)
    triage = dimutran.post(
        f"/api/complaints/{complaint['id']}/triage/",
        {"issue_auto": True, "reasoning": "Cobrança de retorno comprovada pelo traçado e pela tarifa.",
         "infractions": [infraction("return_surcharge").pk], "on": today},
        format="json",
    )
    assert triage.status_code == 200 and triage.json()["status"] == "auto_issued"
    auto_id = triage.json()["auto"]
    auto = AutoDeInfracao.objects.get(pk=auto_id)
    assert auto.origin == "complaint" and auto.person == permit.holder and auto.number == f"0001/{today.year}"

    # the copy is delivered (Art. 62); the driver defends within 5 days (Art. 63, §1)
    assert dimutran.post(f"/api/autos/{auto_id}/deliver-copy/", {"delivered_on": today}, format="json").status_code == 200
    defence = driver.post(f"/api/autos/{auto_id}/defence/", {"text": "Não cobrei retorno."}, format="json")
    assert defence.status_code == 201, defence.json()
    deadlines = driver.get(f"/api/autos/{auto_id}/deadlines/").json()
    assert deadlines["defence_until"] >= (today + timedelta(days=5)).isoformat()

    # decision: suspension of 10 days from today (Art. 54, b)
    decided = dimutran.post(
        f"/api/autos/{auto_id}/decide/",
        {"decided_on": today, "reasoning": "Defesa não elide a prova.",
         "penalties": [{"infraction": infraction("return_surcharge").pk, "kind": "suspension", "starts_on": today, "ends_on": today + timedelta(days=9)}]},
        format="json",
    )
    assert decided.status_code == 201, decided.json()
    decision = decided.json()["decision"]
    assert decision["duty_persists"] is True and "Art. 57" in decision["articles"]
    assert decided.json()["recorded_on"] == today.isoformat()  # Art. 62, § único
    assert dispatch_tick.told() == [permit.pk]
    assert may_work(permit.holder, permit).codes == ("permit_suspended",)

    # notified (Art. 63, §2), appeal to COMUTRAM (Art. 63, §3), upheld, notified in 10 days (Art. 63, §4)
    assert dimutran.post(f"/api/autos/{auto_id}/notify/", {"notified_on": today}, format="json").status_code == 200
    appeal = driver.post("/api/appeals/", {"decision": decision["id"], "instance": "comutram", "grounds": "Prova frágil."}, format="json")
    assert appeal.status_code == 201, appeal.json()
    judged = dimutran.post(f"/api/appeals/{appeal.json()['id']}/judge/", {"judged_on": today, "granted": False, "judgment_text": "Mantida."}, format="json")
    assert judged.status_code == 200 and judged.json()["result"] == "upheld"
    assert dimutran.post(f"/api/appeals/{appeal.json()['id']}/notify-judgment/", {"notified_on": today}, format="json").status_code == 200

    # while suspended compliance says no; after the end it allows again
    now = timezone.now()
    assert not may_work(permit.holder, permit, now)
    assert may_work(permit.holder, permit, now + timedelta(days=10)), may_work(permit.holder, permit, now + timedelta(days=10)).reasons

    # second instance: the Mayor; granted, the suspension is lifted: nothing to tell, the driver may work again
    mayor = driver.post("/api/appeals/", {"decision": decision["id"], "instance": "mayor", "grounds": "Reexame."}, format="json")
    assert mayor.status_code == 201, mayor.json()
    granted = dimutran.post(f"/api/appeals/{mayor.json()['id']}/judge/", {"judged_on": today, "granted": True, "judgment_text": "Provido."}, format="json")
    assert granted.status_code == 200
    assert not Suspension.objects.filter(permit=permit).exists()
    assert dispatch_tick.told() == []
    assert may_work(permit.holder, permit, now)
    assert AutoDeInfracao.objects.get(pk=auto_id).recorded_on is None
