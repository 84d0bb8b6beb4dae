"""What clients see: snapshots of cabs, offers and rides as plain JSON-ready dicts."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext as _

from backend.parameters.selectors import current_parameters
from backend.payments import snapshot as payment_snapshot
from backend.registry.models import Permit, Person
from backend.trips.models import ACTIVE_RIDE_STATUSES, OPEN_RIDE_STATUSES, Passenger, Ride, RideStatus
from backend.trips.services import fare_hold_reasons
from dispatch import wire
from dispatch.models import Cab, Offer, OfferStatus
from dispatch.rides import give_up, safety
from dispatch.transport import connection_sql
from taxilaw import accessibility
from taxilaw.cancellation import reason_for_passenger


def _dt(value):
    return value.isoformat() if value else None


def cab(cab: Cab) -> dict:
    return {
        "id": cab.pk,
        "permit_id": cab.permit_id,
        "permit": cab.permit.number,
        "status": cab.status,
        "online": cab.online,
        "lat": cab.lat,
        "lon": cab.lon,
        "zone": cab.zone,
        "driver": cab.driver.full_name if cab.driver_id else None,
    }


def credentials(permit: Permit, driver: Person) -> dict:
    """Art. 32: the cab's CVI and the driver's CMT name and number, as the passenger is shown them.

    Read once, when the cab accepts, and kept on the ride (``Ride.credentials``).
    """
    vehicle = permit.vehicles.filter(in_service=True).first()
    cmt = driver.cmts.order_by("-expires_on").values_list("number", flat=True).first()
    return {
        "permit": permit.number,
        "cvi": {"plate": vehicle.plate, "make": vehicle.make, "model": vehicle.model, "colour": vehicle.colour, "permit": permit.number}
        if vehicle
        else None,
        "driver": {"name": driver.full_name, "cmt": cmt},
    }


def ride(ride: Ride) -> dict:
    body = {
        "id": ride.pk,
        "version": ride.version,
        "status": ride.status,
        "pickup": {"lat": ride.pickup_lat, "lon": ride.pickup_lon, "address": ride.pickup_address},
        "destination": {"lat": ride.destination_lat, "lon": ride.destination_lon, "address": ride.destination_address}
        if ride.destination_lat is not None
        else None,
        "passenger": ride.passenger.name if ride.passenger_id else ride.caller_name,
        "escalated": ride.escalated,
        "requested_at": _dt(ride.requested_at),
        "accepted_at": _dt(ride.accepted_at),
        "completed_at": _dt(ride.completed_at),
        "cancelled_at": _dt(ride.cancelled_at),
        "cancelled_by": ride.cancelled_by,  # the passenger page explains who cancelled and why
        # in words: a driver's reason is stored as its code (taxilaw.cancellation), the passenger reads a sentence
        "cancel_reason": _(reason_for_passenger(ride.cancel_reason)) if ride.cancelled_by == "driver" else ride.cancel_reason,
        "fare": str(ride.fare) if ride.fare is not None else None,
        "permit": ride.credentials.get("permit"),
        "payment": payment_snapshot.payment(ride),  # 1.3: how the fare was paid (docs/payments.md)
    }
    if ride.needs:  # taxilaw.accessibility: what the vehicle must have, and why no cab was found yet
        body["needs"] = list(ride.needs)
        body["needs_display"] = accessibility.describe(ride.needs)
        if ride.escalated and ride.status == RideStatus.REQUESTED:
            body["needs_unmet"] = accessibility.none_free(ride.needs).render(_)
    deadline = give_up.gives_up_at(ride)
    if deadline is not None:
        body["gives_up_at"] = _dt(deadline)
    review = payment_snapshot.fare_review(ride)
    if review is not None:
        body["fare_review"] = review  # 1.5: a fare held for DIMUTRAN's review is not charged yet
    if ride.cab_id:
        body.update(cvi=ride.credentials.get("cvi"), driver=ride.credentials.get("driver"))
        if ride.boarding_code:  # 1.6: the right-cab check, the same on the passenger's and the driver's screens
            body["boarding_code"] = ride.boarding_code
        body["cab_position"] = {"lat": ride.cab.lat, "lon": ride.cab.lon} if ride.cab.lat is not None else None
    return body


def _passenger(ride: Ride) -> dict:
    """Who to look for and call (the passenger page promises the driver their name and phone)."""
    if ride.passenger_id:
        return {"name": ride.passenger.name, "phone": ride.passenger.phone}
    return {"name": ride.caller_name, "phone": ride.caller_phone}


def for_the_driver(r: Ride) -> dict:
    """The ride as its driver sees it (1.4): with the passenger's phone and the no-show time (taxilaw.cancellation)."""
    body = ride(r)
    no_show_at = None
    if r.arriving_at and r.status == "arriving":
        wait = current_parameters().as_of("no_show_wait_minutes", timezone.localdate(r.arriving_at))
        no_show_at = r.arriving_at + timedelta(minutes=wait)
    body.update(passenger_phone=_passenger(r)["phone"], arriving_at=_dt(r.arriving_at), no_show_at=_dt(no_show_at))
    return body


