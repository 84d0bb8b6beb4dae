"""Each rule of Art. 54-63 through the API: allowed and refused, with the article."""

from datetime import date, timedelta
from decimal import Decimal

import pytest

from backend.enforcement import selectors
from backend.enforcement.models import InfractionType, Penalty
from backend.parameters.models import DatedParameter
from backend.registry.models import Renewal, RenewalDocument, RevocationInquiry
from backend.registry.services.permits import renewal_checklist
from taxilaw.permits import RENEWAL_DOCUMENTS

from .enforcement_helpers import articles, decide, dispatch_tick, draw_up, infraction  # noqa: F401

MON = date(2026, 3, 2)  # a Monday; defence term (5 days) ends Monday 09/03


def _fine(dimutran, permit, code, committed_on):
    auto = draw_up(dimutran, permit, [code], committed_on)
    r = decide(dimutran, auto["id"], committed_on + timedelta(days=15), [{"infraction": infraction(code).pk, "kind": "fine"}])
    assert r.status_code == 201, r.json()
    return auto["id"], r.json()["decision"]


def _notified(dimutran, auto_id, on):
    r = dimutran.post(f"/api/autos/{auto_id}/notify/", {"notified_on": on}, format="json")
    assert r.status_code == 200, r.json()


@pytest.mark.article("Art. 64")
def test_art_64_catalogue_is_seeded_and_dated(dimutran, db):
    codes = set(InfractionType.objects.values_list("code", flat=True))
    assert {"tariff_not_charged", "luggage_surcharge", "return_surcharge", "seal_removed", "attire", "rank_swap", "alvara_not_renewed"} <= codes
    from backend.enforcement.apps import seed_catalogue

    seed_catalogue(sender=None)
    assert InfractionType.objects.filter(code="attire").count() == 1  # idempotent
    listing = dimutran.get("/api/infraction-types/?limit=100")
    assert listing.status_code == 200 and listing.json()["count"] == len(codes)


@pytest.mark.article("Art. 64")
def test_art_64_infraction_not_in_force_on_the_day_is_refused(dimutran, working_cab):
    permit = working_cab()
    future = InfractionType.objects.create(
        code="new_rule", description="Nova", article="Art. 13, I", group="C", default_penalty="fine",
        effective_from=MON + timedelta(days=1), source="Decreto",
    )
    r = dimutran.post(
        "/api/autos/",
        {"permit": permit.pk, "person": permit.holder_id, "infractions": [future.pk], "committed_on": MON, "issued_on": MON, "observation": "x"},
        format="json",
    )
    assert r.status_code == 400 and articles(r) == {"Art. 64"}


@pytest.mark.article("Art. 62", "Art. 63, §1")
def test_art_63_par_1_defence_deadline_edge(dimutran, working_cab):
    permit = working_cab()
    auto = draw_up(dimutran, permit, ["attire"], MON, delivered_on=False)
    early = dimutran.post(f"/api/autos/{auto['id']}/defence/", {"text": "x", "filed_on": MON}, format="json")
    assert early.status_code == 400 and articles(early) == {"Art. 62"}
    dimutran.post(f"/api/autos/{auto['id']}/deliver-copy/", {"delivered_on": MON}, format="json")
    late = dimutran.post(f"/api/autos/{auto['id']}/defence/", {"text": "x", "filed_on": "2026-03-10"}, format="json")
    assert late.status_code == 400 and articles(late) == {"Art. 63, §1"}
    assert dimutran.get(f"/api/autos/{auto['id']}/deadlines/").json()["defence_until"] == "2026-03-09"
    ok = dimutran.post(f"/api/autos/{auto['id']}/defence/", {"text": "x", "filed_on": "2026-03-09"}, format="json")
    assert ok.status_code == 201


