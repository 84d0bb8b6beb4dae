"""The compliance answer (may this driver work this cab now?): Art. 1, §5, Art. 4, Art. 8, Art. 9, Art. 28, Art. 35, Art. 38, Art. 51, Art. 54, b."""

from dataclasses import replace
from datetime import date, datetime, timezone

import pytest

from taxilaw.compliance import ComplianceFacts, DriverRole, local_date, may_work
from taxilaw.permits import PermitStatus
from taxilaw.vehicles import InspectionResult

NOW = date(2026, 6, 15)

HOLDER = ComplianceFacts(
    permit_status=PermitStatus.ACTIVE,
    alvara_expires_on=date(2026, 6, 15),
    vehicle_model_year=2020,
    last_inspection_result=InspectionResult.PASSED,
    last_inspection_on=date(2025, 6, 15),
    driver_role=DriverRole.PERMISSIONARIO,
    cmt_expires_on=date(2027, 1, 1),
)

AUXILIARY = replace(
    HOLDER,
    driver_role=DriverRole.AUXILIAR,
    auxiliary_authorization_active=True,
    auxiliary_authorized_on=date(2025, 1, 10),
    social_security_last_proof_quarter_end=date(2026, 3, 31),
)


@pytest.mark.article("Art. 4", "Art. 28", "Art. 35", "Art. 51")
def test_compliant_holder_may_work():
    decision = may_work(HOLDER, NOW)
    assert decision and decision.reasons == ()


@pytest.mark.article("Art. 1, §5")
def test_art_1_par_5_compliant_auxiliary_may_work():
    decision = may_work(AUXILIARY, NOW)
    assert decision and "Art. 1, §5" in decision.articles


@pytest.mark.article("Art. 1, §5")
def test_dated_parameters_are_read_only_for_the_auxiliarys_proof():
    from taxilaw.parameters import default_parameters

    reads = []

    def parameters():
        reads.append(1)
        return default_parameters()

    assert may_work(HOLDER, NOW, parameters) and reads == []
    assert may_work(AUXILIARY, NOW, parameters) and reads == [1]
    assert may_work(AUXILIARY, NOW, default_parameters()) == may_work(AUXILIARY, NOW, parameters)


@pytest.mark.article("Art. 4")
def test_art_4_alvara_expired_day_after():
    assert may_work(HOLDER, date(2026, 6, 16)).codes[0] == "alvara_expired"
    assert may_work(replace(HOLDER, alvara_expires_on=None), NOW).codes == ("alvara_expired",)


@pytest.mark.article("Art. 4")
def test_art_4_aware_datetime_is_read_in_muriae_time():
    late_evening = datetime(2026, 6, 16, 1, 0, tzinfo=timezone.utc)  # 22:00 of 15 June in Muriaé
    assert local_date(late_evening) == date(2026, 6, 15)
    assert may_work(HOLDER, late_evening)
    assert not may_work(HOLDER, datetime(2026, 6, 16, 3, 0, tzinfo=timezone.utc))
    assert may_work(HOLDER, datetime(2026, 6, 15, 23, 59))


@pytest.mark.article("Art. 9", "Art. 4, §3", "Art. 8", "Art. 54, b")
@pytest.mark.parametrize(
    "status,code",
    [
        (PermitStatus.REVOKED, "permit_revoked"),
        (PermitStatus.EXTINCT, "permit_extinct"),
        (PermitStatus.WITHDRAWN, "permit_withdrawn"),
        (PermitStatus.SUSPENDED, "permit_suspended"),
    ],
)
def test_permit_not_active(status, code):
    assert may_work(replace(HOLDER, permit_status=status), NOW).codes == (code,)


@pytest.mark.article("Art. 54, b")
def test_art_54_b_suspension_range_inclusive():
    facts = replace(HOLDER, suspensions=((date(2026, 6, 10), date(2026, 6, 15)),))
    refused = may_work(facts, NOW)
    assert refused.codes == ("permit_suspended",) and refused.reasons[0].article == "Art. 54, b"
    assert may_work(replace(facts, alvara_expires_on=date(2026, 7, 1), last_inspection_on=date(2026, 1, 1)), date(2026, 6, 16))


@pytest.mark.article("Art. 28", "Art. 34, § único")
def test_art_28_vehicle_over_age_on_31_december():
    facts = replace(HOLDER, vehicle_model_year=2016, alvara_expires_on=date(2027, 6, 1), last_inspection_on=date(2026, 6, 1))
    assert may_work(facts, date(2026, 12, 30))
    assert may_work(facts, date(2026, 12, 31)).codes == ("vehicle_too_old",)
    tolerated = replace(facts, vehicle_tolerance_until=date(2027, 1, 31))
    assert may_work(tolerated, date(2026, 12, 31))


@pytest.mark.article("Art. 38")
def test_art_38_failed_inspection():
    facts = replace(HOLDER, last_inspection_result=InspectionResult.FAILED, last_inspection_on=date(2026, 6, 1))
    assert may_work(facts, NOW).codes == ("inspection_failed",)


