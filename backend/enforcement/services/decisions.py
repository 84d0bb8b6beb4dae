"""The penalty decision on an auto (Art. 54-59) and its notification."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Optional, Sequence

from django.db import transaction
from django.utils import timezone

from backend.api_errors import require
from backend.parameters.selectors import current_parameters, municipal_holidays
from backend.registry.services import permits as permit_services
from backend.registry.services import revocation as revocation_services
from taxilaw import clock, due_process
from taxilaw import penalties as law
from taxilaw.revocation import RevocationGround

from .. import selectors
from ..models import (
    AutoDeInfracao,
    Defence,
    InfractionType,
    Penalty,
    PenaltyDecision,
)
from .autos import _locked


@dataclass(frozen=True)
class PenaltyChoice:
    """What the authority imposes for one infraction of the auto."""

    infraction: InfractionType
    kind: str
    starts_on: Optional[date] = None
    ends_on: Optional[date] = None
    revocation_ground: str = RevocationGround.BREACH_OF_TERM.value


@transaction.atomic
def decide(
    *,
    auto: AutoDeInfracao,
    decided_on: date,
    reasoning: str,
    upheld: bool = True,
    choices: Sequence[PenaltyChoice] = (),
    involuntary: bool = False,
    serious_consequences: bool = True,
) -> PenaltyDecision:
    """Judge the auto after the defence term: every infraction gets its penalty, cumulatively (Art. 54, Art. 56-59, Art. 63).

    Fines: the group value in force on the day of the infraction, doubled on
    recidivism (Art. 55, Art. 59). A suspension becomes a registry
    ``Suspension`` (compliance refuses work); a revocation opens the inquiry
    of Art. 10. The infraction is registered on the infractor's record
    (Art. 62, § único).
    """
    auto = _locked(auto)
    require(clock.not_in_future(decided_on, timezone.localdate(), "Art. 63", "decisão"), "decided_on")
    require(due_process.auto_open_to_decide(auto.status == AutoDeInfracao.Status.OPEN))
    defence = Defence.objects.filter(auto=auto).first()
    require(due_process.may_decide(auto.copy_delivered_on, defence.filed_on if defence else None, decided_on, municipal_holidays()), "decided_on")
    if not upheld:
        auto.status = AutoDeInfracao.Status.DISMISSED
        auto.save(update_fields=["status"])
        return PenaltyDecision.objects.create(
            auto=auto, decided_on=decided_on, reasoning=reasoning, status=PenaltyDecision.Status.NO_PENALTY, articles=["Art. 63"]
        )

    infractions = {i.pk: i for i in auto.infractions.all()}
    require(due_process.one_penalty_per_infraction(list(infractions), [c.infraction.pk for c in choices]), "penalties")

    params = current_parameters()
    priors = selectors.prior_penalties(auto.person, auto.committed_on, exclude_auto=auto)
    lines, rows = [], []
    for choice in choices:
        spec = choice.infraction.to_law()
        previous = law.previous_offence(spec.code, auto.committed_on, priors)
        kind = law.PenaltyKind(choice.kind)
        require(
            law.may_impose(kind, spec, involuntary=involuntary, serious_consequences=serious_consequences, recidivist=previous is not None),
            "penalties",
        )
        row = Penalty(infraction=choice.infraction, kind=kind.value)
        if kind is law.PenaltyKind.FINE:
            assessment = law.assess_fine(spec.code, auto.committed_on, law.base_fine(spec, auto.committed_on, params), priors)
            row.base_amount, row.amount = assessment.base, assessment.amount
            row.recidivism_of_id = assessment.recidivism_of.reference if assessment.recidivism_of else None
        if kind is law.PenaltyKind.SUSPENSION:
            max_days = int(params.as_of("suspension_max_days", decided_on))
            require(law.suspension_period(choice.starts_on, choice.ends_on, decided_on, max_days), "penalties")
            row.starts_on, row.ends_on = choice.starts_on, choice.ends_on
        lines.append(law.PenaltyLine(spec.code, kind, row.amount, row.starts_on, row.ends_on))
        rows.append((row, choice))

    plan = law.cumulate(lines)
    decision = PenaltyDecision.objects.create(
        auto=auto, decided_on=decided_on, reasoning=reasoning, involuntary=involuntary, serious_consequences=serious_consequences,
        total_fine=plan.total_fine, duty_persists=plan.duty_persists, articles=list(plan.decision.articles),
    )
    for row, choice in rows:
        row.decision = decision
        if row.kind == law.PenaltyKind.SUSPENSION.value:
            row.suspension = permit_services.suspend(
                permit=auto.permit, starts_on=row.starts_on, ends_on=row.ends_on,
                reason=f"Auto de infração {auto.number}: {choice.infraction.description} (Art. 54, b)"[:255],
            )
        if row.kind == law.PenaltyKind.REVOCATION.value:
            # The revocation itself comes from the inquiry (Art. 10); the registry then tells the cab.
            row.inquiry = revocation_services.open_inquiry(
                permit=auto.permit, ground=choice.revocation_ground,
                facts=f"Auto de infração {auto.number}: {choice.infraction.description} ({choice.infraction.article}). {reasoning}",
                opened_on=decided_on,
            )
        row.save()
    auto.status = AutoDeInfracao.Status.DECIDED
    auto.recorded_on = decided_on
    auto.save(update_fields=["status", "recorded_on"])
    return decision


@transaction.atomic
def notify_decision(*, decision: PenaltyDecision, notified_on: date) -> PenaltyDecision:
    """The infractor is notified of the decision imposing a penalty; the appeal term runs from it (Art. 63, §2)."""
    decision = PenaltyDecision.objects.select_for_update().get(pk=decision.pk)
    require(due_process.decision_not_yet_notified(decision.notified_on), "notified_on")
    require(clock.not_in_future(notified_on, timezone.localdate(), "Art. 63, §2", "notificação"), "notified_on")
    require(due_process.may_notify(decision.decided_on, notified_on), "notified_on")
    decision.notified_on = notified_on
    decision.save(update_fields=["notified_on"])
    return decision
