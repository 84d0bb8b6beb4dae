"""The fleet today: permits by status, the cabs legal to work and why the others are blocked, and the documents
that expire soon (Art. 4, 35-37, 51). The law core decides who may work (backend.registry.compliance)."""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime, timedelta

from django.db.models import Count, Max, Q

from backend.registry.compliance import may_work
from backend.registry.models import Alvara, Auxiliary, Cmt, Inspection, Permit, Person
from backend.registry.selectors import LIVE_STATUSES

from .labels import BLOCK_REASONS

EXPIRING_DAYS = 30  # "documents expiring within 30 days" (issue 32): the window DIMUTRAN reads ahead


def permits_by_status() -> dict[str, int]:
    counts = dict(Permit.objects.order_by().values_list("status").annotate(n=Count("pk")).values_list("status", "n"))
    return {status.value: counts.get(status.value, 0) for status in Permit.Status}


def fleet(now: datetime) -> dict:
    """Each active permit's holder asked the law core ``may_work`` now: working, or blocked with its reasons.

    One decision per active permit (tens of them in Muriaé): a law-core question, not a count the database can do."""
    working, blocked, reasons = 0, [], Counter()
    for permit in Permit.objects.filter(status=Permit.Status.ACTIVE, holder__isnull=False).select_related("holder").order_by("number"):
        decision = may_work(permit.holder, permit, now)
        if decision:
            working += 1
            continue
        blocked.append({"permit": permit.number, "holder": permit.holder.full_name,
                        "reasons": [r.as_dict() for r in decision.reasons]})
        reasons.update((r.code, r.article) for r in decision.reasons)
    return {
        "by_status": permits_by_status(), "working": working, "blocked": len(blocked),
        "blocked_by_reason": [{"code": code, "label": BLOCK_REASONS.get(code, code), "article": article, "permits": n}
                              for (code, article), n in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))],
        "blocked_permits": blocked,
    }


def expiring_documents(today: date, days: int = EXPIRING_DAYS) -> list[dict]:
    """The last alvará of each live permit, the last vistoria seal of each cab in service, the last CMT and the CNH
    of each live permit's holder and active auxiliary, that expire in [today, today + days], soonest first."""
    until = today + timedelta(days=days)
    live = Permit.objects.filter(status__in=LIVE_STATUSES)
    people = Person.objects.filter(Q(permits__in=live) | Q(auxiliary_roles__status=Auxiliary.Status.ACTIVE,
                                                           auxiliary_roles__permit__in=live))
    out = []
    for row in (Alvara.objects.filter(permit__in=live).order_by().values("permit__number")
                .annotate(last=Max("expires_on")).filter(last__range=(today, until))):
        out.append({"document": "alvara", "label": "Alvará", "permit": row["permit__number"], "person": "", "expires_on": row["last"]})
    for row in (Inspection.objects.filter(vehicle__in_service=True, vehicle__permit__in=live, result=Inspection.Result.PASSED)
                .order_by().values("vehicle__permit__number", "vehicle__plate")
                .annotate(last=Max("valid_until")).filter(last__range=(today, until))):
        out.append({"document": "vistoria", "label": f"Selo de vistoria ({row['vehicle__plate']})",
                    "permit": row["vehicle__permit__number"], "person": "", "expires_on": row["last"]})
    for row in (Cmt.objects.filter(person__in=people.values("pk")).order_by().values("person__full_name")
                .annotate(last=Max("expires_on")).filter(last__range=(today, until))):
        out.append({"document": "cmt", "label": "CMT", "permit": "", "person": row["person__full_name"], "expires_on": row["last"]})
    for name, expires in (Person.objects.filter(pk__in=people.values("pk"), cnh_expires_on__range=(today, until))
                          .values_list("full_name", "cnh_expires_on")):
        out.append({"document": "cnh", "label": "CNH", "permit": "", "person": name, "expires_on": expires})
    return sorted(out, key=lambda r: (r["expires_on"], r["document"], r["permit"], r["person"]))