@pytest.mark.article("Art. 63", "Art. 63, §1")
def test_art_63_decision_waits_for_the_defence_term(dimutran, working_cab):
    auto = draw_up(dimutran, working_cab(), ["attire"], MON)
    penalties = [{"infraction": infraction("attire").pk, "kind": "fine"}]
    early = decide(dimutran, auto["id"], "2026-03-09", penalties)
    assert early.status_code == 400 and articles(early) == {"Art. 63, §1"}
    assert decide(dimutran, auto["id"], "2026-03-10", penalties).status_code == 201


@pytest.mark.article("Art. 56")
def test_art_56_reprimand_only_if_involuntary_or_harmless(dimutran, working_cab):
    auto = draw_up(dimutran, working_cab(), ["attire"], MON)
    reprimand = [{"infraction": infraction("attire").pk, "kind": "reprimand"}]
    refused = decide(dimutran, auto["id"], "2026-03-10", reprimand)
    assert refused.status_code == 400 and articles(refused) == {"Art. 56"}
    ok = decide(dimutran, auto["id"], "2026-03-10", reprimand, involuntary=True)
    assert ok.status_code == 201 and ok.json()["decision"]["total_fine"] == "0.00"


@pytest.mark.article("Art. 55", "Art. 55, II", "Art. 58", "Art. 57")
def test_art_58_simultaneous_infractions_cumulate(dimutran, working_cab):
    auto = draw_up(dimutran, working_cab(), ["luggage_surcharge", "return_surcharge"], MON)
    one = decide(dimutran, auto["id"], "2026-03-10", [{"infraction": infraction("luggage_surcharge").pk, "kind": "fine"}])
    assert one.status_code == 400 and articles(one) == {"Art. 58"}
    both = decide(
        dimutran, auto["id"], "2026-03-10",
        [{"infraction": infraction("luggage_surcharge").pk, "kind": "fine"}, {"infraction": infraction("return_surcharge").pk, "kind": "fine"}],
    )
    assert both.status_code == 201
    decision = both.json()["decision"]
    assert decision["total_fine"] == "280.00" and {"Art. 57", "Art. 58"} <= set(decision["articles"])
    assert [p["amount"] for p in decision["penalties"]] == ["140.00", "140.00"]


@pytest.mark.article("Art. 59", "Art. 59, § único")
def test_art_59_recidivism_doubles_again_and_starts_over_after_91_days(dimutran, working_cab):
    permit = working_cab()
    amounts = []
    for committed in (date(2026, 1, 5), date(2026, 2, 4), date(2026, 5, 5), date(2026, 8, 4)):
        _, decision = _fine(dimutran, permit, "seal_removed", committed)
        amounts.append(decision["penalties"][0]["amount"])
    # 30 days -> double; exactly 90 days -> double again; 91 days -> the group value again
    assert amounts == ["140.00", "280.00", "560.00", "140.00"]
    second = Penalty.objects.get(amount=Decimal("280.00"))
    assert second.recidivism_of.amount == Decimal("140.00")


@pytest.mark.article("Art. 55")
def test_art_55_group_value_in_force_on_the_day_of_the_infraction(dimutran, working_cab):
    # The group values are the statute's (Lei 2.593/2002): only another law changes them (taxilaw.acts).
    DatedParameter.objects.create(name="fine_group_c_brl", effective_from=date(2026, 3, 1), value=Decimal("90"), source="Lei 9.999/2026 (teste)")
    permit = working_cab()
    _, before = _fine(dimutran, permit, "attire", date(2026, 2, 1))
    _, after = _fine(dimutran, working_cab(), "attire", date(2026, 3, 1))
    assert before["penalties"][0]["amount"] == "70.00" and after["penalties"][0]["amount"] == "90.00"