def fare_held(ride: Ride) -> dict:
    """``{"fare_held": [reason, ...]}`` for an answer frame when the meter's total waits for DIMUTRAN (Art. 43), else ``{}``."""
    reasons = fare_hold_reasons(ride)
    return {"fare_held": [{"article": r.article, "code": r.code, "message": r.render(_)} for r in reasons]} if reasons else {}


def offer(offer: Offer) -> dict:
    ride = offer.ride
    return {
        "id": offer.pk,
        "ride_id": offer.ride_id,
        "status": offer.status,
        "expires_at": _dt(offer.expires_at),
        "distance_m": round(offer.distance_m) if offer.distance_m is not None else None,
        "reason": offer.reason,
        "pickup": {"lat": ride.pickup_lat, "lon": ride.pickup_lon, "address": ride.pickup_address},
        "passenger": _passenger(ride),
        "destination": {"lat": ride.destination_lat, "lon": ride.destination_lon, "address": ride.destination_address}
        if ride.destination_lat is not None
        else None,
    }


def for_driver(c: Cab) -> dict:
    return for_drivers([c])[0]


def for_drivers(cabs: list[Cab]) -> list[dict]:
    """:func:`for_driver` of each cab: one short statement for all, two more only if some have an offer or a ride
    (a batch of connections, dispatch.transport.connection_batches). After a restart most reconnecting cabs have neither."""
    ids = [c.pk for c in cabs]
    involved = connection_sql.with_offer_or_ride(ids)
    pending, current = {}, {}
    if involved:
        for o in Offer.objects.filter(cab_id__in=involved, status=OfferStatus.PENDING).select_related("ride__passenger"):
            pending.setdefault(o.cab_id, o)  # the first in the offers' order, as .first() would give
        for r in Ride.objects.filter(cab_id__in=involved, status__in=ACTIVE_RIDE_STATUSES).select_related("cab", "passenger"):
            current.setdefault(r.cab_id, r)
    return [wire.DRIVER_SNAPSHOT(cab=cab(c), offer=offer(pending[c.pk]) if c.pk in pending else None,
                                 ride=for_the_driver(current[c.pk]) if c.pk in current else None) for c in cabs]


def for_passenger(p: Passenger) -> dict:
    rides = p.rides.filter(status__in=OPEN_RIDE_STATUSES).select_related("cab", "passenger")
    return wire.PASSENGER_SNAPSHOT(passenger={"name": p.name}, rides=[ride(r) for r in rides])


def for_operator() -> dict:
    cabs = Cab.objects.filter(online=True).select_related("permit", "driver")
    rides = Ride.objects.filter(status__in=OPEN_RIDE_STATUSES).select_related("cab", "passenger")
    return wire.OPERATOR_SNAPSHOT(
        cabs=[cab(c) for c in cabs],
        rides=[dict(ride(r), offers=_offer_log(r)) for r in rides],
        sos_alerts=safety.open_alerts(),
    )


def _offer_log(r: Ride) -> list[dict]:
    """Each offer of the ride, why that cab, and why a driver who accepted then gave it up."""
    given_up = dict(r.driver_cancellations.values_list("permit_id", "reason"))
    log = []
    for o in r.offers.select_related("cab__permit"):
        entry = {"permit": o.cab.permit.number, "status": o.status, "reason": o.reason}
        if o.status == OfferStatus.CANCELLED and o.cab.permit_id in given_up:
            entry["cancel_reason"] = given_up[o.cab.permit_id]
        log.append(entry)
    return log
