"""Appeals granted in part (provimento parcial) and the revocation inquiry a fallen penalty opened (Art. 63, §3-§5, Art. 10)."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model

from backend.enforcement import selectors
from backend.enforcement.models import Appeal, FinePayment, Penalty, PenaltyReduction
from backend.registry.compliance import may_work
from backend.registry.models import RevocationInquiry, Suspension
from backend.registry.services import revocation as revocation_services

from .enforcement_helpers import appeal, articles, codes, decide, dispatch_tick, draw_up, infraction, judge  # noqa: F401

MON = date(2026, 3, 2)  # a Monday; defence term (5 days) ends Monday 09/03
DECIDED = date(2026, 3, 10)


def _decided(client, permit, penalties, committed_on=MON, decided_on=DECIDED, **extra):
    """An auto with one penalty per infraction, decided; returns the decision's JSON."""
    auto = draw_up(client, permit, [p[0] for p in penalties], committed_on)
    body = [{"infraction": infraction(code).pk, "kind": kind, **terms} for code, kind, terms in penalties]
    response = decide(client, auto["id"], decided_on, body, **extra)
    assert response.status_code == 201, response.json()
    return response.json()["decision"]


def _fine_appealed(client, permit, code="tariff_not_charged", deposit="210.00"):
    decision = _decided(client, permit, [(code, "fine", {})])
    filed = appeal(client, decision["id"], "2026-03-11", deposit_receipt="GUIA-7", deposit_amount=deposit)
    return decision, filed, decision["penalties"][0]["id"]


def _revocation(client, permit, extra=()):
    """A rank swap fined, then again within 90 days punished with revocation (Art. 26, §1): the inquiry opens."""
    _decided(client, permit, [("rank_swap", "fine", {})], committed_on=date(2026, 1, 5), decided_on=date(2026, 1, 20))
    return _decided(client, permit, [("rank_swap", "revocation", {}), *extra], committed_on=date(2026, 2, 4), decided_on=date(2026, 2, 20))


# --------------------------------------------------------- provimento parcial


