"""The administrative inquiry and the revocation of a permit (Art. 9-11)."""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.utils import timezone

from backend.api_errors import require
from backend.parameters.selectors import municipal_holidays
from taxilaw import clock
from taxilaw import revocation as law

from ..models import Permit, RevocationInquiry
from ..selectors import LIVE_STATUSES
from . import vehicles as vehicle_services
from .permits import end_permit


@transaction.atomic
def open_inquiry(*, permit: Permit, ground: str, facts: str, opened_on: date) -> RevocationInquiry:
    """Open the inquiry that must precede a revocation, on a ground of Art. 9, I-IX (Art. 10).

    The holder is not summoned by the opening: the summons is its own act (:func:`summon`)."""
    require(law.may_open_inquiry(permit.status in LIVE_STATUSES))
    return RevocationInquiry.objects.create(
        permit=permit, ground=law.RevocationGround(ground).value, facts=facts, opened_on=opened_on
    )


@transaction.atomic
def summon(*, inquiry: RevocationInquiry, summoned_on: date, record: str = "") -> RevocationInquiry:
    """Record the day the holder was summoned; the 5 working days of defence run from it (Art. 10, §1)."""
    inquiry = RevocationInquiry.objects.select_for_update().get(pk=inquiry.pk)
    require(law.inquiry_pending(inquiry.outcome == RevocationInquiry.Outcome.PENDING))
    require(law.may_summon(inquiry.opened_on, summoned_on, inquiry.summoned_on, timezone.localdate()), "summoned_on")
    inquiry.summoned_on = summoned_on
    inquiry.summons_record = record
    inquiry.save(update_fields=["summoned_on", "summons_record"])
    return inquiry


def defence_deadline(inquiry: RevocationInquiry) -> date | None:
    """The defence's last day, or None while the holder is not summoned (Art. 10, §1)."""
    if inquiry.summoned_on is None:
        return None
    return law.defence_deadline(inquiry.summoned_on, municipal_holidays())


@transaction.atomic
def file_defence(*, inquiry: RevocationInquiry, defence: str, filed_on: date) -> RevocationInquiry:
    """The holder's written defence, within 5 working days of the summons (Art. 10, §1)."""
    inquiry = RevocationInquiry.objects.select_for_update().get(pk=inquiry.pk)
    if inquiry.summoned_on is None and inquiry.outcome == RevocationInquiry.Outcome.PENDING:
        # a holder who answers before the summons is served appears of his own accord: the appearance
        # supplies the summons (CPC art. 239, §1, applied by CPC art. 15; docs/readings-registry.md)
        require(law.may_summon(inquiry.opened_on, filed_on, None, timezone.localdate()), "filed_on")
        inquiry.summoned_on = filed_on
        inquiry.summons_record = "comparecimento espontâneo com a defesa"
    deadline = defence_deadline(inquiry)
    pending = inquiry.outcome == RevocationInquiry.Outcome.PENDING
    require(law.defence_in_term(pending, inquiry.summoned_on, deadline, filed_on), "filed_on")
    inquiry.defence = defence
    inquiry.defence_filed_on = filed_on
    inquiry.save(update_fields=["defence", "defence_filed_on", "summoned_on", "summons_record"])
    return inquiry


@transaction.atomic
def decide_inquiry(*, inquiry: RevocationInquiry, revoke: bool, decided_on: date, decision_text: str) -> RevocationInquiry:
    """Decide after the defence term; a revocation returns the permit, with no indemnity (Art. 10, §2, Art. 11)."""
    inquiry = RevocationInquiry.objects.select_for_update().get(pk=inquiry.pk)
    require(law.inquiry_pending(inquiry.outcome == RevocationInquiry.Outcome.PENDING))
    require(
        law.may_decide_revocation(inquiry.summoned_on, inquiry.defence_filed_on, decided_on, municipal_holidays()),
        "decided_on",
    )
    inquiry.decided_on = decided_on
    inquiry.decision_text = decision_text
    inquiry.outcome = RevocationInquiry.Outcome.REVOKED if revoke else RevocationInquiry.Outcome.DISMISSED
    inquiry.save(update_fields=["decided_on", "decision_text", "outcome"])
    if revoke:
        permit = Permit.objects.select_for_update().get(pk=inquiry.permit_id)
        outcome = law.revoke_permit(law.RevocationGround(inquiry.ground), decided_on)
        end_permit(permit, outcome.status.value, decided_on)
    return inquiry


@transaction.atomic
def substitute_after_judicial_loss(
    *, permit: Permit, judgment_final_on: date, requested_on: date, proof_presented: bool, vehicle: dict
):
    """Replace a vehicle lost by court order within 30 days of the final judgment, with proof (Art. 11, § único)."""
    require(
        law.may_substitute_after_judicial_loss(judgment_final_on, requested_on, proof_presented, municipal_holidays()),
        "requested_on",
    )
    vehicle = vehicle_services.replace_vehicle(permit=permit, on=requested_on, justified=True, **vehicle)
    Permit.objects.filter(pk=permit.pk).update(judicial_loss_final_on=None)
    return vehicle


@transaction.atomic
def record_judicial_loss(*, permit: Permit, judgment_final_on: date) -> Permit:
    """Record the final judgment that took the vehicle (Art. 11, § único); the scheduler revokes the permit if
    no substitution is requested within 30 days (Art. 11, § único, I). The judgment is a fact already final:
    never dated ahead of today (a future date would push the 30 days, and the revocation, ahead)."""
    today = timezone.localdate()
    require(clock.not_in_future(judgment_final_on, today, "Art. 11, § único", "trânsito em julgado"), "judgment_final_on")
    permit = Permit.objects.select_for_update().get(pk=permit.pk)
    permit.judicial_loss_final_on = judgment_final_on
    permit.save(update_fields=["judicial_loss_final_on"])
    return permit