@pytest.mark.article("Art. 26, §1", "Art. 54, d")
def test_art_26_par_1_rank_swap_revocation_only_when_recidivist(dimutran, working_cab, dispatch_tick):
    permit = working_cab()
    dispatch_tick.connect(permit)
    _fine(dimutran, permit, "rank_swap", date(2026, 1, 5))
    first_try = draw_up(dimutran, permit, ["rank_swap"], date(2026, 6, 1))  # 147 days later: not recidivism
    refused = decide(dimutran, first_try["id"], "2026-06-20", [{"infraction": infraction("rank_swap").pk, "kind": "revocation"}])
    assert refused.status_code == 400 and articles(refused) == {"Art. 26, §1"}
    decide(dimutran, first_try["id"], "2026-06-20", [{"infraction": infraction("rank_swap").pk, "kind": "fine"}])
    again = draw_up(dimutran, permit, ["rank_swap"], date(2026, 7, 1))
    revoked = decide(dimutran, again["id"], "2026-07-20", [{"infraction": infraction("rank_swap").pk, "kind": "revocation"}])
    assert revoked.status_code == 201, revoked.json()
    inquiry = RevocationInquiry.objects.get(permit=permit)
    assert inquiry.ground == "breach_of_term" and inquiry.outcome == "pending"
    # Opening the inquiry does not stop the cab yet: the revocation it decides does (Art. 10).
    assert revoked.json()["decision"]["penalties"][0]["inquiry"] == inquiry.pk and dispatch_tick.told() == []


@pytest.mark.article("Art. 54, b")
def test_art_54_b_suspension_needs_a_period(dimutran, working_cab):
    auto = draw_up(dimutran, working_cab(), ["seal_removed"], MON)
    r = decide(dimutran, auto["id"], "2026-03-10", [{"infraction": infraction("seal_removed").pk, "kind": "suspension", "starts_on": "2026-03-09", "ends_on": "2026-03-12"}])
    assert r.status_code == 400 and articles(r) == {"Art. 54, b"}


@pytest.mark.article("Art. 63, §3")
def test_art_63_par_3_appeal_after_its_deadline_is_refused(dimutran, working_cab):
    auto = draw_up(dimutran, working_cab(), ["attire"], MON)
    decision = decide(dimutran, auto["id"], "2026-03-10", [{"infraction": infraction("attire").pk, "kind": "reprimand"}], involuntary=True).json()["decision"]
    _notified(dimutran, auto["id"], "2026-03-10")
    body = {"decision": decision["id"], "instance": "comutram", "grounds": "x"}
    late = dimutran.post("/api/appeals/", {**body, "filed_on": "2026-03-21"}, format="json")
    assert late.status_code == 400 and articles(late) == {"Art. 63, §3"}
    assert late.json()["reasons"][0]["code"] == "appeal_late"
    mayor_first = dimutran.post("/api/appeals/", {**body, "instance": "mayor", "filed_on": "2026-03-12"}, format="json")
    assert mayor_first.status_code == 400 and articles(mayor_first) == {"Art. 63, §3"}
    ok = dimutran.post("/api/appeals/", {**body, "filed_on": "2026-03-20"}, format="json")
    assert ok.status_code == 201
    assert dimutran.get(f"/api/autos/{auto['id']}/deadlines/").json()["appeal_comutram_until"] == "2026-03-20"

    # the Mayor: 10 days from the notice of COMUTRAM's judgment
    appeal = ok.json()["id"]
    assert dimutran.post(f"/api/appeals/{appeal}/judge/", {"judged_on": "2026-03-23", "granted": False, "judgment_text": "Mantida."}, format="json").status_code == 200
    assert dimutran.post(f"/api/appeals/{appeal}/notify-judgment/", {"notified_on": "2026-03-23"}, format="json").status_code == 200
    assert dimutran.get(f"/api/autos/{auto['id']}/deadlines/").json()["appeal_mayor_until"] == "2026-04-02"
    late_mayor = dimutran.post("/api/appeals/", {**body, "instance": "mayor", "filed_on": "2026-04-06"}, format="json")
    assert late_mayor.status_code == 400 and articles(late_mayor) == {"Art. 63, §3"}
    mayor = dimutran.post("/api/appeals/", {**body, "instance": "mayor", "filed_on": "2026-04-02"}, format="json")
    assert mayor.status_code == 201, mayor.json()


