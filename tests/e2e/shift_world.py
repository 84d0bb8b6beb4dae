"""A shift's worth of rides for the console's shift view, written straight into the database named by the environment.

Run as a script after tests/e2e/world.py with the world's JSON as the first argument. Every ride has ended (none is
open, so the live dispatch leaves them alone); ``plan(i)`` says what ride ``i`` is, and the test counts from it too.
"""

import json
import os
import sys
from datetime import timedelta
from decimal import Decimal

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")
django.setup()

from django.db import transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from backend.trips.models import Ride  # noqa: E402

RIDES = 200  # in the last 8 hours
OLD = 10  # between 10 and 20 hours ago: only the 24-hour view shows them


def plan(i: int, cabs: int) -> dict:
    """Ride ``i``: requested ``2 i + 1`` minutes ago (old ones ``10 h + i h`` ago), served or not, with which cab."""
    kind = i % 10
    served = kind <= 5 or kind == 8
    return {
        "minutes_ago": 2 * i + 1 if i < RIDES else 600 + 60 * (i - RIDES),
        "served": served,
        "escalated": kind in (8, 9),
        "cancelled_by": {6: "passenger", 7: "operator", 9: "no_cab"}.get(kind, ""),
        "wait_s": (3 + i % 5) * 60 if served else None,
        "cab": i % cabs if served else None,
        "phone": f"(32) 98800-{i:04d}",
        "name": f"Cliente {i:03d}",
    }


def main():
    world = json.loads(sys.argv[1])
    cabs, now = world["cabs"], timezone.now()
    with transaction.atomic():
        for i in range(RIDES + OLD):
            p = plan(i, len(cabs))
            at = now - timedelta(minutes=p["minutes_ago"])
            ride = Ride.objects.create(caller_name=p["name"], caller_phone=p["phone"], created_by="operator",
                                       pickup_lat=-21.1311, pickup_lon=-42.3676, pickup_address=f"Rua Teste, {i}")
            fields = {"requested_at": at, "escalated": p["escalated"], "version": 5}
            if p["served"]:
                cab = cabs[p["cab"]]
                arrived = at + timedelta(seconds=p["wait_s"])
                fields.update(status="completed", permit_id=cab["permit_id"], driver_id=cab["person_id"], arriving_at=arrived,
                              on_board_at=arrived + timedelta(minutes=1), completed_at=arrived + timedelta(minutes=11),
                              fare=Decimal("18.40"))
            else:
                fields.update(status="cancelled", cancelled_at=at + timedelta(minutes=4), cancelled_by=p["cancelled_by"])
            Ride.objects.filter(pk=ride.pk).update(**fields)
    print(json.dumps({"first_id": Ride.objects.order_by("pk").values_list("pk", flat=True).first()}))


if __name__ == "__main__":
    main()
