"""Payment of a fine."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.db import transaction

from backend.api_errors import require
from taxilaw import penalties as law

from .. import selectors
from ..models import (
    FinePayment,
    Penalty,
)


@transaction.atomic
def pay_fine(*, penalty: Penalty, paid_on: date, amount: Decimal, receipt: str) -> FinePayment:
    """Pay what is owed on a fine, to the cent (Art. 54, c; the debt of Art. 5, V)."""
    penalty = Penalty.objects.select_for_update().get(pk=penalty.pk)
    in_force = penalty.kind == law.PenaltyKind.FINE.value and not penalty.annulled_on
    verdict = law.may_pay_fine(in_force, selectors.outstanding(penalty) if in_force else Decimal("0"), amount)
    require(verdict, "amount" if verdict.codes == ("wrong_amount",) else None)
    return FinePayment.objects.create(penalty=penalty, kind=FinePayment.Kind.PAYMENT, paid_on=paid_on, amount=law.to_cents(amount), receipt=receipt)
