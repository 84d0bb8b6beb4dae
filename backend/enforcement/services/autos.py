"""Autos de infração (Art. 60-62): issued, a copy delivered, the defence filed."""

from __future__ import annotations

from datetime import date
from typing import Iterable

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from backend.api_errors import require
from backend.parameters.selectors import municipal_holidays
from backend.registry.models import Auxiliary, Permit, Person
from taxilaw import clock, due_process

from ..models import (
    AutoDeInfracao,
    Complaint,
    Defence,
    InfractionType,
)

_AUTO_FIELDS = {"auto_needs_infraction": "infractions", "auto_before_infraction": "committed_on",
                "infraction_not_in_force": "infractions", "infractor_not_of_permit": "person"}


def _is_driver_of(person: Person, permit: Permit) -> bool:
    return permit.holder_id == person.pk or Auxiliary.objects.filter(permit=permit, person=person).exists()


@transaction.atomic
def issue(
    *,
    permit: Permit,
    person: Person,
    infractions: Iterable[InfractionType],
    committed_on: date,
    issued_on: date,
    observation: str,
    place: str = "",
    inspector=None,
    complaint: Complaint | None = None,
) -> AutoDeInfracao:
    """Draw up an auto de infração for a proven violation (Art. 60, Art. 61); numbered per year."""
    infractions = list(dict.fromkeys(infractions))
    require(clock.not_in_future(issued_on, timezone.localdate(), "Art. 60", "lavratura do auto"), "issued_on")
    decision = due_process.may_issue_auto(
        infraction_codes=[i.code for i in infractions], committed_on=committed_on, issued_on=issued_on,
        not_in_force=[i.code for i in infractions if not i.in_force_on(committed_on)],
        infractor_of_permit=_is_driver_of(person, permit), infractor=person.full_name, number=permit.number,
    )
    require(decision, _AUTO_FIELDS.get(next(iter(decision.codes), "")))
    year = issued_on.year
    last = AutoDeInfracao.objects.select_for_update().filter(year=year).aggregate(m=Max("sequence"))["m"] or 0
    auto = AutoDeInfracao.objects.create(
        year=year, sequence=last + 1, permit=permit, person=person, committed_on=committed_on, issued_on=issued_on,
        observation=observation, place=place, inspector=inspector, complaint=complaint,
        origin=AutoDeInfracao.Origin.COMPLAINT if complaint else AutoDeInfracao.Origin.INSPECTION,
    )
    auto.infractions.set(infractions)
    return auto


def _locked(auto: AutoDeInfracao) -> AutoDeInfracao:
    return AutoDeInfracao.objects.select_for_update().get(pk=auto.pk)


@transaction.atomic
def deliver_copy(*, auto: AutoDeInfracao, delivered_on: date) -> AutoDeInfracao:
    """The infractor receives a copy of the auto (Art. 62); the defence term runs from it (Art. 63, §1)."""
    auto = _locked(auto)
    require(clock.not_in_future(delivered_on, timezone.localdate(), "Art. 62", "entrega da cópia"), "delivered_on")
    require(due_process.may_deliver_copy(auto.issued_on, delivered_on, auto.copy_delivered_on), "delivered_on")
    auto.copy_delivered_on = delivered_on
    auto.save(update_fields=["copy_delivered_on"])
    return auto


@transaction.atomic
def file_defence(*, auto: AutoDeInfracao, text: str, filed_on: date) -> Defence:
    """The written defence, within 5 days of receiving the auto (Art. 63, §1)."""
    auto = _locked(auto)
    require(due_process.defence_open(auto.status == AutoDeInfracao.Status.OPEN, Defence.objects.filter(auto=auto).exists()))
    require(due_process.may_file_defence(auto.copy_delivered_on, filed_on, municipal_holidays()), "filed_on")
    return Defence.objects.create(auto=auto, text=text, filed_on=filed_on)
