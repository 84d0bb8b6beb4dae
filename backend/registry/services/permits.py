"""The life of a permit: grant, term, alvará, renewal, withdrawal, lapse (Art. 2-5, 8)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.db import transaction

from backend.api_errors import require
from backend.parameters.selectors import current_parameters, municipal_holidays
from taxilaw import permits as law
from taxilaw import renewal_acts
from taxilaw.decision import Decision

from .. import fine_debts
from ..models import Alvara, Auxiliary, Permit, Person, Renewal, RenewalDocument, Suspension
from ..selectors import LIVE_STATUSES, candidate_facts, current_alvara


@transaction.atomic
def grant_permit(
    *,
    person: Person,
    number: str,
    result_published_on: date,
    on: date,
    contest_model_year: int | None = None,
    origin: str = Permit.Origin.CONTEST,
) -> Permit:
    """Grant a permit won in a contest, pending the term (Art. 2, Art. 2, § único, Art. 3, Art. 7)."""
    Person.objects.select_for_update().get(pk=person.pk)  # serialize grants to the same person
    require(law.may_grant_permit(candidate_facts(person), on), "holder")
    return Permit.objects.create(
        number=number,
        holder=person,
        origin=origin,
        status=Permit.Status.AWAITING_TERM,
        result_published_on=result_published_on,
        contest_model_year=contest_model_year,
    )


@transaction.atomic
def sign_term(*, permit: Permit, signed_on: date) -> Alvara:
    """Sign the term of commitment within 30 days; the alvará is issued at once (Art. 3, §1, Art. 3, §2)."""
    permit = Permit.objects.select_for_update().get(pk=permit.pk)
    if permit.status != Permit.Status.AWAITING_TERM:
        require(_refuse_status(permit, "Art. 3"))
    term, decision = law.issue_alvara(permit.result_published_on, signed_on, municipal_holidays())
    require(decision, "signed_on")
    permit.term_signed_on = signed_on
    permit.held_since = permit.held_since or signed_on
    permit.status = Permit.Status.ACTIVE
    permit.save(update_fields=["term_signed_on", "held_since", "status"])
    return Alvara.objects.create(permit=permit, kind=Alvara.Kind.INITIAL, issued_on=term.issued_on, expires_on=term.expires_on)


def _refuse_status(permit: Permit, article: str) -> Decision:
    return law.permit_in_status_for(article, permit.number, permit.get_status_display())


@transaction.atomic
def request_renewal(*, permit: Permit, requested_on: date, documents: dict[str, bool]) -> Renewal:
    """Request the alvará's renewal with the Art. 5 checklist (Art. 4, §1, Art. 4, §2, Art. 5).

    A late request is received with the fine of Art. 4, §2; one past the
    extinction deadline is refused (Art. 4, §3). When every document is
    presented the new alvará is issued at once.
    """
    permit = Permit.objects.select_for_update().get(pk=permit.pk)
    if permit.status != Permit.Status.ACTIVE:
        require(_refuse_status(permit, "Art. 4"))
    require(renewal_acts.no_renewal_open(permit.renewals.filter(status=Renewal.Status.OPEN).exists()))
    alvara = current_alvara(permit)
    assessment = law.assess_renewal(alvara.expires_on, requested_on, current_parameters(), municipal_holidays())
    require(assessment.decision, "requested_on")
    renewal = Renewal.objects.create(
        permit=permit, requested_on=requested_on, timing=assessment.status.value, late_fine_brl=assessment.fine_brl
    )
    RenewalDocument.objects.bulk_create(
        RenewalDocument(renewal=renewal, code=doc.code, presented=bool(documents.get(doc.code, False)))
        for doc in law.RENEWAL_DOCUMENTS
    )
    _grant_if_complete(renewal)
    return renewal


@transaction.atomic
def update_renewal_documents(*, renewal: Renewal, documents: dict[str, bool], late_fine_paid: bool = False) -> Renewal:
    """Record documents presented later; issue the alvará once the checklist is complete (Art. 5)."""
    renewal = Renewal.objects.select_for_update().get(pk=renewal.pk)
    require(renewal_acts.renewal_still_open(renewal.status == Renewal.Status.OPEN))
    require(renewal_acts.known_documents(documents), "documents")
    for code, presented in documents.items():
        renewal.documents.filter(code=code).update(presented=bool(presented))
    if late_fine_paid:
        renewal.late_fine_paid_on = renewal.late_fine_paid_on or renewal.requested_on
        renewal.save(update_fields=["late_fine_paid_on"])
    _grant_if_complete(renewal)
    return renewal


def renewal_checklist(renewal: Renewal) -> Decision:
    """Art. 5, I-V; item I needs the CNH in force on the request; item V also needs the late-renewal fine of Art. 4, §2
    and every fine of an auto (Art. 54, c) paid."""
    states = dict(renewal.documents.values_list("code", "presented"))
    holder = renewal.permit.holder
    if holder is not None and not law.licence_valid(holder.cnh_expires_on, renewal.requested_on):
        states["professional_license"] = False  # Art. 5, I: an expired CNH proves no qualification
    if renewal.late_fine_brl > Decimal("0") and renewal.late_fine_paid_on is None:
        states["no_fine_debt"] = False
    if renewal.permit.holder_id and fine_debts.owes_fines(renewal.permit.holder):  # answered by enforcement
        states["no_fine_debt"] = False
    return law.check_renewal_documents(states)


def _grant_if_complete(renewal: Renewal) -> None:
    if not renewal_checklist(renewal):
        return
    previous = current_alvara(renewal.permit)
    renewal.alvara = Alvara.objects.create(
        permit=renewal.permit,
        kind=Alvara.Kind.RENEWAL,
        issued_on=renewal.requested_on,
        expires_on=law.alvara_expiry(previous.expires_on),
    )
    renewal.status = Renewal.Status.GRANTED
    renewal.save(update_fields=["alvara", "status"])


def end_permit(permit: Permit, status: str, on: date) -> None:
    """The permit returns to the municipality: the cab leaves service, auxiliaries lose authorization (Art. 8, Art. 11)."""
    permit.status = status
    permit.ended_on = on
    permit.save(update_fields=["status", "ended_on"])
    permit.vehicles.filter(in_service=True).update(in_service=False, removed_on=on)
    permit.auxiliaries.filter(status=Auxiliary.Status.ACTIVE).update(
        status=Auxiliary.Status.CANCELLED, cancelled_on=on, cancel_reason=f"permissão {permit.get_status_display()}"
    )


@transaction.atomic
def withdraw(*, permit: Permit, on: date) -> Permit:
    """The holder gives up: the permit returns to the municipality (Art. 8)."""
    permit = Permit.objects.select_for_update().get(pk=permit.pk)
    if permit.status not in LIVE_STATUSES:
        require(_refuse_status(permit, "Art. 8"))
    end_permit(permit, law.withdraw_permit(on).status.value, on)
    return permit


@transaction.atomic
def lapse_permits(*, on: date) -> dict[str, list[str]]:
    """Daily sweep: terms not signed in 30 days lose the right (Art. 3, §1); alvarás not renewed by the deadline extinguish the permit (Art. 4, §3)."""
    holidays = municipal_holidays()
    params = current_parameters()
    lost, extinct = [], []
    for permit in Permit.objects.select_for_update().filter(status=Permit.Status.AWAITING_TERM):
        if on > law.term_signature_deadline(permit.result_published_on, holidays):
            end_permit(permit, Permit.Status.LOST, on)
            lost.append(permit.number)
    for permit in Permit.objects.select_for_update().filter(status=Permit.Status.ACTIVE):
        alvara = current_alvara(permit)
        if alvara and law.extinct_for_want_of_renewal(alvara.expires_on, on, params, holidays):
            # An open request (documents missing) is no renewal: it is closed with the permit (Art. 4, §3).
            permit.renewals.filter(status=Renewal.Status.OPEN).update(status=Renewal.Status.REFUSED)
            end_permit(permit, law.extinguish_permit(on).status.value, on)
            extinct.append(permit.number)
    return {"lost": lost, "extinct": extinct}


@transaction.atomic
def suspend(*, permit: Permit, starts_on: date, ends_on: date, reason: str) -> Suspension:
    """Suspend the permit (Art. 54, b): while it runs the compliance answer is no and dispatch stops."""
    return Suspension.objects.create(permit=permit, starts_on=starts_on, ends_on=ends_on, reason=reason)