@pytest.mark.article("Art. 63, §3", "Art. 63, §5", "Art. 55")
def test_partial_judgment_lowers_the_fine_and_refunds_the_difference_of_the_deposit(dimutran, working_cab, dispatch_tick):
    permit = working_cab()
    dispatch_tick.connect(permit)
    decision, filed, penalty_id = _fine_appealed(dimutran, permit)
    response = judge(
        dimutran, filed["id"], "2026-03-20", "partial",
        [{"penalty": penalty_id, "kind": "fine", "amount": "140.00", "reasoning": "Primeira infração, sem dolo."}],
        text="Mantida a infração; multa reduzida.",
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["result"] == "partial" and body["result_display"] == "provido em parte: penalidade reduzida"
    [reduction] = body["reductions"]
    assert (reduction["previous_kind"], reduction["previous_amount"], reduction["kind"], reduction["amount"]) == ("fine", "210.00", "fine", "140.00")
    assert reduction["refunded_amount"] == "70.00" and reduction["reasoning"] == "Primeira infração, sem dolo."

    penalty = Penalty.objects.get(pk=penalty_id)
    assert penalty.amount == Decimal("140.00") and penalty.annulled_on is None and penalty.decision.total_fine == Decimal("140.00")
    assert penalty.decision.status == "in_force" and penalty.decision.auto.recorded_on is not None  # the infraction stands
    # the deposit is split: R$ 140,00 stays as the deposit of the reduced fine, R$ 70,00 returns on the judgment day
    rows = sorted(FinePayment.objects.filter(penalty=penalty).values_list("amount", "refunded_on", "receipt", "kind"))
    assert rows == [(Decimal("70.00"), date(2026, 3, 20), "GUIA-7", "deposit"), (Decimal("140.00"), None, "GUIA-7", "deposit")]
    assert not selectors.unpaid_fines(permit.holder).exists() and selectors.outstanding(penalty) == Decimal("0.00")
    assert dispatch_tick.told() == []  # a fine does not touch the permit's standing

    # the appeal to the Mayor needs no new deposit: what remains covers the reduced fine (Art. 63, §5)
    notice = dimutran.post(f"/api/appeals/{filed['id']}/notify-judgment/", {"notified_on": "2026-03-20"}, format="json")
    assert notice.status_code == 200
    mayor = appeal(dimutran, decision["id"], "2026-03-25", instance="mayor")
    # and the Mayor may lower it again; each step refunds its own difference
    again = judge(dimutran, mayor["id"], "2026-04-01", "partial", [{"penalty": penalty_id, "kind": "fine", "amount": "70.00"}])
    assert again.status_code == 200, again.json()
    assert again.json()["reductions"][0]["previous_amount"] == "140.00" and again.json()["reductions"][0]["refunded_amount"] == "70.00"
    held = FinePayment.objects.filter(penalty=penalty, refunded_on__isnull=True).values_list("amount", flat=True)
    assert list(held) == [Decimal("70.00")]


@pytest.mark.article("Art. 63, §3", "Art. 55", "Art. 56")
def test_invalid_partial_decisions_are_400_with_field_messages(dimutran, working_cab):
    permit = working_cab()
    decision, filed, penalty_id = _fine_appealed(dimutran, permit)
    other = _decided(dimutran, working_cab(), [("attire", "fine", {})])
    cases = [
        ([{"penalty": penalty_id, "kind": "fine", "amount": "210.00"}], "reduction_not_lighter", "Art. 63, §3"),
        ([{"penalty": penalty_id, "kind": "fine", "amount": "69.99"}], "reduced_fine_out_of_range", "Art. 55"),
        ([{"penalty": penalty_id, "kind": "suspension", "starts_on": "2026-03-21", "ends_on": "2026-03-22"}], "reduction_not_lighter", "Art. 63, §3"),
        ([{"penalty": penalty_id, "kind": "reprimand"}], "reprimand_not_allowed", "Art. 56"),
        ([{"penalty": penalty_id, "kind": "fine"}], "reduced_fine_missing", "Art. 55"),
        ([{"penalty": other["penalties"][0]["id"], "kind": "reprimand", "involuntary": True}], "reduction_penalty_invalid", "Art. 63, §3"),
        ([], "partial_judgment_needs_reduction", "Art. 63, §3"),
    ]
    for reductions, code, article in cases:
        response = judge(dimutran, filed["id"], "2026-03-20", "partial", reductions)
        assert response.status_code == 400, (code, response.json())
        assert codes(response) == [code] and articles(response) == {article}
        assert response.json()["reductions"], response.json()  # the field's messages
    twice = judge(dimutran, filed["id"], "2026-03-20", "partial", [{"penalty": penalty_id, "kind": "fine", "amount": "140.00"}] * 2)
    assert twice.status_code == 400 and codes(twice) == ["reduction_penalty_invalid"]
    not_partial = judge(dimutran, filed["id"], "2026-03-20", "granted", [{"penalty": penalty_id, "kind": "fine", "amount": "140.00"}])
    assert not_partial.status_code == 400 and codes(not_partial) == ["reductions_only_when_partial"] and not_partial.json()["reductions"]
    too_many_cents = judge(dimutran, filed["id"], "2026-03-20", "partial", [{"penalty": penalty_id, "kind": "fine", "amount": "140.001"}])
    assert too_many_cents.status_code == 400 and "amount" in too_many_cents.json()["reductions"]["0"]
    no_result = dimutran.post(f"/api/appeals/{filed['id']}/judge/", {"judged_on": "2026-03-20", "judgment_text": "x"}, format="json")
    assert no_result.status_code == 400 and "result" in no_result.json()
    contradiction = judge(dimutran, filed["id"], "2026-03-20", "upheld", granted=True)
    assert contradiction.status_code == 400 and "granted" in contradiction.json()
    # nothing was written by the refusals
    assert Appeal.objects.get(pk=filed["id"]).result == "pending" and not PenaltyReduction.objects.exists()
    assert Penalty.objects.get(pk=penalty_id).amount == Decimal("210.00")
    assert not FinePayment.objects.filter(refunded_on__isnull=False).exists()
    # the reprimand is allowed once the appellate body finds the infraction involuntary (Art. 56): the whole deposit returns
    ok = judge(dimutran, filed["id"], "2026-03-20", "partial", [{"penalty": penalty_id, "kind": "reprimand", "involuntary": True}])
    assert ok.status_code == 200, ok.json()
    penalty = Penalty.objects.get(pk=penalty_id)
    assert penalty.kind == "reprimand" and penalty.amount is None and penalty.decision.total_fine == Decimal("0.00")
    assert ok.json()["reductions"][0]["refunded_amount"] == "210.00"
    assert not FinePayment.objects.filter(penalty=penalty, refunded_on__isnull=True).exists()


@pytest.mark.article("Art. 63, §3")
def test_granted_boolean_still_judges_and_a_partial_judgment_needs_reasons(dimutran, working_cab):
    decision = _decided(dimutran, working_cab(), [("attire", "reprimand", {})], involuntary=True)
    filed = appeal(dimutran, decision["id"], "2026-03-11")
    blank = judge(dimutran, filed["id"], "2026-03-20", "partial", [], text=" ")
    assert blank.status_code == 400  # DRF refuses a blank judgment text
    upheld = dimutran.post(f"/api/appeals/{filed['id']}/judge/", {"judged_on": "2026-03-20", "granted": False, "judgment_text": "Mantida."}, format="json")
    assert upheld.status_code == 200 and upheld.json()["result"] == "upheld"


@pytest.mark.article("Art. 59", "Art. 59, § único", "Art. 63, §3")
def test_recidivism_after_a_partial_judgment_doubles_the_reduced_fine(dimutran, working_cab):
    permit = working_cab()
    first = _decided(dimutran, permit, [("seal_removed", "fine", {})], committed_on=date(2026, 1, 5), decided_on=date(2026, 1, 20))
    filed = appeal(dimutran, first["id"], "2026-01-21", deposit_receipt="G-1", deposit_amount="140.00")
    reduced = judge(dimutran, filed["id"], "2026-01-30", "partial", [{"penalty": first["penalties"][0]["id"], "kind": "fine", "amount": "100.00"}])
    assert reduced.status_code == 200, reduced.json()
    # the infraction stands, so 30 days later it is recidivism; the double is of the fine as reduced
    second = _decided(dimutran, permit, [("seal_removed", "fine", {})], committed_on=date(2026, 2, 4), decided_on=date(2026, 2, 20))
    assert second["penalties"][0]["amount"] == "200.00" and second["penalties"][0]["recidivism_of"] == first["penalties"][0]["id"]
    # reduced to a reprimand, the first gives nothing to double: the group value, still recidivism
    permit2 = working_cab()
    third = _decided(dimutran, permit2, [("seal_removed", "fine", {})], committed_on=date(2026, 1, 5), decided_on=date(2026, 1, 20))
    filed = appeal(dimutran, third["id"], "2026-01-21", deposit_receipt="G-2", deposit_amount="140.00")
    to_reprimand = [{"penalty": third["penalties"][0]["id"], "kind": "reprimand", "serious_consequences": False}]
    assert judge(dimutran, filed["id"], "2026-01-30", "partial", to_reprimand).status_code == 200
    fourth = _decided(dimutran, permit2, [("seal_removed", "fine", {})], committed_on=date(2026, 2, 4), decided_on=date(2026, 2, 20))
    assert fourth["penalties"][0]["amount"] == "140.00" and fourth["penalties"][0]["recidivism_of"] == third["penalties"][0]["id"]
    assert Penalty.objects.get(pk=fourth["penalties"][0]["id"]).decision.auto.recorded_on is not None


@pytest.mark.article("Art. 54, b", "Art. 63, §3", "Art. 63, §5", "Art. 5, V")
def test_partial_judgment_shortens_or_lifts_a_suspension_in_force_and_tells_the_cab(dimutran, working_cab, today, dispatch_tick):
    from django.utils import timezone

    permit = working_cab()
    cab = dispatch_tick.connect(permit)
    auto = draw_up(dimutran, permit, ["seal_removed"], today - timedelta(days=20), delivered_on=today - timedelta(days=20))
    period = {"starts_on": today - timedelta(days=2), "ends_on": today + timedelta(days=7)}
    decided = decide(dimutran, auto["id"], today - timedelta(days=2), [{"infraction": infraction("seal_removed").pk, "kind": "suspension", **period}])
    assert decided.status_code == 201, decided.json()
    decision = decided.json()["decision"]
    penalty_id = decision["penalties"][0]["id"]
    assert dispatch_tick.told() == [permit.pk] and not may_work(permit.holder, permit)
    filed = appeal(dimutran, decision["id"], today - timedelta(days=1))

    # shortened: the same start, an earlier end; the registry's suspension follows and the cab, still connected
    # in this test, is told again: it is still suspended today
    moved = judge(dimutran, filed["id"], today, "partial", [{"penalty": penalty_id, "kind": "suspension", "starts_on": today, "ends_on": today + 1 * timedelta(days=1)}])
    assert moved.status_code == 400 and codes(moved) == ["reduced_suspension_period_invalid"]
    shorter = judge(dimutran, filed["id"], today, "partial", [{"penalty": penalty_id, "kind": "suspension", "ends_on": today + timedelta(days=1)}])
    assert shorter.status_code == 200, shorter.json()
    suspension = Suspension.objects.get(permit=permit)
    assert (suspension.starts_on, suspension.ends_on) == (today - timedelta(days=2), today + timedelta(days=1))
    assert dispatch_tick.told() == [permit.pk]
    now = timezone.now()
    assert not may_work(permit.holder, permit, now) and may_work(permit.holder, permit, now + timedelta(days=2))

    # the Mayor turns it into a fine: the suspension is lifted now; the fine is owed (Art. 5, V)
    dimutran.post(f"/api/appeals/{filed['id']}/notify-judgment/", {"notified_on": today}, format="json")
    mayor = appeal(dimutran, decision["id"], today, instance="mayor")
    to_fine = judge(dimutran, mayor["id"], today, "partial", [{"penalty": penalty_id, "kind": "fine", "amount": "141.00"}])
    assert to_fine.status_code == 400 and codes(to_fine) == ["reduced_fine_out_of_range"]  # group B: R$ 70,00 to R$ 140,00
    to_fine = judge(dimutran, mayor["id"], today, "partial", [{"penalty": penalty_id, "kind": "fine", "amount": "100.00"}])
    assert to_fine.status_code == 200, to_fine.json()
    assert not Suspension.objects.filter(permit=permit).exists() and may_work(permit.holder, permit, now)
    # allowed again: dispatch re-read the registry (the facts kept say so) and has nothing to tell
    assert dispatch_tick.told() == []
    cab.refresh_from_db()
    assert cab.compliance_facts is not None and not cab.compliance_facts.get("suspensions")
    penalty = Penalty.objects.get(pk=penalty_id)
    assert (penalty.kind, penalty.amount, penalty.base_amount, penalty.suspension) == ("fine", Decimal("100.00"), Decimal("140.00"), None)
    assert list(selectors.unpaid_fines(permit.holder)) == [penalty]


# ------------------------------------------------- the inquiry a penalty opened


@pytest.mark.article("Art. 10", "Art. 54, d", "Art. 63, §3")
def test_granted_appeal_archives_the_revocation_inquiry_with_a_reference(dimutran, working_cab, dispatch_tick):
    permit = working_cab()
    dispatch_tick.connect(permit)
    decision = _revocation(dimutran, permit)
    inquiry = RevocationInquiry.objects.get(permit=permit)
    assert inquiry.outcome == "pending"
    filed = appeal(dimutran, decision["id"], "2026-02-23")
    response = judge(dimutran, filed["id"], "2026-03-02", "granted")
    assert response.status_code == 200, response.json()
    inquiry.refresh_from_db()
    assert inquiry.outcome == "dismissed" and inquiry.decided_on == date(2026, 3, 2)
    assert f"recurso nº {filed['id']}" in inquiry.decision_text and decision["auto"] and "anulada" in inquiry.decision_text
    assert response.json()["archived_inquiries"] == [inquiry.pk] and response.json()["inquiries_to_review"] == []
    assert dispatch_tick.told() == []  # an open inquiry does not stop the cab, so archiving it changes nothing for dispatch
    # the inquiry is closed: it cannot revoke any more
    again = dimutran.post(f"/api/inquiries/{inquiry.pk}/decide/", {"revoke": True, "decided_on": "2026-03-20", "decision_text": "x"}, format="json")
    assert again.status_code == 400


@pytest.mark.article("Art. 10", "Art. 54, d", "Art. 59", "Art. 63, §3")
def test_revocation_reduced_to_a_fine_archives_the_inquiry(dimutran, working_cab):
    permit = working_cab()
    decision = _revocation(dimutran, permit)
    penalty_id = decision["penalties"][0]["id"]
    filed = appeal(dimutran, decision["id"], "2026-02-23")
    # recidivism of a R$ 140,00 fine within 90 days: up to R$ 280,00 (Art. 59)
    high = judge(dimutran, filed["id"], "2026-03-02", "partial", [{"penalty": penalty_id, "kind": "fine", "amount": "280.01"}])
    assert high.status_code == 400 and codes(high) == ["reduced_fine_out_of_range"]
    assert RevocationInquiry.objects.get(permit=permit).outcome == "pending"
    ok = judge(dimutran, filed["id"], "2026-03-02", "partial", [{"penalty": penalty_id, "kind": "fine", "amount": "280.00"}])
    assert ok.status_code == 200, ok.json()
    inquiry = RevocationInquiry.objects.get(permit=permit)
    assert inquiry.outcome == "dismissed" and "reduzida a “Multa”" in inquiry.decision_text
    penalty = Penalty.objects.get(pk=penalty_id)
    assert penalty.kind == "fine" and penalty.recidivism_of_id is not None and penalty.inquiry_id == inquiry.pk
    # the fine now imposed is owed; it was not under appeal with a deposit
    assert selectors.outstanding(penalty) == Decimal("280.00")


@pytest.mark.article("Art. 10", "Art. 54, b", "Art. 63, §3")
def test_a_connected_cab_hears_of_its_suspension_after_the_commit_and_is_let_be_once_lifted(
        dimutran, working_cab, today, monkeypatch, dispatch_tick, django_capture_on_commit_callbacks):
    """The cab hears of the change only on commit; the appeal that lifts the suspension also archives the inquiry."""
    sent = []

    class Layer:
        async def group_send(self, group, message):
            sent.append((group, message["message"]))

    monkeypatch.setattr("dispatch.events.announcements.get_channel_layer", lambda: Layer())
    permit = working_cab()
    cab = dispatch_tick.connect(permit)
    _decided(dimutran, permit, [("rank_swap", "fine", {})], committed_on=today - timedelta(days=40), decided_on=today - timedelta(days=20))
    auto = draw_up(dimutran, permit, ["rank_swap", "seal_removed"], today - timedelta(days=10))
    decided = decide(dimutran, auto["id"], today, [
        {"infraction": infraction("rank_swap").pk, "kind": "revocation"},
        {"infraction": infraction("seal_removed").pk, "kind": "suspension", "starts_on": today, "ends_on": today + timedelta(days=5)},
    ])
    assert decided.status_code == 201, decided.json()
    sent.clear()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert dispatch_tick.told() == [permit.pk]
    assert sent == []  # nothing announced inside the transaction
    for callback in callbacks:
        callback()
    assert sent == [(f"cab.{permit.pk}", {"type": "compliance_changed", "permit_id": permit.pk})]  # once

    filed = appeal(dimutran, decided.json()["decision"]["id"], today)
    response = judge(dimutran, filed["id"], today, "granted")
    assert response.status_code == 200, response.json()
    assert RevocationInquiry.objects.get(permit=permit).outcome == "dismissed" and not Suspension.objects.filter(permit=permit).exists()
    cab.refresh_from_db()
    assert cab.compliance_facts is None  # the lifting forgot the facts in its own transaction
    assert dispatch_tick.told() == [] and may_work(permit.holder, permit)


@pytest.mark.article("Art. 10", "Art. 63, §3")
def test_an_inquiry_that_already_revoked_is_not_undone_but_flagged(dimutran, working_cab):
    permit = working_cab()
    decision = _revocation(dimutran, permit)
    inquiry = RevocationInquiry.objects.get(permit=permit)
    assert inquiry.summoned_on is None  # the penalty opens the inquiry; the summons is its own act (Art. 10, §1)
    revocation_services.summon(inquiry=inquiry, summoned_on=date(2026, 2, 20))
    revocation_services.decide_inquiry(inquiry=inquiry, revoke=True, decided_on=date(2026, 3, 2), decision_text="Revogada.")
    filed = appeal(dimutran, decision["id"], "2026-02-23")
    response = judge(dimutran, filed["id"], "2026-03-10", "granted")
    assert response.status_code == 200, response.json()
    inquiry.refresh_from_db()
    assert inquiry.outcome == "revoked" and inquiry.decision_text == "Revogada."
    assert response.json()["archived_inquiries"] == [] and response.json()["inquiries_to_review"] == [inquiry.pk]


# ------------------------------------------------------------------- admin


@pytest.fixture
def admin_client(client, db):
    client.force_login(get_user_model().objects.create_superuser("chefe", "c@example.com", "x"))
    return client


def _admin_form(penalty_id, **reduction):
    row = {"penalty": penalty_id, "kind": "fine", "amount": "", "starts_on": "", "ends_on": "", "serious_consequences": "on", "reasoning": ""}
    row.update(reduction)
    data = {
        "judged_on": "2026-03-20", "result": "partial", "judgment_text": "Mantida a infração; multa reduzida.",
        "reductions-TOTAL_FORMS": "1", "reductions-INITIAL_FORMS": "0", "reductions-MIN_NUM_FORMS": "0", "reductions-MAX_NUM_FORMS": "1000",
    }
    data.update({f"reductions-0-{k}": v for k, v in row.items()})
    return data


@pytest.mark.article("Art. 63, §3", "Art. 63, §5", "Art. 55")
def test_admin_registers_a_partial_judgment_through_the_law(admin_client, dimutran, working_cab):
    permit = working_cab()
    decision, filed, penalty_id = _fine_appealed(dimutran, permit)
    url = f"/admin/enforcement/appeal/{filed['id']}/change/"
    page = admin_client.get(url)
    assert page.status_code == 200 and 'name="reductions-0-amount"' in page.content.decode()
    refused = admin_client.post(url, _admin_form(penalty_id, amount="50.00"))
    assert refused.status_code == 200 and "Art. 55" in refused.content.decode()
    assert Appeal.objects.get(pk=filed["id"]).result == "pending" and Penalty.objects.get(pk=penalty_id).amount == Decimal("210.00")
    ok = admin_client.post(url, _admin_form(penalty_id, amount="140.00", reasoning="Primeira infração."))
    assert ok.status_code == 302, ok.content.decode()[:3000]
    reduction = PenaltyReduction.objects.get()
    assert reduction.appeal.result == "partial" and reduction.refunded_amount == Decimal("70.00") and reduction.reasoning == "Primeira infração."
    assert Penalty.objects.get(pk=penalty_id).amount == Decimal("140.00")
    judged = admin_client.get(url).content.decode()
    assert 'name="result"' not in judged and 'name="reductions-0-amount"' not in judged  # read-only once judged
    assert admin_client.get("/admin/enforcement/appeal/add/").status_code == 403  # appeals are filed through the API
    assert admin_client.get(f"/admin/enforcement/penaltydecision/{decision['id']}/change/").status_code == 200
