"""The API's remaining rules, tried as DIMUTRAN staff would: central titulars, staff check-ins, suspension maximum,
dates in the future; and the sweep that an open renewal request no longer stops."""

from datetime import date, timedelta

import pytest

from backend.ranks.models import Rank, RankCheckIn
from backend.ranks.services import ranks as rank_services
from backend.registry.models import Renewal
from backend.registry.services import permits
from taxilaw.inspection_items import approved_vistoria

from .conftest import vehicle_data
from .enforcement_helpers import articles, decide, draw_up, infraction
from .ranks_helpers import CENTRAL, PERIPHERAL, at, at_rank, make_rank, refused, seen_at

pytestmark = pytest.mark.django_db

MON = date(2026, 3, 2)


@pytest.mark.article("Art. 27")
def test_a_peripheral_holder_reaches_a_central_rank_only_by_promotion(dimutran, working_cab, today):
    peripheral = make_rank(dimutran, "Bairro", where=PERIPHERAL)
    centre, other_centre = make_rank(dimutran, "Praça", where=CENTRAL), make_rank(dimutran, "Matriz", where=CENTRAL)
    holder = working_cab()
    assert dimutran.post(f"/api/ranks/{peripheral['id']}/titulars/", {"permit": holder.pk, "since": today}, format="json").status_code == 201
    body = refused(dimutran.post(f"/api/ranks/{centre['id']}/titulars/", {"permit": holder.pk, "since": today}, format="json"), "Art. 27")
    assert body["reasons"][0]["code"] == "central_vacancy_by_promotion_only"
    # A permit already in the central zone (here placed by the promotion's own path) is redistributed (Art. 27, §1).
    promoted = working_cab()
    rank_services.assign_rank(permit=promoted, rank=Rank.objects.get(pk=centre["id"]), since=today)
    moved = dimutran.post(f"/api/ranks/{other_centre['id']}/titulars/", {"permit": promoted.pk, "since": today}, format="json")
    assert moved.status_code == 201, moved.json()


@pytest.mark.article("Art. 9, V")
def test_staff_check_ins_are_for_today_with_a_position_or_a_justified_correction(dimutran, working_cab, today):
    rank = make_rank(dimutran, "Bairro", category="livre")
    permit = working_cab()
    yesterday = at(today - timedelta(days=1), 9)
    seen_at(permit, at_rank(rank))
    past = dimutran.post("/api/rank-checkins/", {"permit": permit.pk, "rank": rank["id"], "at": yesterday.isoformat()}, format="json")
    assert past.status_code == 400 and articles(past) == {"Art. 9, V"}
    ahead = dimutran.post("/api/rank-checkins/", {"permit": permit.pk, "rank": rank["id"], "at": at(today + timedelta(days=1)).isoformat()},
                          format="json")
    assert ahead.status_code == 400 and articles(ahead) == {"Art. 9, V"}
    seen_at(permit, (rank["lat"] + 0.05, rank["lon"]))  # the cab is ~5 km away: no inspector can see it at the rank
    away = dimutran.post("/api/rank-checkins/", {"permit": permit.pk, "rank": rank["id"]}, format="json")
    assert away.status_code == 400 and articles(away) == {"Art. 9, V"}
    assert not RankCheckIn.objects.exists()
    fixed = dimutran.post("/api/rank-checkins/", {"permit": permit.pk, "rank": rank["id"], "at": yesterday.isoformat(),
                                                  "correction_reason": "Fiscal viu o táxi no ponto; o aparelho estava sem GPS."}, format="json")
    assert fixed.status_code == 201, fixed.json()
    row = RankCheckIn.objects.get()
    assert row.correction_reason.startswith("Fiscal viu") and row.recorded_by.username == "fiscal" and row.lat is None
    dimutran.post(f"/api/rank-checkins/{row.pk}/check-out/", {"at": (yesterday + timedelta(hours=3)).isoformat()}, format="json")
    seen_at(permit, at_rank(rank))
    assert dimutran.post("/api/rank-checkins/", {"permit": permit.pk, "rank": rank["id"]}, format="json").status_code == 201


