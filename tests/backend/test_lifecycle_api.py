"""A permit's whole life through the API, as DIMUTRAN runs it (Art. 2-11, 28, 35-40)."""

from datetime import date, timedelta
from decimal import Decimal

import pytest

from backend.api_errors import LawViolation
from backend.parameters.models import DatedParameter
from backend.registry.models import Permit
from backend.registry.services import permits
from taxilaw.inspection_items import approved_vistoria

from .conftest import vehicle_data

pytestmark = pytest.mark.django_db


def ok(response, status=200):
    assert response.status_code == status, response.content.decode()
    return response.json()


@pytest.mark.article("Art. 3, §1", "Art. 3, §2", "Art. 4", "Art. 4, §1", "Art. 5", "Art. 6, I", "Art. 6, §5", "Art. 7", "Art. 10, §1", "Art. 11", "Art. 35", "Art. 40")
def test_grant_term_alvara_inspection_renewal_transfer_revocation(dimutran, make_person, today):
    holder, buyer = make_person(), make_person()
    published = today - timedelta(days=3 * 365 + 20)

    granted = permits.grant_permit(person=holder, number="TX-500", result_published_on=published, on=published)  # a contest's result
    permit = ok(dimutran.get(f"/api/permits/{granted.pk}/"))
    assert permit["status"] == "awaiting_term"

    # Art. 3, §1-2: term within 30 days, alvará issued at once, valid 1 year (Art. 4).
    signed = published + timedelta(days=30)
    alvara = ok(dimutran.post(f"/api/permits/{permit['id']}/sign-term/", {"signed_on": signed}, format="json"), 201)
    assert alvara["issued_on"] == signed.isoformat()
    assert alvara["expires_on"] == signed.replace(year=signed.year + 1).isoformat()

    vehicle = ok(dimutran.post("/api/vehicles/", {"permit": permit["id"], "on": signed, **vehicle_data(signed.year)}, format="json"), 201)
    inspection = ok(
        dimutran.post("/api/inspections/", {"vehicle": vehicle["id"], "inspected_on": signed, "result": "passed", "seal_number": "SV-1", **approved_vistoria()}, format="json"),
        201,
    )
    assert Decimal(inspection["fee_brl"]) == Decimal("1.50")  # 0,30 UPFM x R$ 5,00 (Art. 40)

    # Art. 4, §1 and Art. 5: renewal in the expiry month with every document.
    expiry = signed.replace(year=signed.year + 1)
    documents = {"professional_license": True, "vehicle_registration_insurance": True, "issqn_paid": True, "cpf": True, "no_fine_debt": True}
    renewal = ok(dimutran.post(f"/api/permits/{permit['id']}/renewals/", {"requested_on": expiry, "documents": documents}, format="json"), 201)
    assert renewal["status"] == "granted" and renewal["timing"] == "on_time"
    assert renewal["alvara"]["expires_on"] == expiry.replace(year=expiry.year + 1).isoformat()

    # Art. 6, I: after 2 years, to a professional with a vehicle of at most 2 years; the fee first (Art. 6, §5).
    # Transfers are off since STF ADI 5337 (test_api_rules.py); a municipality's act re-opening them is modelled here.
    DatedParameter.objects.create(name="permit_transfers_allowed", effective_from=date(2021, 3, 12), value=1, source="teste")
    transfer_on = signed + timedelta(days=2 * 365 + 30)
    new_cab = vehicle_data(transfer_on.year)
    transfer = ok(
        dimutran.post(
            f"/api/permits/{permit['id']}/transfers/",
            {"transferee": buyer.pk, "kind": "inter_vivos", "requested_on": transfer_on, "vehicle": new_cab},
            format="json",
        ),
        201,
    )
    assert transfer["status"] == "awaiting_fee" and Decimal(transfer["fee_brl"]) == Decimal("50.00")  # 10 UPFM
    assert Permit.objects.get(pk=permit["id"]).holder == holder
    transfer = ok(dimutran.post(f"/api/transfers/{transfer['id']}/pay-fee/", {"paid_on": transfer_on}, format="json"))
    assert transfer["status"] == "completed"
    detail = ok(dimutran.get(f"/api/permits/{permit['id']}/"))
    assert detail["holder"] == buyer.pk and detail["vehicle"]["plate"] == new_cab["plate"]

    # Art. 7: the cedent may not ask for a new permit for 2 years.
    with pytest.raises(LawViolation) as refused:
        permits.grant_permit(person=holder, number="TX-501", result_published_on=transfer_on, on=transfer_on)
    assert "Art. 7" in refused.value.decision.articles

    # Art. 10, §1: inquiry, summons, defence within 5 working days of it, then revocation; back to the municipality (Art. 11).
    opened = transfer_on + timedelta(days=40)
    inquiry = ok(
        dimutran.post(f"/api/permits/{permit['id']}/inquiries/", {"ground": "lock_out", "facts": "Recusa coletiva.", "opened_on": opened}, format="json"),
        201,
    )
    assert inquiry["awaiting_summons"] and inquiry["summoned_on"] is None and inquiry["defence_deadline"] is None
    unsummoned = dimutran.post(f"/api/inquiries/{inquiry['id']}/decide/", {"revoke": True, "decided_on": opened + timedelta(days=30), "decision_text": "x"}, format="json")
    assert unsummoned.status_code == 400 and unsummoned.json()["reasons"][0]["code"] == "inquiry_not_summoned"
    summoned_on = opened + timedelta(days=3)
    inquiry = ok(dimutran.post(f"/api/inquiries/{inquiry['id']}/summon/", {"summoned_on": summoned_on, "record": "AR nº 123"}, format="json"))
    assert not inquiry["awaiting_summons"] and inquiry["summoned_on"] == summoned_on.isoformat()
    again = dimutran.post(f"/api/inquiries/{inquiry['id']}/summon/", {"summoned_on": summoned_on}, format="json")
    assert again.status_code == 400 and again.json()["reasons"][0]["code"] == "already_summoned"
    early = dimutran.post(f"/api/inquiries/{inquiry['id']}/decide/", {"revoke": True, "decided_on": summoned_on + timedelta(days=4), "decision_text": "x"}, format="json")
    assert early.status_code == 400 and early.json()["reasons"][0]["article"] == "Art. 10, §1"
    after_defence = date.fromisoformat(inquiry["defence_deadline"]) + timedelta(days=1)
    decided = ok(dimutran.post(f"/api/inquiries/{inquiry['id']}/decide/", {"revoke": True, "decided_on": after_defence, "decision_text": "Lock-out comprovado."}, format="json"))
    assert decided["outcome"] == "revoked"
    assert ok(dimutran.get(f"/api/permits/{permit['id']}/"))["status"] == "revoked"
    assert ok(dimutran.get(f"/api/permits/{permit['id']}/"))["vehicle"] is None
