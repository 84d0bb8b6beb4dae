"""What a newcomer's first run shows besides the fleet and the rides (``manage.py seed_demo_rides``, after
``seed_rides``): Pix keys, a passenger with a past booking, a rating and a complaint, rides driven by TX-001's
auxiliary, and every ended week closed, so each statement has its PDF and CSV. Written through the services where
they apply to the past (Pix keys, ratings, complaints, closing); a past booking is written as it would have ended."""

from __future__ import annotations

from datetime import date

from django.db.models import Q

from backend.bookings.models import Booking, BookingStatus
from backend.enforcement.services.complaints import file_complaint
from backend.payments.services import register_pix_key
from backend.ratings.services import rate_ride
from backend.registry.models import Auxiliary, Permit
from backend.statements.services import close_week, weeks_to_close
from backend.trips.models import Passenger, Ride, RideStatus

DEMO_PASSENGER = ("Maria da Conceição", "32999990001")
PIX_DRIVERS = 10  # the holders of TX-001 to TX-010 and TX-001's auxiliary get a Pix key (their CPF)


def seed_first_run(today: date) -> dict:
    holder_permit = Permit.objects.select_related("holder").get(number="TX-001")
    auxiliary = Auxiliary.objects.filter(permit=holder_permit, status=Auxiliary.Status.ACTIVE).select_related("person").first()
    keys = _pix_keys(auxiliary)
    if auxiliary:  # every third of TX-001's rides was driven by its auxiliary: both see statements
        mine = list(Ride.objects.filter(permit=holder_permit, status=RideStatus.COMPLETED).order_by("completed_at").values_list("pk", flat=True))
        Ride.objects.filter(pk__in=mine[::3], completed_at__date__gte=auxiliary.authorized_on).update(driver=auxiliary.person)
    passenger = _passenger_history(holder_permit)
    closed = [close_week(monday) for monday in weeks_to_close()]
    return {"pix_keys": keys, "passenger": passenger.pk if passenger else None, "weeks_closed": len(closed)}


def _pix_keys(auxiliary) -> int:
    people = [p.holder for p in Permit.objects.filter(holder__isnull=False).select_related("holder").order_by("number")[:PIX_DRIVERS]]
    if auxiliary:
        people.append(auxiliary.person)
    for person in people:
        register_pix_key(person, "cpf", person.cpf)
    return len(people)


def _passenger_history(permit: Permit) -> Passenger | None:
    """Maria's three last rides with TX-001: one rated, one complained about, one booked the day before."""
    rides = list(Ride.objects.filter(permit=permit, status=RideStatus.COMPLETED, passenger__isnull=True)
                 .filter(~Q(driver=None)).order_by("-completed_at")[:3])
    if len(rides) < 3:
        return None
    name, phone = DEMO_PASSENGER
    passenger = Passenger.objects.create(name=name, phone=phone)
    Ride.objects.filter(pk__in=[r.pk for r in rides]).update(passenger=passenger)
    rate_ride(passenger=passenger, ride_id=rides[0].pk, stars=5, comment="Motorista educado e carro limpo.")
    file_complaint(passenger=passenger, ride_id=rides[1].pk, description="O taxímetro foi ligado antes do embarque.")
    booked = rides[2]
    Booking.objects.create(
        passenger=passenger, created_by="passenger", pickup_lat=booked.pickup_lat, pickup_lon=booked.pickup_lon,
        pickup_address=booked.pickup_address or "Praça Cel. Pacheco de Medeiros", pickup_at=booked.requested_at,
        dispatch_at=booked.requested_at, status=BookingStatus.DISPATCHED, ride=booked, dispatched_at=booked.requested_at,
    )
    return passenger
