"""Hand-made rides, offers and records for the indicators' tests: each answer below is counted by hand.

The period 2026-10-31 (Saturday) to 2026-11-01 (Sunday) crosses a month's end in America/Sao_Paulo; the ride
requested at 23:30 on 31/10 in Muriaé is 02:30 UTC on 01/11, so a count in UTC would put it in November."""

from datetime import date, datetime, timedelta

from backend.indicators.periods import LOCAL, Period
from backend.trips.models import Ride

CENTRO = (-21.131, -42.367)
SAO_GOTARDO = (-21.14, -42.37)
MONTH_END = Period(date(2026, 10, 31), date(2026, 11, 1))
EMPTY = Period(date(2026, 9, 1), date(2026, 9, 3))


def local(*args) -> datetime:
    return datetime(*args, tzinfo=LOCAL)


def ride(requested_at, where=CENTRO, created_by="passenger", **fields):
    """A ride requested at ``requested_at``; ``offer_s``/``arrive_s``: seconds after it that it was offered/reached."""
    offer_s, arrive_s = fields.pop("offer_s", None), fields.pop("arrive_s", None)
    made = Ride.objects.create(pickup_lat=where[0], pickup_lon=where[1], created_by=created_by, **fields)
    Ride.objects.filter(pk=made.pk).update(
        requested_at=requested_at,
        offered_at=requested_at + timedelta(seconds=offer_s) if offer_s is not None else None,
        arriving_at=requested_at + timedelta(seconds=arrive_s) if arrive_s is not None else None)
    made.refresh_from_db()
    return made


def month_end_rides():
    """A to D are requests in the period; the street trip and the two rides just outside it are not counted."""
    return {
        "A": ride(local(2026, 10, 31, 23, 30), offer_s=20, arrive_s=300, status="completed",
                  on_board_at=local(2026, 10, 31, 23, 36), completed_at=local(2026, 10, 31, 23, 50), fare="23.45"),
        "B": ride(local(2026, 10, 31, 8, 0), created_by="operator", offer_s=40, status="cancelled",
                  cancelled_by="passenger"),
        "C": ride(local(2026, 11, 1, 0, 10), where=SAO_GOTARDO, escalated=True, status="cancelled", cancelled_by="no_cab"),
        "D": ride(local(2026, 11, 1, 10, 0), where=SAO_GOTARDO, offer_s=30, arrive_s=420, status="cancelled",
                  cancelled_by="driver", cancel_reason="passenger_absent"),
        "street": ride(local(2026, 11, 1, 11, 0), created_by="street", status="completed"),
        "before": ride(local(2026, 10, 30, 23, 59), status="cancelled", cancelled_by="passenger"),
        "after": ride(local(2026, 11, 2, 0, 5), status="cancelled", cancelled_by="passenger"),
    }
