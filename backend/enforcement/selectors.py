"""Reads of enforcement: unpaid fines (Art. 5, V), the infractor's record (Art. 62, § único), priors (Art. 59)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.db.models import DecimalField, F, OuterRef, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from backend.registry.models import Person, RevocationInquiry
from taxilaw import appeal_judgment
from taxilaw import penalties as law

from .models import Appeal, AutoDeInfracao, FinePayment, Penalty, PenaltyDecision

_ZERO = Value(Decimal("0"), output_field=DecimalField(max_digits=10, decimal_places=2))


def fines_with_paid() -> QuerySet[Penalty]:
    """Fines in force, annotated with ``paid`` (payments and unrefunded deposits)."""
    paid = (
        FinePayment.objects.filter(penalty=OuterRef("pk"), refunded_on__isnull=True)
        .values("penalty")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    return Penalty.objects.filter(kind=law.PenaltyKind.FINE.value, annulled_on__isnull=True).annotate(
        paid=Coalesce(Subquery(paid, output_field=DecimalField(max_digits=10, decimal_places=2)), _ZERO)
    )


def unpaid_fines(person: Person) -> QuerySet[Penalty]:
    """Fines imposed on ``person`` and not (fully) paid or deposited: a debt that blocks the renewal (Art. 5, V).
    A fine whose appeal is pending is not yet a debt (docs/readings-enforcement.md)."""
    return (fines_with_paid().filter(decision__auto__person=person).filter(paid__lt=F("amount"))
            .exclude(decision__in=Appeal.objects.filter(judged_on__isnull=True).values("decision")))


def outstanding(penalty: Penalty) -> Decimal:
    """What is still owed on a fine (Art. 54, c)."""
    if penalty.kind != law.PenaltyKind.FINE.value or penalty.annulled_on:
        return Decimal("0.00")
    paid = penalty.payments.filter(refunded_on__isnull=True).aggregate(total=Sum("amount"))["total"] or Decimal("0")
    return max(penalty.amount - paid, Decimal("0.00"))


def prior_penalties(person: Person, committed_on: date, exclude_auto: AutoDeInfracao | None = None) -> list[law.PriorPenalty]:
    """The penalties in force already imposed on ``person`` for infractions up to ``committed_on`` (Art. 59)."""
    rows = Penalty.objects.filter(
        decision__auto__person=person, decision__auto__committed_on__lte=committed_on, annulled_on__isnull=True
    ).select_related("infraction", "decision__auto")
    if exclude_auto is not None:
        rows = rows.exclude(decision__auto=exclude_auto)
    return [
        law.PriorPenalty(
            infraction_code=p.infraction.code,
            committed_on=p.decision.auto.committed_on,
            fine=p.amount if p.kind == law.PenaltyKind.FINE.value else None,
            reference=p.pk,
        )
        for p in rows.order_by("decision__auto__committed_on", "decision__auto__sequence", "id")
    ]


def infractor_record(person: Person) -> QuerySet[AutoDeInfracao]:
    """The infractions proven and registered on the infractor's record (Art. 62, § único)."""
    return AutoDeInfracao.objects.filter(person=person, recorded_on__isnull=False).prefetch_related("decision__penalties")


def inquiries_to_review(decision: PenaltyDecision) -> list[int]:
    """Inquiries that already revoked the permit although an appeal took away the revocation penalty that opened them.

    A pending inquiry is archived by the judgment (Art. 10, Art. 63, §3); one
    already decided is not undone here: DIMUTRAN reviews it (see
    docs/readings-enforcement.md).
    """
    rows = decision.penalties.filter(inquiry__outcome=RevocationInquiry.Outcome.REVOKED).only("kind", "annulled_on", "inquiry_id")
    return [p.inquiry_id for p in rows if not appeal_judgment.inquiry_trigger_holds(None if p.annulled_on else p.kind)]
