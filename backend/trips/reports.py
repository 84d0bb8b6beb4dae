"""DIMUTRAN's report of drivers who cancel accepted rides (Art. 1, X; Art. 9, VII): facts to judge, no penalty."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Count, Q

from backend.registry.models import Person

from .models import DriverCancellation, Ride


def driver_cancellations(since: datetime, until: datetime, min_count: int = 1, limit: int = 200) -> list[dict]:
    """Drivers with at least ``min_count`` cancellations in [since, until), most first, with the rides they accepted."""
    window = Q(driver_cancellations__at__gte=since, driver_cancellations__at__lt=until)
    people = (
        Person.objects.annotate(cancelled=Count("driver_cancellations", filter=window))
        .filter(cancelled__gte=max(1, min_count))
        .order_by("-cancelled", "full_name")[:limit]
    )
    rows = []
    for person in people:
        cancels = DriverCancellation.objects.filter(driver=person, at__gte=since, at__lt=until)
        by_reason = dict(cancels.values_list("reason").annotate(n=Count("id")).values_list("reason", "n"))
        kept = Ride.objects.filter(driver=person, accepted_at__gte=since, accepted_at__lt=until).count()
        accepted = kept + cancels.filter(reoffered=True).count()  # a re-offered ride no longer names this driver
        rows.append({
            "driver_id": person.pk,
            "name": person.full_name,
            "permits": sorted(set(cancels.values_list("permit__number", flat=True))),
            "cancelled": person.cancelled,
            "accepted": accepted,
            "by_reason": {reason.value: by_reason.get(reason.value, 0) for reason in DriverCancellation.Reason},
        })
    return rows
