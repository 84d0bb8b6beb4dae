"""Recording a new dated act (a legal amount or a parameter): the one write path of the admin and the API."""

from datetime import date
from decimal import Decimal
from typing import Optional

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from backend.api_errors import require
from taxilaw.acts import known_parameter, may_record_act
from taxilaw.decision import Decision
from taxilaw.parameters import PARAMETER_UNITS

from .models import DatedParameter


def check_act(*, name: str, effective_from: date, value: Decimal, source: str, today: Optional[date] = None):
    """The law core's answer on a new act for ``name`` (what :func:`record_act` requires), for a form to show."""
    last = DatedParameter.objects.filter(name=name).aggregate(last=Max("effective_from"))["last"]
    return Decision.all_of(
        known_parameter(name, set(PARAMETER_UNITS)),
        may_record_act(name, effective_from, Decimal(value), source, today or timezone.localdate(), last),
    )


@transaction.atomic
def record_act(*, name: str, effective_from: date, value: Decimal, source: str, today: Optional[date] = None) -> DatedParameter:
    """Record a new act for ``name``, effective from today or later, after its last act, within what the statute
    allows (Art. 4, §2; Art. 55; Art. 63, §5; Art. 67): what is pending keeps the value of its own date."""
    today = today or timezone.localdate()
    require(known_parameter(name, set(PARAMETER_UNITS)), "name")
    last = DatedParameter.objects.select_for_update().filter(name=name).aggregate(last=Max("effective_from"))["last"]
    require(may_record_act(name, effective_from, Decimal(value), source, today, last), "effective_from")
    return DatedParameter.objects.create(name=name, effective_from=effective_from, value=value, source=source.strip())
