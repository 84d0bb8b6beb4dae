"""Four weeks of past rides for the demo (``manage.py seed_demo_rides``), so the indicators have something to show.

Past records written as they would have ended (the dispatch services act on live rides only); deterministic
(seeded), idempotent (skipped when any request exists), and nothing open: the console and the simulator see none."""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from backend.indicators.periods import LOCAL
from backend.ranks.models import Rank, RankAssignment, RankCheckIn
from backend.registry.models import Permit
from backend.trips.models import DriverCancellation, Ride

DAYS = 28
# Pickup places and their weight: the centre and the bairros around it (the gazetteer names them).
PLACES = [((-21.1311, -42.3676), 6), ((-21.1283, -42.3712), 3), ((-21.14, -42.37), 2), ((-21.125, -42.375), 2),
          ((-21.136, -42.355), 2), ((-21.1352, -42.3641), 2), ((-21.1200, -42.3650), 1)]
HOURS = [1, 0, 0, 0, 1, 3, 6, 9, 8, 5, 4, 5, 7, 5, 4, 5, 6, 8, 9, 7, 5, 4, 3, 2]  # requests' weight per hour


def seed_rides(today: date, per_day: int = 30) -> int:
    if Ride.objects.filter(created_by__in=("passenger", "operator")).exists():
        return 0
    rng = random.Random(1242)
    permits = list(Permit.objects.filter(status=Permit.Status.ACTIVE, holder__isnull=False).order_by("number")[:40])
    rides, requested, no_shows = [], [], []
    for back in range(DAYS, 0, -1):
        day = today - timedelta(days=back)
        for _ in range(per_day + rng.randint(-6, 6)):
            hour = rng.choices(range(24), weights=HOURS)[0]
            at = datetime.combine(day, time(hour, rng.randint(0, 59)), tzinfo=LOCAL)
            (lat, lon), = rng.choices([p for p, _ in PLACES], weights=[w for _, w in PLACES])
            permit = rng.choice(permits)
            ride = Ride(pickup_lat=lat + rng.uniform(-0.002, 0.002), pickup_lon=lon + rng.uniform(-0.002, 0.002),
                        created_by=rng.choice(("passenger", "passenger", "operator")), status="cancelled")
            roll = rng.random()
            offered = at + timedelta(seconds=rng.randint(5, 60))
            if roll < 0.78:  # served and completed
                arriving = offered + timedelta(minutes=rng.randint(3, 12))
                done = arriving + timedelta(minutes=rng.randint(6, 22))
                fare = Decimal(rng.randint(1200, 4200)) / 100
                ride.status, ride.permit, ride.driver, ride.fare = "completed", permit, permit.holder, fare
                ride.offered_at, ride.accepted_at, ride.arriving_at = offered, offered, arriving
                ride.on_board_at, ride.completed_at = arriving + timedelta(minutes=1), done
                ride.fare_held = roll < 0.005
            elif roll < 0.86:
                ride.offered_at, ride.cancelled_by, ride.cancelled_at = offered, "passenger", offered + timedelta(minutes=2)
            elif roll < 0.89:
                ride.offered_at, ride.cancelled_by, ride.cancelled_at = offered, "operator", offered + timedelta(minutes=3)
            elif roll < 0.95:
                ride.escalated, ride.cancelled_by, ride.cancelled_at = True, "no_cab", at + timedelta(minutes=15)
            else:  # the passenger did not appear
                arriving = offered + timedelta(minutes=rng.randint(3, 10))
                ride.offered_at, ride.accepted_at, ride.arriving_at = offered, offered, arriving
                ride.cancelled_by, ride.cancel_reason = "driver", "passenger_absent"
                ride.cancelled_at = arriving + timedelta(minutes=5)
                no_shows.append((len(rides), permit))
            rides.append(ride)
            requested.append(at)
    made = Ride.objects.bulk_create(rides)
    for ride, at in zip(made, requested):
        ride.requested_at = at  # auto_now_add on create; bulk_update writes the past moment
    Ride.objects.bulk_update(made, ["requested_at"], batch_size=500)
    cancels = [DriverCancellation(ride=made[i], permit=permit, driver=permit.holder, reason="passenger_absent",
                                  ride_status="arriving", waited_s=300) for i, permit in no_shows]
    DriverCancellation.objects.bulk_create(cancels)
    for cancel in cancels:
        cancel.at = cancel.ride.cancelled_at
    DriverCancellation.objects.bulk_update(cancels, ["at"], batch_size=500)
    seed_checkins(today, rng)
    return len(made)


def seed_checkins(today: date, rng: random.Random) -> int:
    """The ranks' past check-ins (rank occupancy): each titular stands at its rank one to three times a day, for
    20 min to 3 h from 6h to 21h; a free rank gets the cabs without a rank. All closed, none overlapping per cab."""
    titulars = {a.permit_id: a.rank_id for a in RankAssignment.objects.filter(ended_on__isnull=True)}
    free = [r.pk for r in Rank.objects.filter(active=True, category=Rank.Category.FREE)]
    loose = list(Permit.objects.filter(status=Permit.Status.ACTIVE).exclude(pk__in=list(titulars))
                 .order_by("number").values_list("pk", flat=True)[:8]) if free else []
    standing = [(permit, rank) for permit, rank in titulars.items()] + [(p, rng.choice(free)) for p in loose]
    rows = []
    for back in range(DAYS, 0, -1):
        day = today - timedelta(days=back)
        for permit, rank in standing:
            at = datetime.combine(day, time(rng.randint(6, 8), rng.randint(0, 59)), tzinfo=LOCAL)
            for _ in range(rng.randint(1, 3)):
                left = at + timedelta(minutes=rng.randint(20, 180))
                rows.append(RankCheckIn(permit_id=permit, rank_id=rank, checked_in_at=at, checked_out_at=left))
                at = left + timedelta(minutes=rng.randint(30, 240))
                if at.hour >= 21:
                    break
    RankCheckIn.objects.bulk_create(rows, batch_size=500)
    return len(rows)
