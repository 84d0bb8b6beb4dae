"""The compliance answer from the registry: every reason, with its article (the dispatcher asks it per offer)."""

from datetime import timedelta

import pytest

from backend.registry.compliance import may_work
from backend.registry.models import Inspection, Suspension, Vehicle
from backend.registry.services import auxiliaries, permits, vehicles
from taxilaw.inspection_items import approved_vistoria

pytestmark = pytest.mark.django_db


@pytest.mark.article("Art. 4", "Art. 35", "Art. 51")
def test_a_regular_cab_may_work(working_cab):
    permit = working_cab()
    decision = may_work(permit.holder, permit)
    assert decision.allowed and "Art. 4" in decision.articles


@pytest.mark.article("Art. 4")
def test_expired_alvara(working_cab, today):
    permit = working_cab()
    permit.alvaras.update(expires_on=today - timedelta(days=1))
    assert may_work(permit.holder, permit).codes == ("alvara_expired",)


@pytest.mark.article("Art. 38")
def test_failed_inspection_blocks_until_a_new_one_passes(working_cab, today):
    permit = working_cab()
    vehicle = permit.vehicles.get()
    vehicles.record_inspection(vehicle=vehicle, inspected_on=today, result=Inspection.Result.FAILED)
    assert may_work(permit.holder, permit).codes == ("inspection_failed",)
    vehicles.record_inspection(vehicle=vehicle, inspected_on=today, result=Inspection.Result.PASSED, seal_number="S-2", **approved_vistoria())
    assert may_work(permit.holder, permit).allowed


@pytest.mark.article("Art. 35")
def test_overdue_inspection(working_cab, today):
    permit = working_cab()
    Inspection.objects.filter(vehicle__permit=permit).update(inspected_on=today - timedelta(days=367))
    assert may_work(permit.holder, permit).codes == ("inspection_overdue",)


@pytest.mark.article("Art. 54, b")
def test_suspension_only_while_it_runs(working_cab, today):
    permit = working_cab()
    Suspension.objects.create(permit=permit, starts_on=today - timedelta(days=1), ends_on=today, reason="teste")
    assert may_work(permit.holder, permit).codes == ("permit_suspended",)
    Suspension.objects.update(ends_on=today - timedelta(days=1))
    assert may_work(permit.holder, permit).allowed


@pytest.mark.article("Art. 9", "Art. 11")
def test_revoked_permit(working_cab, today):
    permit = working_cab()
    permits.end_permit(permit, "revoked", today)
    decision = may_work(permit.holder, permit)
    assert not decision.allowed and "permit_revoked" in decision.codes and "no_vehicle" in decision.codes


@pytest.mark.article("Art. 28")
def test_vehicle_over_age(working_cab, today):
    permit = working_cab()
    Vehicle.objects.filter(permit=permit).update(model_year=today.year - 12)
    assert may_work(permit.holder, permit).codes == ("vehicle_too_old",)


@pytest.mark.article("Art. 1, §5")
def test_auxiliary_social_security_overdue(working_cab, make_person, today):
    from datetime import date

    permit = working_cab(signed_on=date(2026, 1, 5))
    person = make_person()
    aux = auxiliaries.authorize_auxiliary(permit=permit, person=person, on=date(2026, 1, 10))
    auxiliaries.issue_cmt(person=person, number="CMT-X", issued_on=date(2026, 1, 10), expires_on=date(2028, 1, 10))
    # First quarter ends 31/03; 30 days of grace (social_security_grace_days): due 30/04.
    from datetime import datetime
    from datetime import timezone as tz

    at = lambda d: datetime(d.year, d.month, d.day, 15, tzinfo=tz.utc)  # noqa: E731
    assert may_work(person, permit, at(date(2026, 4, 30))).allowed
    assert may_work(person, permit, at(date(2026, 5, 1))).codes == ("social_security_overdue",)
    auxiliaries.record_social_security_proof(auxiliary=aux, quarter_end=date(2026, 3, 31), presented_on=date(2026, 5, 2))
    assert may_work(person, permit, at(date(2026, 5, 2))).allowed
    assert auxiliaries.cancel_overdue_auxiliaries(on=date(2026, 8, 1)) == [aux.pk]  # Q2 proof due 30/07
    assert may_work(person, permit, at(date(2026, 8, 1))).codes == ("auxiliary_not_authorized",)


@pytest.mark.article("Art. 9, VI")
def test_a_stranger_may_not_drive_the_cab(working_cab, make_person):
    permit = working_cab()
    assert may_work(make_person(), permit).codes == ("not_a_driver_of_this_cab",)


@pytest.mark.article("Art. 51")
def test_expired_cmt(working_cab, today):
    permit = working_cab()
    permit.holder.cmts.update(expires_on=today - timedelta(days=1))
    assert may_work(permit.holder, permit).codes == ("cmt_expired",)


@pytest.mark.article("Art. 1, §5", "Art. 1, §6")
def test_ctps_employee_works_without_quarterly_proofs_and_is_not_cancelled(working_cab, make_person):
    """§5's proof is of a contribution "como autônomo": the CTPS employee (§6) contributes through the employer."""
    from datetime import date, datetime
    from datetime import timezone as tz

    from backend.registry.models import Auxiliary

    permit = working_cab(signed_on=date(2026, 1, 5))
    other = working_cab(signed_on=date(2026, 1, 5))
    partner, contractor, employee = make_person(), make_person(), make_person()
    on = date(2026, 1, 10)
    by_law = auxiliaries.authorize_auxiliary(permit=permit, person=partner, on=on)
    by_contract = auxiliaries.authorize_auxiliary(
        permit=other, person=contractor, on=on, split_regime="contract", contract_auxiliary_percent=30,
        contract_signed_on=on, contract_witness_1="Ana Souza", contract_witness_2="Bruno Lima",
    )
    employed = auxiliaries.authorize_auxiliary(
        permit=permit, person=employee, on=on, split_regime="ctps", ctps_number="1234567", ctps_series="0012-MG"
    )
    for n, person in enumerate((partner, contractor, employee)):
        auxiliaries.issue_cmt(person=person, number=f"CMT-R{n}", issued_on=on, expires_on=date(2028, 1, 10))
    at = lambda d: datetime(d.year, d.month, d.day, 15, tzinfo=tz.utc)  # noqa: E731
    # No proof at all: the first quarter (to 31/03) was due 30/04.
    assert may_work(partner, permit, at(date(2026, 5, 1))).codes == ("social_security_overdue",)
    assert may_work(contractor, other, at(date(2026, 5, 1))).codes == ("social_security_overdue",)
    decision = may_work(employee, permit, at(date(2026, 5, 1)))
    assert decision.allowed and "Art. 1, §6" in decision.articles
    assert sorted(auxiliaries.cancel_overdue_auxiliaries(on=date(2026, 8, 1))) == sorted([by_law.pk, by_contract.pk])
    assert Auxiliary.objects.get(pk=employed.pk).status == Auxiliary.Status.ACTIVE
    assert may_work(employee, permit, at(date(2026, 8, 1))).allowed
    assert may_work(partner, permit, at(date(2026, 8, 1))).codes == ("auxiliary_not_authorized",)
    assert auxiliaries.cancel_overdue_auxiliaries(on=date(2027, 1, 1)) == []  # a year on, still not cancelled
