"""Whether a cab's driver may work now: the registry's compliance answer, from the facts kept on the cab row."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from backend.registry import compliance
from dispatch.models import Cab
from taxilaw.compliance import ComplianceFacts, local_date


def may_work(cab: Cab, now: datetime | None = None, store: bool = True):
    """The registry's compliance answer for the cab's driver now, from the facts kept on the cab row.

    The registry is read again only when the database has forgotten them (triggers of migration 0003
    clear them on any write to a table they come from); the facts read are stored back only if no such
    write happened meanwhile (``facts_epoch`` unchanged), so a stale answer is never kept.
    """
    now = now or timezone.now()
    if cab.compliance_facts is not None:
        return compliance.decide(cab.driver, cab.permit, ComplianceFacts.from_json(cab.compliance_facts), now)
    facts = compliance.compliance_facts(cab.driver, cab.permit, local_date(now))
    if facts is not None:
        cab.compliance_facts = facts.to_json()
        if store:
            Cab.objects.filter(pk=cab.pk, facts_epoch=cab.facts_epoch).update(compliance_facts=cab.compliance_facts)
    return compliance.decide(cab.driver, cab.permit, facts, now)

