"""Appeals against a penalty decision (Art. 63): filed, judged (annulment, reductions, refunds), notified."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from typing import Optional, Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from backend.api_errors import require
from backend.parameters.selectors import current_parameters, municipal_holidays
from backend.registry.models import RevocationInquiry, Suspension
from backend.registry.services import permits as permit_services
from taxilaw import appeal_judgment, clock, due_process
from taxilaw import penalties as law
from taxilaw.decision import Decision

from .. import selectors
from ..models import (
    Appeal,
    FinePayment,
    Penalty,
    PenaltyDecision,
    PenaltyReduction,
)


def _fines(decision: PenaltyDecision):
    return [p for p in decision.penalties.all() if p.kind == law.PenaltyKind.FINE.value and p.annulled_on is None]


@transaction.atomic
def file_appeal(
    *,
    decision: PenaltyDecision,
    instance: str,
    filed_on: date,
    grounds: str,
    deposit_receipt: str = "",
    deposit_amount: Decimal | None = None,
) -> Appeal:
    """Appeal to COMUTRAM within 10 days of the notice, then to the Mayor (Art. 63, §3); a fine's prior deposit (Art. 63, §5)
    only while the dated parameter ``appeal_deposit_required`` says so (not since STF Súmula Vinculante 21); a deposit
    given is recorded and refunded as the judgment decides."""
    decision = PenaltyDecision.objects.select_for_update().get(pk=decision.pk)
    instance = due_process.AppealInstance(instance)
    require(due_process.appeal_has_object(decision.status == PenaltyDecision.Status.IN_FORCE))
    require(due_process.instance_not_yet_appealed(decision.appeals.filter(instance=instance.value).exists()), "instance")
    if instance is due_process.AppealInstance.COMUTRAM:
        notified_on = decision.notified_on
    else:
        first = decision.appeals.filter(instance=due_process.AppealInstance.COMUTRAM.value).first()
        judged = first is not None and first.result != Appeal.Result.PENDING and first.judgment_notified_on is not None
        require(due_process.second_instance_open(judged), "instance")
        notified_on = first.judgment_notified_on
    fines = _fines(decision)
    owed = sum((p.amount for p in fines), Decimal("0"))
    already = sum(
        (f.amount for f in FinePayment.objects.filter(penalty__in=fines, refunded_on__isnull=True)), Decimal("0")
    )
    new_deposit = deposit_amount if (deposit_receipt and deposit_amount is not None) else Decimal("0")
    deposit_proved = already + new_deposit >= owed
    require(
        due_process.may_appeal(
            instance, notified_on=notified_on, filed_on=filed_on, against_fine=bool(fines),
            deposit_proved=deposit_proved, municipal_holidays=municipal_holidays(),
            deposit_required=bool(int(current_parameters().as_of("appeal_deposit_required", filed_on))),
        ),
        "deposit_receipt" if not deposit_proved else "filed_on",
    )
    if fines and new_deposit and already < owed:
        remaining = new_deposit
        for fine in fines:
            due = selectors.outstanding(fine)
            part = min(due, remaining)
            if part > 0:
                FinePayment.objects.create(penalty=fine, kind=FinePayment.Kind.DEPOSIT, paid_on=filed_on, amount=part, receipt=deposit_receipt)
                remaining -= part
    return Appeal.objects.create(
        decision=decision, instance=instance.value, filed_on=filed_on, grounds=grounds,
        deposit_receipt=deposit_receipt, deposit_amount=deposit_amount,
    )


@dataclass(frozen=True)
class ReductionChoice:
    """What an appeal granted in part sets for one penalty of the decision (provimento parcial, Art. 63, §3)."""

    penalty: Penalty
    kind: str
    amount: Optional[Decimal] = None
    starts_on: Optional[date] = None
    ends_on: Optional[date] = None
    involuntary: bool = False
    serious_consequences: bool = True
    reasoning: str = ""


@dataclass(frozen=True)
class _PlannedReduction:
    penalty: Penalty
    choice: ReductionChoice
    articles: tuple[str, ...]
    recidivism_of: Optional[int]
    base_amount: Optional[Decimal]


def _judgment_result(granted: Optional[bool], result: Optional[str]) -> str:
    if result is None:
        if granted is None:
            raise ValueError("judge_appeal needs granted or result")
        return Appeal.Result.GRANTED if granted else Appeal.Result.UPHELD
    require(appeal_judgment.judgment_result_valid(result), "result")
    return Appeal.Result(result).value


def _plan_reductions(appeal: Appeal, judged_on: date, judgment_text: str, reductions: Sequence[ReductionChoice]) -> list[_PlannedReduction]:
    """Check every reduction of a partial judgment against the law core, writing nothing (Art. 63, §3, Art. 54-59)."""
    require(appeal_judgment.may_judge_partially(judgment_text, len(reductions)), "reductions")
    decision = appeal.decision
    auto = decision.auto
    in_force = {p.pk: p for p in decision.penalties.select_related("infraction") if p.annulled_on is None}
    params = current_parameters()
    priors = selectors.prior_penalties(auto.person, auto.committed_on, exclude_auto=auto)
    seen: set[int] = set()
    verdicts, plan = [], []
    for choice in reductions:
        penalty = in_force.get(choice.penalty.pk)
        require(appeal_judgment.reduction_of_a_penalty_in_force(
            penalty is not None, penalty is not None and penalty.pk in seen, choice.penalty.pk), "reductions")
        seen.add(penalty.pk)
        spec = penalty.infraction.to_law()
        kind = law.PenaltyKind(choice.kind)
        has_fine = spec.group is not None or spec.fine_ufm is not None
        fine_range = appeal_judgment.reduced_fine_range(spec, auto.committed_on, params, priors) if kind is law.PenaltyKind.FINE and has_fine else None
        verdict = appeal_judgment.may_reduce(
            spec,
            law.PenaltyLine(spec.code, law.PenaltyKind(penalty.kind), penalty.amount, penalty.starts_on, penalty.ends_on),
            law.PenaltyLine(spec.code, kind, choice.amount, choice.starts_on, choice.ends_on),
            judged_on=judged_on, fine_range=fine_range,
            involuntary=choice.involuntary, serious_consequences=choice.serious_consequences,
        )
        verdicts.append(verdict)
        recidivism_of, base_amount = penalty.recidivism_of_id, penalty.base_amount
        if kind is law.PenaltyKind.FINE and has_fine and penalty.kind != law.PenaltyKind.FINE.value:
            previous = law.previous_offence(spec.code, auto.committed_on, priors)
            recidivism_of = previous.reference if previous else None
            base_amount = law.base_fine(spec, auto.committed_on, params)
        if kind is law.PenaltyKind.SUSPENSION and penalty.kind == law.PenaltyKind.SUSPENSION.value:
            choice = replace(choice, starts_on=penalty.starts_on)  # a shorter suspension keeps its start
        plan.append(_PlannedReduction(penalty, choice, verdict.articles, recidivism_of, base_amount))
    require(Decision.all_of(*verdicts), "reductions")
    return plan


def check_judgment(
    *, appeal: Appeal, judged_on: Optional[date], result: str, judgment_text: str, reductions: Sequence[ReductionChoice] = ()
) -> None:
    """Raise :class:`LawViolation` if this judgment could not be registered; writes nothing (for forms that check first)."""
    _validate_judgment(appeal, judged_on, _judgment_result(None, result), judgment_text, reductions)


def _validate_judgment(appeal: Appeal, judged_on: Optional[date], result: str, judgment_text: str, reductions: Sequence[ReductionChoice]):
    require(appeal_judgment.appeal_still_pending(appeal.result == Appeal.Result.PENDING))
    require(appeal_judgment.judged_after_filing(appeal.filed_on, judged_on), "judged_on")
    if result != Appeal.Result.PARTIAL:
        require(appeal_judgment.reductions_only_when_partial(False, len(reductions)), "reductions")
        return []
    return _plan_reductions(appeal, judged_on, judgment_text, reductions)


@transaction.atomic
def judge_appeal(
    *,
    appeal: Appeal,
    judged_on: date,
    judgment_text: str,
    granted: Optional[bool] = None,
    result: Optional[str] = None,
    reductions: Sequence[ReductionChoice] = (),
) -> Appeal:
    """Judge the appeal: upheld, granted, or granted in part (Art. 63, §3).

    Granted, the penalties are annulled: suspension lifted, deposit refunded.
    Granted in part (``result="partial"``), the infraction stands and each
    penalty in ``reductions`` is lightened (:func:`taxilaw.appeal_judgment.may_reduce`):
    what the deposit holds beyond the fine that remains is refunded
    (Art. 63, §5), a suspension in force is shortened or lifted. Either way a
    revocation inquiry whose trigger fell is archived with a reference to the
    appeal. A cab whose standing changed is told by dispatch (the triggers forget its kept facts).
    """
    appeal = Appeal.objects.select_for_update().select_related("decision__auto").get(pk=appeal.pk)
    require(clock.not_in_future(judged_on, timezone.localdate(), "Art. 63, §3", "julgamento"), "judged_on")
    result = _judgment_result(granted, result)
    plan = _validate_judgment(appeal, judged_on, result, judgment_text, reductions)
    decision = appeal.decision
    appeal.judged_on = judged_on
    appeal.judgment_text = judgment_text
    appeal.result = result
    appeal.save(update_fields=["judged_on", "judgment_text", "result"])
    if result == Appeal.Result.GRANTED:
        _annul(decision, judged_on)
    elif result == Appeal.Result.PARTIAL:
        _reduce(appeal, plan, judged_on)
    _archive_inquiries(appeal, judged_on)
    return appeal


def _annul(decision: PenaltyDecision, on: date) -> None:
    decision = PenaltyDecision.objects.select_for_update().get(pk=decision.pk)
    for penalty in decision.penalties.select_for_update():
        penalty.annulled_on = on
        if penalty.suspension_id:
            Suspension.objects.filter(pk=penalty.suspension_id).delete()
            penalty.suspension = None
        penalty.save(update_fields=["annulled_on", "suspension"])
        penalty.payments.filter(refunded_on__isnull=True).update(refunded_on=on)
    decision.status = PenaltyDecision.Status.ANNULLED
    decision.save(update_fields=["status"])
    auto = decision.auto
    auto.recorded_on = None  # no longer a proven infraction (Art. 62, § único)
    auto.save(update_fields=["recorded_on"])


def _refund_excess(penalty: Penalty, fine_after: Optional[Decimal], on: date) -> Decimal:
    """Refund what the deposit (or a payment) holds beyond the fine that remains (Art. 63, §5); a row is split when only part returns."""
    rows = list(penalty.payments.select_for_update().filter(refunded_on__isnull=True))
    excess = appeal_judgment.refund_on_reduction(sum((r.amount for r in rows), Decimal("0")), fine_after)
    left = excess
    # deposits first (they exist for the appeal), the latest first
    for row in sorted(rows, key=lambda r: (r.kind != FinePayment.Kind.DEPOSIT, -r.paid_on.toordinal(), -r.pk)):
        if left <= 0:
            break
        if row.amount <= left:
            row.refunded_on = on
            row.save(update_fields=["refunded_on"])
            left -= row.amount
        else:
            row.amount -= left
            row.save(update_fields=["amount"])
            FinePayment.objects.create(
                penalty=penalty, kind=row.kind, paid_on=row.paid_on, amount=left, receipt=row.receipt, refunded_on=on
            )
            left = Decimal("0")
    return excess


def _reduce(appeal: Appeal, plan: Sequence[_PlannedReduction], on: date) -> None:
    """Apply a partial judgment."""
    decision = PenaltyDecision.objects.select_for_update().get(pk=appeal.decision_id)
    auto = decision.auto
    for item in plan:
        penalty = Penalty.objects.select_for_update().select_related("infraction").get(pk=item.penalty.pk)
        choice = item.choice
        kind = law.PenaltyKind(choice.kind)
        previous = dict(
            previous_kind=penalty.kind, previous_amount=penalty.amount,
            previous_starts_on=penalty.starts_on, previous_ends_on=penalty.ends_on,
        )
        amount = law.to_cents(choice.amount) if kind is law.PenaltyKind.FINE else None
        refunded = _refund_excess(penalty, amount, on) if penalty.kind == law.PenaltyKind.FINE.value else Decimal("0.00")
        starts_on, ends_on = (choice.starts_on, choice.ends_on) if kind is law.PenaltyKind.SUSPENSION else (None, None)
        if penalty.suspension_id:
            if kind is law.PenaltyKind.SUSPENSION:
                Suspension.objects.filter(pk=penalty.suspension_id).update(ends_on=ends_on)
            else:
                Suspension.objects.filter(pk=penalty.suspension_id).delete()
                penalty.suspension = None
        elif kind is law.PenaltyKind.SUSPENSION and penalty.kind != law.PenaltyKind.SUSPENSION.value:
            penalty.suspension = permit_services.suspend(
                permit=auto.permit, starts_on=starts_on, ends_on=ends_on,
                reason=f"Auto de infração {auto.number}, recurso {appeal.pk}: {penalty.infraction.description} (Art. 54, b)"[:255],
            )
        penalty.kind = kind.value
        penalty.amount = amount
        penalty.base_amount = item.base_amount if kind is law.PenaltyKind.FINE else None
        penalty.recidivism_of_id = item.recidivism_of
        penalty.starts_on, penalty.ends_on = starts_on, ends_on
        penalty.save(update_fields=["kind", "amount", "base_amount", "recidivism_of", "starts_on", "ends_on", "suspension"])
        PenaltyReduction.objects.create(
            appeal=appeal, penalty=penalty, kind=kind.value, amount=amount, starts_on=starts_on, ends_on=ends_on,
            involuntary=choice.involuntary, serious_consequences=choice.serious_consequences, reasoning=choice.reasoning,
            refunded_amount=refunded, articles=list(item.articles), **previous,
        )
    fines = decision.penalties.filter(kind=law.PenaltyKind.FINE.value, annulled_on__isnull=True)
    decision.total_fine = law.to_cents(sum((p.amount for p in fines), Decimal("0")))
    decision.save(update_fields=["total_fine"])


def _archive_inquiries(appeal: Appeal, on: date) -> None:
    """Archive each pending inquiry whose revocation penalty was annulled or reduced (Art. 10, Art. 63, §3)."""
    decision = appeal.decision
    for penalty in decision.penalties.filter(inquiry__isnull=False):
        kind_after = None if penalty.annulled_on else penalty.kind
        if appeal_judgment.inquiry_trigger_holds(kind_after):
            continue
        inquiry = RevocationInquiry.objects.select_for_update().get(pk=penalty.inquiry_id)
        if inquiry.outcome != RevocationInquiry.Outcome.PENDING:
            continue  # already decided by the inquiry itself: see docs/readings-enforcement.md
        reason = appeal_judgment.inquiry_archive_reason(
            auto=decision.auto.number, appeal=appeal.pk, instance=appeal.instance, judged_on=on, kind_after=kind_after
        )
        inquiry.outcome = RevocationInquiry.Outcome.DISMISSED
        inquiry.decided_on = on
        inquiry.decision_text = reason.render(gettext)
        inquiry.save(update_fields=["outcome", "decided_on", "decision_text"])
        appeal.archived_inquiries.add(inquiry)


@transaction.atomic
def notify_judgment(*, appeal: Appeal, notified_on: date) -> Appeal:
    """Tell the infractor the appeal's judgment within 10 days of it (Art. 63, §4)."""
    appeal = Appeal.objects.select_for_update().get(pk=appeal.pk)
    require(due_process.judgment_to_notify(appeal.judged_on is not None))
    require(due_process.judgment_not_yet_notified(appeal.judgment_notified_on), "notified_on")
    require(clock.not_in_future(notified_on, timezone.localdate(), "Art. 63, §4", "ciência do julgamento"), "notified_on")
    require(due_process.may_notify_judgment(appeal.judged_on, notified_on, municipal_holidays()), "notified_on")
    appeal.judgment_notified_on = notified_on
    appeal.save(update_fields=["judgment_notified_on"])
    return appeal
