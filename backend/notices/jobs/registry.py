"""The registry's scheduled consequences: each deadline the law core computes, acted on once (Art. 1 §5, 3 §1,
4 §3, 11 § único I, 13 III, 34 § único, 40, 50)."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.utils import timezone

from backend.parameters.selectors import current_parameters, municipal_holidays
from backend.registry.models import Auxiliary, Inspection, Permit, RevocationInquiry, Vehicle
from backend.registry.selectors import LIVE_STATUSES
from backend.registry.services import auxiliaries, permits, revocation
from backend.registry.services.taximeters import last_aferition_on
from backend.registry.taximeter_notices import aferition_notice
from backend.scheduler.jobs import job
from backend.tariffs.selectors import law_tariffs
from taxilaw import auxiliaries as auxiliary_law
from taxilaw import inspection_items
from taxilaw import revocation as revocation_law
from taxilaw import vehicles as vehicle_law
from taxilaw.decision import Reason
from taxilaw.i18n import gettext_noop as _

from ..services import notify

_LOST = _("A permissão {number} perdeu o direito: o termo de compromisso não foi assinado em 30 dias (Art. 3, §1).")
_EXTINCT = _("A permissão {number} foi extinta e retorna ao Município: o alvará não foi renovado no prazo (Art. 4, §3).")
_INQUIRY = _("Aberto inquérito administrativo de revogação da permissão {number}: {facts} Defesa em 5 dias úteis da intimação (Art. 10, §1).")


def _today(now: datetime) -> date:
    return timezone.localdate(now)


def open_inquiry_once(permit: Permit, ground: revocation_law.RevocationGround, reason: Reason, on: date, key: str) -> RevocationInquiry | None:
    """Open the revocation inquiry a deadline calls for (Art. 10), once per fact, and tell the holder and DIMUTRAN."""
    if RevocationInquiry.objects.filter(permit=permit, ground=ground.value, outcome=RevocationInquiry.Outcome.PENDING).exists():
        return None
    facts = reason.render()
    inquiry = revocation.open_inquiry(permit=permit, ground=ground.value, facts=facts, opened_on=on)
    notify(key, Reason("Art. 10", "inquiry_opened", _INQUIRY, {"number": permit.number, "facts": facts}), on, permit=permit)
    return inquiry


@job("registry_sweep", at=timedelta(minutes=30))
def registry_sweep(now: datetime) -> str:
    """Terms not signed (Art. 3, §1), alvarás not renewed (Art. 4, §3), quarterly proofs overdue (Art. 1, §5)."""
    on = _today(now)
    lapsed = permits.lapse_permits(on=on)
    for status, template, article in (("lost", _LOST, "Art. 3, §1"), ("extinct", _EXTINCT, "Art. 4, §3")):
        for permit in Permit.objects.filter(number__in=lapsed[status]):
            notify(f"{status}:{permit.pk}", Reason(article, f"permit_{status}", template, {"number": permit.number}), on, permit=permit)
    cancelled = auxiliaries.cancel_overdue_auxiliaries(on=on)
    for aux in Auxiliary.objects.filter(pk__in=cancelled).select_related("permit", "person"):
        reason = Reason("Art. 1, §5", "auxiliary_cancelled", _("Autorização de auxiliar cancelada: {why}"), {"why": aux.cancel_reason})
        notify(f"aux_cancelled:{aux.pk}:{on}", reason, on, permit=aux.permit)
        notify(f"aux_cancelled:{aux.pk}:{on}:self", reason, on, person=aux.person)
    return f"perdidas {len(lapsed['lost'])}, extintas {len(lapsed['extinct'])}, auxiliares cancelados {len(cancelled)}"


@job("inspection_fees", at=timedelta(hours=1))
def inspection_fees(now: datetime) -> str:
    """The inspection fee unpaid past its term is required of the holder (Art. 40, § único)."""
    on, holidays, told = _today(now), municipal_holidays(), 0
    for inspection in Inspection.objects.filter(fee_paid_on__isnull=True, fee_due_on__lt=on).select_related("vehicle__permit"):
        extraordinary = inspection.kind == Inspection.Kind.EXTRAORDINARY
        decision = vehicle_law.check_inspection_fee(inspection.inspected_on, extraordinary, None, on, holidays)
        if not decision:
            permit = inspection.vehicle.permit
            notify(f"inspection_fee:{inspection.pk}", decision.reasons[0], on, permit=permit)
            told += 1
    return f"taxas cobradas {told}"


@job("vehicle_tolerance", at=timedelta(hours=1, minutes=10))
def vehicle_tolerance(now: datetime) -> str:
    """A tolerance of Art. 34, § único that ran out without a conforming taxi opens the revocation inquiry."""
    on, opened = _today(now), 0
    for permit in Permit.objects.filter(status__in=LIVE_STATUSES, vehicle_tolerance_until__lt=on):
        reason = Reason("Art. 34, § único", "replacement_tolerance_over",
                        _("A tolerância para a substituição do veículo terminou em {ends} (Art. 34, § único)."),
                        {"ends": permit.vehicle_tolerance_until})
        if open_inquiry_once(permit, revocation_law.RevocationGround.TOLERANCE_OVER, reason, on, f"tolerance:{permit.pk}:{permit.vehicle_tolerance_until}"):
            opened += 1
    return f"inquéritos abertos {opened}"


@job("judicial_loss", at=timedelta(hours=1, minutes=20))
def judicial_loss(now: datetime) -> str:
    """30 days after the judgment that took the vehicle with no substitution asked: revocation (Art. 11, § único, I)."""
    on, holidays, opened = _today(now), municipal_holidays(), 0
    for permit in Permit.objects.filter(status__in=LIVE_STATUSES, judicial_loss_final_on__isnull=False):
        deadline = revocation_law.judicial_loss_request_deadline(permit.judicial_loss_final_on, holidays)
        if on <= deadline:
            continue
        reason = Reason("Art. 11, § único, I", "judicial_loss_request_late",
                        _("A substituição do veículo perdido por decisão judicial não foi requerida até {deadline} (Art. 11, § único, I)."),
                        {"deadline": deadline})
        if open_inquiry_once(permit, revocation_law.RevocationGround.JUDICIAL_LOSS_LATE, reason, on, f"judicial_loss:{permit.pk}"):
            opened += 1
    return f"inquéritos abertos {opened}"


@job("service_start", at=timedelta(hours=1, minutes=20))
def service_start(now: datetime) -> str:
    """A permit whose holder did not start the service within the term (Art. 13, III: no approved vistoria since the
    term) breaches the term: the revocation inquiry opens (Art. 9, II; Art. 10), once."""
    on, params, holidays, opened = _today(now), current_parameters(), municipal_holidays(), 0
    for permit in Permit.objects.filter(status=Permit.Status.ACTIVE, service_started_on__isnull=True, term_signed_on__isnull=False):
        decision = inspection_items.service_start_status(permit.term_signed_on, None, on, params, holidays)
        if decision:
            continue
        if open_inquiry_once(permit, revocation_law.RevocationGround.BREACH_OF_TERM, decision.reasons[0], on, f"service_start:{permit.pk}"):
            opened += 1
    return f"inquéritos abertos {opened}"


@job("auxiliary_enrolment", at=timedelta(hours=1, minutes=30))
def auxiliary_enrolment(now: datetime) -> str:
    """An auxiliary without a matrícula (CMT) past DIMUTRAN's term: the holder's permit is revocable (Art. 50)."""
    on, params, opened = _today(now), current_parameters(), 0
    active = Auxiliary.objects.filter(status=Auxiliary.Status.ACTIVE, permit__status__in=LIVE_STATUSES).select_related("permit", "person")
    for aux in active:
        decision = auxiliary_law.check_auxiliary_enrolment(aux.authorized_on, aux.person.cmts.exists(), params, on)
        if decision:
            continue
        notify(f"aux_enrolment:{aux.pk}", decision.reasons[0], on, person=aux.person)
        if open_inquiry_once(aux.permit, revocation_law.RevocationGround.AUX_NOT_ENROLLED, decision.reasons[0], on, f"aux_enrolment:{aux.pk}:inquiry"):
            opened += 1
    return f"inquéritos abertos {opened}"


@job("taximeter_aferition", at=timedelta(hours=1, minutes=40))
def taximeter_aferition(now: datetime) -> str:
    """A tariff change makes the aferição of every taxímetro obligatory (Art. 47, §2): each holder whose cab's
    meter is not afered for the tariff in force is told by when, once per cab and tariff."""
    on, told = _today(now), 0
    tariffs = law_tariffs()
    grace = int(current_parameters().as_of("taximeter_aferition_grace_days", on))
    for vehicle in Vehicle.objects.filter(in_service=True, permit__status__in=LIVE_STATUSES).select_related("permit"):
        notice = aferition_notice(tariffs, last_aferition_on(vehicle, on), on, grace, vehicle.plate)
        if notice is not None:
            key, reason = notice
            notify(f"aferition:{vehicle.pk}:{key}", reason, on, permit=vehicle.permit)
            told += 1
    return f"aferições cobradas {told}"
