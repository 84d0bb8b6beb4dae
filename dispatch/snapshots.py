"""What clients see: snapshots of cabs, offers and rides as plain JSON-ready dicts."""

from __future__ import annotations

from .models import ACTIVE_RIDE_STATUSES, OPEN_RIDE_STATUSES, Cab, Offer, OfferStatus, Passenger, Ride


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


def _cvi_and_cmt(ride: Ride) -> dict:
    """Art. 32: the passenger sees the cab's CVI and the driver's CMT name and number."""
    if not ride.cab_id:
        return {}
    vehicle = ride.permit.vehicles.filter(in_service=True).first() if ride.permit_id else None
    cmt = ride.driver.cmts.order_by("-expires_on").first() if ride.driver_id else None
    return {
        "cvi": {"plate": vehicle.plate, "make": vehicle.make, "model": vehicle.model, "colour": vehicle.colour, "permit": ride.permit.number}
        if vehicle
        else None,
        "driver": {"name": ride.driver.full_name, "cmt": cmt.number if cmt else None} if ride.driver_id else None,
        "cab_position": {"lat": ride.cab.lat, "lon": ride.cab.lon} if ride.cab.lat is not None else None,
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
        "fare": str(ride.fare) if ride.fare is not None else None,
        "permit": ride.permit.number if ride.permit_id else None,
    }
    body.update(_cvi_and_cmt(ride))
    return body


def offer(offer: Offer) -> dict:
    return {
        "id": offer.pk,
        "ride_id": offer.ride_id,
        "status": offer.status,
        "expires_at": _dt(offer.expires_at),
        "distance_m": round(offer.distance_m) if offer.distance_m is not None else None,
        "reason": offer.reason,
        "pickup": {"lat": offer.ride.pickup_lat, "lon": offer.ride.pickup_lon, "address": offer.ride.pickup_address},
    }


def for_driver(c: Cab) -> dict:
    pending = c.offers.filter(status=OfferStatus.PENDING).select_related("ride").first()
    current = c.rides.filter(status__in=ACTIVE_RIDE_STATUSES).first()
    return {"type": "snapshot", "cab": cab(c), "offer": offer(pending) if pending else None, "ride": ride(current) if current else None}


def for_passenger(p: Passenger) -> dict:
    rides = p.rides.filter(status__in=OPEN_RIDE_STATUSES).select_related("cab", "permit", "driver")
    return {"type": "snapshot", "passenger": {"name": p.name}, "rides": [ride(r) for r in rides]}


def for_operator() -> dict:
    cabs = Cab.objects.filter(online=True).select_related("permit", "driver")
    rides = Ride.objects.filter(status__in=OPEN_RIDE_STATUSES).select_related("cab", "permit", "driver", "passenger")
    return {
        "type": "snapshot",
        "cabs": [cab(c) for c in cabs],
        "rides": [dict(ride(r), offers=[{"permit": o.cab.permit.number, "status": o.status, "reason": o.reason} for o in r.offers.select_related("cab__permit")]) for r in rides],
    }