@pytest.mark.article("Art. 63, §4")
def test_art_63_par_4_judgment_notice_within_10_days(dimutran, working_cab):
    auto = draw_up(dimutran, working_cab(), ["attire"], MON)
    decision = decide(dimutran, auto["id"], "2026-03-10", [{"infraction": infraction("attire").pk, "kind": "reprimand"}], involuntary=True).json()["decision"]
    appeal = dimutran.post("/api/appeals/", {"decision": decision["id"], "instance": "comutram", "grounds": "x", "filed_on": "2026-03-11"}, format="json").json()
    not_yet = dimutran.post(f"/api/appeals/{appeal['id']}/notify-judgment/", {"notified_on": "2026-03-12"}, format="json")
    assert not_yet.status_code == 400 and articles(not_yet) == {"Art. 63, §4"}
    dimutran.post(f"/api/appeals/{appeal['id']}/judge/", {"judged_on": "2026-03-16", "granted": False, "judgment_text": "Mantida."}, format="json")
    before = dimutran.post(f"/api/appeals/{appeal['id']}/notify-judgment/", {"notified_on": "2026-03-15"}, format="json")
    assert before.status_code == 400 and articles(before) == {"Art. 63, §4"}
    # Past the 10 days the notice is late but valid: the next appeal's term runs from it (docs/readings-enforcement.md).
    late = dimutran.post(f"/api/appeals/{appeal['id']}/notify-judgment/", {"notified_on": "2026-03-27"}, format="json")
    assert late.status_code == 200 and late.json()["judgment_notified_on"] == "2026-03-27"


@pytest.mark.article("Art. 63, §5", "Art. 5, V")
def test_art_63_par_5_fine_appeal_needs_deposit_and_unpaid_fine_blocks_renewal(dimutran, working_cab, user_for, today, monkeypatch):
    # The text of Art. 63, §5, as it stood before STF Súmula Vinculante 21: no act may bring it back
    # (test_acts.py), so the machinery is tried with a table where it is still in force.
    from backend.enforcement.services import appeals as appeal_services
    from taxilaw.parameters import DEFAULT_PARAMETERS, DatedValue, Parameters

    kept = Parameters([*DEFAULT_PARAMETERS, DatedValue("appeal_deposit_required", MON - timedelta(days=30), 1, "teste")])
    monkeypatch.setattr(appeal_services, "current_parameters", lambda: kept)
    permit = working_cab()
    auto_id, decision = _fine(dimutran, permit, "tariff_not_charged", MON)
    assert list(selectors.unpaid_fines(permit.holder).values_list("amount", flat=True)) == [Decimal("210.00")]

    renewal = Renewal.objects.create(permit=permit, requested_on=MON, timing="on_time")
    RenewalDocument.objects.bulk_create(RenewalDocument(renewal=renewal, code=d.code, presented=True) for d in RENEWAL_DOCUMENTS)
    blocked = renewal_checklist(renewal)
    assert not blocked and blocked.codes == ("missing_no_fine_debt",) and "Art. 5, V" in blocked.articles

    driver = user_for(permit.holder)
    body = {"decision": decision["id"], "instance": "comutram", "grounds": "Cobrei a tarifa."}
    no_deposit = driver.post("/api/appeals/", body, format="json")
    assert no_deposit.status_code == 400 and articles(no_deposit) == {"Art. 63, §5"}
    short = driver.post("/api/appeals/", {**body, "deposit_receipt": "GUIA-1", "deposit_amount": "100.00"}, format="json")
    assert short.status_code == 400 and articles(short) == {"Art. 63, §5"}
    ok = driver.post("/api/appeals/", {**body, "deposit_receipt": "GUIA-1", "deposit_amount": "210.00"}, format="json")
    assert ok.status_code == 201, ok.json()
    assert not selectors.unpaid_fines(permit.holder).exists() and renewal_checklist(renewal)

    # granted: the deposit is refunded and the fine annulled; nothing is owed
    assert ok.json()["filed_on"] == today.isoformat()  # the infractor files today; only DIMUTRAN back-dates a paper filing
    judged = dimutran.post(f"/api/appeals/{ok.json()['id']}/judge/", {"judged_on": today, "granted": True, "judgment_text": "Provido."}, format="json")
    assert judged.status_code == 200, judged.json()
    penalty = Penalty.objects.get(decision_id=decision["id"])
    assert penalty.annulled_on and penalty.payments.get().refunded_on == today
    assert not selectors.unpaid_fines(permit.holder).exists()


