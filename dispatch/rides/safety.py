"""The passenger's safety during a ride (docs/passenger-safety.md): the right cab, a link to share it, the SOS.

The right cab: when a cab accepts, the ride gets a short random code (``boarding_code_digits``, a dated parameter)
that the passenger's page shows beside the plate and the driver's app shows to the driver; before getting in, the
passenger asks the driver to say it. A cab that did not accept the ride cannot know it.

A share link is a random token (``secrets.token_urlsafe(32)``: 256 bits) given once to the passenger; only its
SHA-256 is stored, so nothing kept on the server can rebuild a link. It shows what a relative needs to find the cab
(its CVI, the driver's name and CMT, where it is, the ride's two ends: Art. 32) and nothing else about the
passenger, and stops working when the ride ends or the passenger revokes it.

An SOS is stored with what the central knew at that moment (the cab, its driver, the last positions) and announced
to the operators on commit (``events``); it stays for DIMUTRAN, read-only in the admin.
"""

from __future__ import annotations

import hashlib
import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from backend.trips.models import ACTIVE_RIDE_STATUSES, OPEN_RIDE_STATUSES, Passenger, Ride
from dispatch import wire
from dispatch.errors import DispatchError
from dispatch.events import announcements
from dispatch.models import RideShare, SosAlert

TOKEN_BYTES = 32


def boarding_code(digits: int) -> str:
    """A random code of ``digits`` digits (leading zeros kept), or "" when the parameter turns the check off."""
    return f"{secrets.randbelow(10 ** digits):0{digits}d}" if digits > 0 else ""


def new_boarding_code(now) -> str:
    """The code for a ride a cab accepts now (``boarding_code_digits`` in force today)."""
    from backend.parameters.selectors import current_parameters

    return boarding_code(int(current_parameters().as_of("boarding_code_digits", timezone.localdate(now))))


class ShareRefused(Exception):
    """A share link that shows nothing: unknown (404) or no longer valid (410), with the pt-BR sentence to show."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _passengers_ride(ride_id: int, passenger: Passenger) -> Ride:
    ride = Ride.objects.select_related("cab").filter(pk=ride_id, passenger=passenger).first()
    if ride is None:
        raise DispatchError("not_your_ride", _("Esta corrida não é sua."))
    return ride


def share_ride(ride_id: int, passenger: Passenger) -> str:
    """A new link to follow the passenger's open ride; the token, which is given out once and never stored."""
    ride = _passengers_ride(ride_id, passenger)
    if ride.status not in OPEN_RIDE_STATUSES:
        raise DispatchError("ride_closed", _("Esta corrida já terminou; não há o que compartilhar."))
    token = secrets.token_urlsafe(TOKEN_BYTES)
    RideShare.objects.create(ride=ride, token_hash=_digest(token))
    return token


def revoke_shares(ride_id: int, passenger: Passenger) -> int:
    """Every link of the passenger's ride stops working now; how many were still valid."""
    ride = _passengers_ride(ride_id, passenger)
    return RideShare.objects.filter(ride=ride, revoked_at__isnull=True).update(revoked_at=timezone.now())


def followed(token: str) -> Ride:
    """The ride a share link follows, or :class:`ShareRefused`."""
    share = RideShare.objects.select_related("ride__cab").filter(token_hash=_digest(token)).first()
    if share is None:
        raise ShareRefused(404, _("Este link de acompanhamento não existe. Confira se ele foi copiado inteiro."))
    if share.revoked_at is not None:
        raise ShareRefused(410, _("Quem compartilhou esta corrida deixou de compartilhá-la."))
    if share.ride.status not in OPEN_RIDE_STATUSES:
        raise ShareRefused(410, _("Esta corrida terminou; o acompanhamento foi encerrado."))
    return share.ride


def _point(lat, lon, address: str) -> dict | None:
    return {"lat": lat, "lon": lon, "address": address} if lat is not None else None


def public_view(ride: Ride) -> dict:
    """What a share link shows: the cab (Art. 32), where it is, the ride's two ends; never the passenger's name,
    phone, fare or payment."""
    credentials = ride.credentials or {}
    cab = ride.cab if ride.cab_id else None
    return {
        "status": ride.status,
        "status_display": ride.get_status_display(),
        "cvi": credentials.get("cvi"),
        "driver": credentials.get("driver"),
        "cab_position": {"lat": cab.lat, "lon": cab.lon} if cab is not None and cab.lat is not None else None,
        "pickup": _point(ride.pickup_lat, ride.pickup_lon, ride.pickup_address),
        "destination": _point(ride.destination_lat, ride.destination_lon, ride.destination_address),
    }


# --- SOS -------------------------------------------------------------------------------------------


def _positions(ride: Ride, fix: dict | None, now) -> list[dict]:
    """The latest position of the passenger's phone (if it gave one) and of the cab known to the server."""
    found = []
    if fix:
        found.append({"source": "passenger", "lat": fix["lat"], "lon": fix["lon"], "at": now.isoformat(),
                      "accuracy_m": fix.get("accuracy_m")})
    cab = ride.cab if ride.cab_id else None
    if cab is not None and cab.lat is not None:
        found.append({"source": "cab", "lat": cab.lat, "lon": cab.lon,
                      "at": cab.position_at.isoformat() if cab.position_at else None})
    return found


def sos_body(alert: SosAlert) -> dict:
    """An alert as the console shows it: who to call back, the cab, where (``wire.SOS``)."""
    ride = alert.ride
    passenger = ride.passenger
    return {
        "id": alert.pk, "ride_id": ride.pk, "raised_at": alert.raised_at.isoformat(), "ride_status": alert.ride_status,
        "passenger": passenger.name if passenger else ride.caller_name,
        "passenger_phone": passenger.phone if passenger else ride.caller_phone,
        "permit": alert.permit, "plate": alert.plate, "driver": alert.driver_name, "positions": alert.positions,
    }


@transaction.atomic
def raise_sos(ride_id: int, passenger: Passenger, fix: dict | None = None) -> SosAlert:
    """Store the passenger's SOS with what the central knows now, and announce it to the operators on commit."""
    ride = _passengers_ride(ride_id, passenger)
    if ride.status not in ACTIVE_RIDE_STATUSES:
        raise DispatchError("wrong_state", _("O SOS é para uma corrida em andamento. Em perigo, ligue 190."))
    now = timezone.now()
    cvi = (ride.credentials or {}).get("cvi") or {}
    alert = SosAlert.objects.create(
        ride=ride, ride_status=ride.status, permit=(ride.credentials or {}).get("permit") or "", plate=cvi.get("plate", ""),
        driver_name=((ride.credentials or {}).get("driver") or {}).get("name", ""), positions=_positions(ride, fix, now),
    )
    alert.ride = ride
    announcements.announce(announcements.OPERATORS, wire.SOS_ALERT(alert=sos_body(alert)))
    return alert


def open_alerts(limit: int = 20) -> list[dict]:
    """The alerts no operator has acknowledged yet, newest first: a console that (re)connects raises them again."""
    alerts = SosAlert.objects.filter(acknowledged_at__isnull=True).select_related("ride__passenger")[:limit]
    return [sos_body(a) for a in alerts]


def acknowledge(alert_id: int, who: str) -> bool:
    """An operator saw the alert ("Ciente"): recorded once, with who and when."""
    return bool(SosAlert.objects.filter(pk=alert_id, acknowledged_at__isnull=True)
                .update(acknowledged_at=timezone.now(), acknowledged_by=who[:150]))