@pytest.mark.article("Art. 54, b", "Art. 10")
def test_a_suspension_beyond_the_regulation_maximum_is_refused(dimutran, working_cab):
    permit = working_cab()
    auto = draw_up(dimutran, permit, ["seal_removed"], MON)
    choice = {"infraction": infraction("seal_removed").pk, "kind": "suspension", "starts_on": "2026-03-20"}
    ten_years = decide(dimutran, auto["id"], "2026-03-20", [{**choice, "ends_on": "2036-03-19"}])
    assert ten_years.status_code == 400 and articles(ten_years) == {"Art. 54, b"}
    [reason] = ten_years.json()["reasons"]
    assert reason["code"] == "suspension_beyond_maximum" and "Art. 10" in reason["message"]
    ninety = decide(dimutran, auto["id"], "2026-03-20", [{**choice, "ends_on": "2026-06-17"}])
    assert ninety.status_code == 201, ninety.json()


@pytest.mark.article("Art. 35")
def test_a_vistoria_dated_in_the_future_is_refused(dimutran, working_cab, today):
    vehicle = working_cab().vehicles.get()
    body = {"vehicle": vehicle.pk, "inspected_on": "2030-01-10", "result": "passed", "seal_number": "SV-9"}
    ahead = dimutran.post("/api/inspections/", body, format="json")
    assert ahead.status_code == 400 and articles(ahead) == {"Art. 35"}
    assert dimutran.post("/api/inspections/", {**body, "inspected_on": today, **approved_vistoria()}, format="json").status_code == 201


@pytest.mark.article("Art. 60", "Art. 63", "Art. 63, §2")
def test_an_auto_or_a_decision_dated_in_the_future_is_refused(dimutran, working_cab, today):
    permit = working_cab()
    tomorrow = today + timedelta(days=1)
    ahead = dimutran.post("/api/autos/", {
        "permit": permit.pk, "person": permit.holder_id, "infractions": [infraction("attire").pk],
        "committed_on": today, "issued_on": tomorrow, "observation": "x"}, format="json")
    assert ahead.status_code == 400 and articles(ahead) == {"Art. 60"}
    auto = draw_up(dimutran, permit, ["attire"], MON)
    early = decide(dimutran, auto["id"], tomorrow, [{"infraction": infraction("attire").pk, "kind": "reprimand"}], involuntary=True)
    assert early.status_code == 400 and articles(early) == {"Art. 63"}
    decided = decide(dimutran, auto["id"], "2026-03-10", [{"infraction": infraction("attire").pk, "kind": "reprimand"}], involuntary=True)
    assert decided.status_code == 201, decided.json()
    ahead = dimutran.post(f"/api/autos/{auto['id']}/notify/", {"notified_on": tomorrow}, format="json")
    assert ahead.status_code == 400 and articles(ahead) == {"Art. 63, §2"}


@pytest.mark.article("Art. 4, §3")
def test_an_open_renewal_request_does_not_stop_the_extinction(dimutran, working_cab):
    permit = working_cab(signed_on=date(2025, 1, 10))  # the alvará expires on 10/01/2026
    docs = {"professional_license": True, "vehicle_registration_insurance": True, "issqn_paid": True, "cpf": False, "no_fine_debt": True}
    request = dimutran.post(f"/api/permits/{permit.pk}/renewals/", {"requested_on": "2026-01-05", "documents": docs}, format="json")
    assert request.status_code == 201 and request.json()["status"] == "open"
    assert permits.lapse_permits(on=date(2026, 3, 1))["extinct"] == []  # within the term
    assert permits.lapse_permits(on=date(2026, 4, 1))["extinct"] == [permit.number]
    permit.refresh_from_db()
    assert permit.status == "extinct" and permit.renewals.get().status == Renewal.Status.REFUSED


@pytest.mark.article("Art. 6", "Art. 6, II")
def test_transfers_to_third_parties_and_heirs_are_off_by_default_after_adi_5337(dimutran, working_cab, make_person, today):
    permit = working_cab(signed_on=today - timedelta(days=3 * 365))
    body = {"transferee": make_person().pk, "kind": "inter_vivos", "requested_on": today, "vehicle": vehicle_data(today.year)}
    response = dimutran.post(f"/api/permits/{permit.pk}/transfers/", body, format="json")
    assert response.status_code == 400 and "transfers_struck_down" in [r["code"] for r in response.json()["reasons"]]
    assert "ADI 5337" in response.json()["detail"] and not permit.transfers.exists()