@pytest.mark.article("Art. 54, c", "Art. 5, V")
def test_fine_payment_to_the_cent_clears_the_debt(dimutran, working_cab, user_for):
    permit = working_cab()
    _, decision = _fine(dimutran, permit, "attire", MON)
    penalty_id = decision["penalties"][0]["id"]
    wrong = dimutran.post(f"/api/penalties/{penalty_id}/pay/", {"amount": "69.99", "receipt": "DAM-1", "paid_on": "2026-03-20"}, format="json")
    assert wrong.status_code == 400 and articles(wrong) == {"Art. 54, c"}
    assert user_for(permit.holder).post(f"/api/penalties/{penalty_id}/pay/", {"amount": "70.00", "receipt": "x"}, format="json").status_code == 403
    paid = dimutran.post(f"/api/penalties/{penalty_id}/pay/", {"amount": "70.00", "receipt": "DAM-1", "paid_on": "2026-03-20"}, format="json")
    assert paid.status_code == 201 and paid.json()["outstanding"] == "0.00"
    assert not selectors.unpaid_fines(permit.holder).exists()
    again = dimutran.post(f"/api/penalties/{penalty_id}/pay/", {"amount": "70.00", "receipt": "DAM-2"}, format="json")
    assert again.status_code == 400


@pytest.mark.article("Art. 62, § único")
def test_art_62_unico_record_and_roles(dimutran, working_cab, user_for, make_person):
    permit = working_cab()
    auto_id, _ = _fine(dimutran, permit, "attire", MON)
    driver = user_for(permit.holder)
    record = driver.get(f"/api/infractor-records/{permit.holder_id}/")
    assert record.status_code == 200 and record.json()["unpaid_total"] == "70.00"
    assert [a["id"] for a in record.json()["infractions"]] == [auto_id]
    other = user_for(make_person())
    assert other.get(f"/api/autos/{auto_id}/").status_code == 404
    assert other.get(f"/api/infractor-records/{permit.holder_id}/").status_code == 403
    assert other.post(f"/api/autos/{auto_id}/defence/", {"text": "x"}, format="json").status_code == 404
    assert driver.post("/api/autos/", {}, format="json").status_code == 403


@pytest.mark.article("Art. 63, §5", "Art. 5, V")
def test_sumula_vinculante_21_no_deposit_to_appeal_and_a_fine_under_appeal_is_no_debt(dimutran, working_cab, user_for, today):
    permit = working_cab()
    _auto_id, decision = _fine(dimutran, permit, "tariff_not_charged", MON)
    renewal = Renewal.objects.create(permit=permit, requested_on=MON, timing="on_time")
    RenewalDocument.objects.bulk_create(RenewalDocument(renewal=renewal, code=d.code, presented=True) for d in RENEWAL_DOCUMENTS)
    assert not renewal_checklist(renewal)  # the fine, not appealed, is a debt (Art. 5, V)
    driver = user_for(permit.holder)
    filed = driver.post("/api/appeals/", {"decision": decision["id"], "instance": "comutram", "grounds": "Cobrei a tarifa."}, format="json")
    assert filed.status_code == 201, filed.json()  # no deposit asked (STF Súmula Vinculante 21)
    assert renewal_checklist(renewal) and not selectors.unpaid_fines(permit.holder).exists()  # under appeal: not yet owed
    denied = dimutran.post(f"/api/appeals/{filed.json()['id']}/judge/", {"judged_on": today, "granted": False, "judgment_text": "Negado."}, format="json")
    assert denied.status_code == 200, denied.json()
    assert [p.amount for p in selectors.unpaid_fines(permit.holder)] == [Decimal("210.00")]