@pytest.mark.article("Art. 35")
def test_art_35_inspection_overdue_or_missing():
    facts = replace(HOLDER, alvara_expires_on=date(2026, 7, 1))
    assert may_work(facts, date(2026, 6, 16)).codes == ("inspection_overdue",)
    assert may_work(replace(HOLDER, last_inspection_result=None), NOW).codes == ("inspection_missing",)


@pytest.mark.article("Art. 51")
def test_art_51_cmt_expired():
    assert may_work(replace(HOLDER, cmt_expires_on=date(2026, 6, 14)), NOW).codes == ("cmt_expired",)
    assert may_work(replace(HOLDER, cmt_expires_on=None), NOW).codes == ("cmt_missing",)


@pytest.mark.article("Art. 1, §5")
def test_art_1_par_5_auxiliary_social_security_overdue():
    # quarter to 30 June 2026 + 30 days grace = 30 July 2026
    facts = replace(AUXILIARY, alvara_expires_on=date(2027, 1, 1), last_inspection_on=date(2026, 1, 1))
    assert may_work(facts, date(2026, 7, 30))
    assert may_work(facts, date(2026, 7, 31)).codes == ("social_security_overdue",)


@pytest.mark.article("Art. 1, §5", "Art. 1, §6")
def test_art_1_par_6_ctps_employee_may_work_without_quarterly_proofs():
    # Employed under the CTPS, he contributes through the employer, not "como autônomo" (§5; readings-registry).
    never_proved = replace(AUXILIARY, social_security_last_proof_quarter_end=None, auxiliary_authorized_on=date(2024, 2, 10))
    assert may_work(never_proved, NOW).codes == ("social_security_overdue",)
    assert may_work(replace(never_proved, auxiliary_split_regime="contract"), NOW).codes == ("social_security_overdue",)
    employed = replace(never_proved, auxiliary_split_regime="ctps")
    decision = may_work(employed, NOW)
    assert decision and decision.reasons == ()
    assert {"Art. 1, §5", "Art. 1, §6"} <= set(decision.articles)
    assert may_work(employed, NOW) is decision  # still a shared answer on the allowed path
    # The exemption is from the proof only: an inactive authorization or an expired CMT still refuse.
    assert may_work(replace(employed, auxiliary_authorization_active=False), NOW).codes == ("auxiliary_not_authorized",)
    assert may_work(replace(employed, cmt_expires_on=date(2026, 6, 14)), NOW).codes == ("cmt_expired",)


@pytest.mark.article("Art. 1, IV", "Art. 49")
def test_art_1_iv_auxiliary_without_authorization():
    assert may_work(replace(AUXILIARY, auxiliary_authorization_active=False), NOW).codes == ("auxiliary_not_authorized",)


@pytest.mark.article("Art. 4", "Art. 9", "Art. 35", "Art. 51")
def test_every_reason_is_returned_with_its_article():
    facts = replace(
        AUXILIARY,
        permit_status=PermitStatus.REVOKED,
        alvara_expires_on=date(2025, 1, 1),
        vehicle_model_year=2010,
        last_inspection_on=date(2024, 1, 1),
        cmt_expires_on=date(2025, 1, 1),
        social_security_last_proof_quarter_end=date(2024, 12, 31),
    )
    decision = may_work(facts, NOW)
    assert decision.codes == (
        "permit_revoked",
        "alvara_expired",
        "vehicle_too_old",
        "inspection_overdue",
        "cmt_expired",
        "social_security_overdue",
    )
    assert [r.article for r in decision.reasons] == ["Art. 9", "Art. 4", "Art. 28", "Art. 35", "Art. 51", "Art. 1, §5"]


@pytest.mark.article("Art. 4")
def test_the_allowed_answer_is_shared_not_allocated_per_call():
    """The dispatcher asks for every candidate cab: the allowed answer is one object (its speed is measured by
    benchmarks/dispatch_bench.py's search scenario, not timed here)."""
    assert may_work(HOLDER, NOW) is may_work(HOLDER, NOW)
    assert may_work(AUXILIARY, NOW) is may_work(AUXILIARY, NOW)


@pytest.mark.article("Art. 9")
def test_plain_string_values_from_the_database_are_accepted():
    facts = replace(AUXILIARY, permit_status="revoked", last_inspection_result="passed", driver_role="auxiliar")
    assert may_work(facts, NOW).codes == ("permit_revoked",)
    assert may_work(replace(facts, permit_status="active"), NOW)


@pytest.mark.article("Art. 9, VI")
def test_art_9_vi_only_the_holder_or_an_authorized_auxiliary_drives_the_cab():
    from taxilaw.compliance import drives_this_cab

    assert drives_this_cab(True, "Ana", "007")
    refusal = drives_this_cab(False, "Ana", "007")
    assert refusal.codes == ("not_a_driver_of_this_cab",) and "permissão 007 (Art. 9, VI)" in refusal.reasons[0].message
