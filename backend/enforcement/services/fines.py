"""Payment of a fine."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.db import transaction

from backend.api_errors import refuse as _refuse
from taxilaw import penalties as law
from taxilaw.brazil import br_number
from taxilaw.i18n import gettext_noop

from .. import selectors
from ..models import (
    FinePayment,
    Penalty,
)


@transaction.atomic
def pay_fine(*, penalty: Penalty, paid_on: date, amount: Decimal, receipt: str) -> FinePayment:
    """Pay what is owed on a fine, to the cent (Art. 54, c; the debt of Art. 5, V)."""
    penalty = Penalty.objects.select_for_update().get(pk=penalty.pk)
    if penalty.kind != law.PenaltyKind.FINE.value or penalty.annulled_on:
        _refuse("Art. 54, c", "not_a_fine_in_force", gettext_noop("Esta penalidade não é uma multa em vigor."))
    due = selectors.outstanding(penalty)
    if due <= 0:
        _refuse("Art. 54, c", "fine_already_paid", gettext_noop("Esta multa já está paga."))
    if law.to_cents(amount) != due:
        _refuse("Art. 54, c", "wrong_amount", gettext_noop("O valor devido é R$ {due}."), "amount", due=br_number(due, 2))
    return FinePayment.objects.create(penalty=penalty, kind=FinePayment.Kind.PAYMENT, paid_on=paid_on, amount=law.to_cents(amount), receipt=receipt)
