"""Offers: a ride requested, offered to the cab chosen (``dispatch.rides.choosing``), accepted, declined or expired.

Races between processes are settled by the database: conditional updates on the offer and the ride, and the
constraints of one pending offer per cab and one active ride per cab. Every path locks the ride's row first
(``dispatch.rides.ride_writes``). The worker processes these run in are ``dispatch.rides.offer_workers``.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from backend.ranks.services import ranks as rank_services
from backend.trips.models import OPEN_RIDE_STATUSES, Passenger, Ride, RideStatus
from dispatch import wire
from dispatch.errors import DispatchError
from dispatch.events import announcements, snapshots
from dispatch.models import Cab, CabStatus, Offer, OfferStatus
from dispatch.rides import safety
from dispatch.rides.choosing import Choice, choose, vehicle_features
from dispatch.rides.compliance import may_work
from dispatch.rides.ride_writes import announce_ride, fresh_ride, lock_ride, ride_closed
from taxilaw import accessibility
from taxilaw.geodesy import distance_m
from zones.gazetteer import AddressError, default_gazetteer

OFFER_TIMEOUT = timedelta(seconds=settings.DISPATCH_OFFER_SECONDS)


def _address(point: dict) -> str:
    """The address typed, else "Rua X, bairro Y" of the nearest street (the driver's offer shows it)."""
    if point.get("address"):
        return point["address"]
    try:
        return default_gazetteer().reverse(point["lon"], point["lat"]).address
    except AddressError:  # outside: the protocol refuses such places; a direct caller gets no address
        return ""


def request_ride(*, pickup: dict, destination: dict | None = None, passenger: Passenger | None = None,
                 caller_name: str = "", caller_phone: str = "", needs: tuple[str, ...] = ()) -> Ride:
    """A new ride, written already offered to the chosen cab (or escalated to operators when none may take it).

    The cab is chosen before the transaction: nobody else sees the ride yet, and reading a free cab
    locks nothing either way. The ride and its offer are then written together. A passenger with a
    ride open is refused by ``one_open_ride_per_passenger`` on the write (no query before it, and no
    race between two connections). ``needs`` (``taxilaw.accessibility``): offered only to cabs so equipped.
    """
    needs = accessibility.known_needs(needs)

    def write(choice: Choice | None) -> Ride:
        now = timezone.now()
        ride = Ride.objects.create(
            passenger=passenger,
            caller_name=caller_name,
            caller_phone=caller_phone,
            created_by="passenger" if passenger else "operator",
            pickup_lat=pickup["lat"],
            pickup_lon=pickup["lon"],
            pickup_address=_address(pickup),
            destination_lat=destination["lat"] if destination else None,
            destination_lon=destination["lon"] if destination else None,
            destination_address=_address(destination) if destination else "",
            needs=list(needs),
            **({"status": RideStatus.OFFERED, "offered_at": now} if choice else {"escalated": True}),
        )
        if choice:
            _insert_offer(ride, choice, now)
        announce_ride(ride, escalation=not choice)
        return ride

    try:
        return _choose_and_write(pickup["lat"], pickup["lon"], set(), write, needs)
    except IntegrityError:
        if passenger and passenger.rides.filter(status__in=OPEN_RIDE_STATUSES).exists():
            raise DispatchError("ride_open", _("Você já tem uma corrida em andamento.")) from None
        raise


def _has_pending_offer(cab: Cab) -> bool:
    return Offer.objects.filter(cab=cab, status=OfferStatus.PENDING).exists()



@transaction.atomic(savepoint=False)  # callers run it inside their own transaction or none
def offer_next(ride_id: int) -> Offer | None:
    """Offer the ride to the next cab that may legally work; escalate to operators when none is left."""
    ride = lock_ride(ride_id)
    if ride is None or ride.status not in (RideStatus.REQUESTED, RideStatus.OFFERED):
        return None
    offers = list(ride.offers.values_list("cab_id", "status"))
    if any(status == OfferStatus.PENDING for _cab, status in offers):
        return None

    def write(choice: Choice | None) -> Offer | None:
        if choice:
            return _offer_open_ride(ride, choice)
        ride.status, ride.escalated, ride.version = RideStatus.REQUESTED, True, ride.version + 1  # the row is locked
        ride.save(update_fields=["status", "escalated", "version"])
        announce_ride(ride, escalation=True)
        return None

    return _choose_and_write(ride.pickup_lat, ride.pickup_lon, {cab_id for cab_id, _status in offers}, write, tuple(ride.needs))


@transaction.atomic
def offer_escalated(ride_id: int) -> Offer | None:
    """Offer an escalated ride again, as :func:`offer_next` would (never to a cab it was offered to before), if a cab
    may take it now; when none may, nothing is written or announced: it stays escalated (``dispatch.rides.escalations``).

    A ride another transaction holds (an operator assigning it, a cancel) is skipped: the next tick sees it again.
    """
    ride = lock_ride(ride_id, skip_locked=True)
    if ride is None or ride.status != RideStatus.REQUESTED or not ride.escalated:
        return None
    offers = list(ride.offers.values_list("cab_id", "status"))
    if any(status == OfferStatus.PENDING for _cab, status in offers):
        return None
    return _choose_and_write(ride.pickup_lat, ride.pickup_lon, {cab_id for cab_id, _status in offers},
                             lambda choice: _offer_open_ride(ride, choice) if choice else None, tuple(ride.needs))


def _choose_and_write(lat: float, lon: float, tried: set[int], write, needs: tuple[str, ...] = ()):
    """``write(choice)`` in a transaction (a savepoint in the caller's) for the cab chosen, or ``None`` if none may go.

    Choosing locks no cab: one that another ride's offer took meanwhile breaks ``one_pending_offer_per_cab``
    on the write; it is left out (added to ``tried``) and the choice made again.
    """
    while True:
        choice = choose(lat, lon, tried, needs)
        try:
            with transaction.atomic():
                return write(choice)
        except IntegrityError:
            if choice is None or not _has_pending_offer(choice.cab):
                raise
            tried.add(choice.cab.pk)


def _insert_offer(ride: Ride, choice: Choice, now: datetime) -> Offer:
    offer = Offer.objects.create(
        ride=ride, cab=choice.cab, driver=choice.cab.driver, expires_at=now + OFFER_TIMEOUT,
        reason=choice.reason, candidates=choice.audit, distance_m=choice.distance_m,
    )
    announcements.announce(announcements.cab_group(choice.cab.permit_id), wire.OFFER(offer=snapshots.offer(offer)))
    return offer


def _offer_open_ride(ride: Ride, choice: Choice) -> Offer:
    """Offer a ride already announced (the caller locked its row): the offer, then the ride's new state."""
    now = timezone.now()
    offer = _insert_offer(ride, choice, now)
    ride.status, ride.offered_at, ride.version = RideStatus.OFFERED, now, ride.version + 1
    ride.save(update_fields=["status", "offered_at", "version"])
    announce_ride(ride)
    return offer


@transaction.atomic
def assign_by_operator(ride_id: int, permit_id: int) -> Offer:
    """An operator picks the cab; it still must be allowed to work, and the driver still accepts."""
    ride = lock_ride(ride_id)
    if ride is None:
        raise DispatchError("unknown_ride", _("Corrida inexistente."))
    if ride.status not in (RideStatus.REQUESTED, RideStatus.OFFERED):
        raise ride_closed(ride)
    cab = Cab.objects.select_related("permit", "driver").filter(permit_id=permit_id, online=True).first()
    if cab is None:
        raise DispatchError("cab_offline", _("Este táxi não está conectado."))
    if ride.offers.filter(cab=cab).exists():
        raise DispatchError("already_offered", _("Esta corrida já foi oferecida a este táxi."))
    decision = may_work(cab)
    if not decision:
        raise DispatchError("not_allowed", "; ".join(r.render(_) for r in decision.reasons))
    if ride.needs:  # the operator too sends a wheelchair ride only to a cab that can take it
        equipped = accessibility.equipped_for(ride.needs, vehicle_features([cab.permit_id]).get(cab.permit_id, {}))
        if not equipped:
            raise DispatchError("not_equipped", "; ".join(r.render(_) for r in equipped.reasons))
    for pending in ride.offers.filter(status=OfferStatus.PENDING):
        close_offer(pending, OfferStatus.WITHDRAWN)
    distance = distance_m(ride.pickup_lat, ride.pickup_lon, cab.lat, cab.lon) if cab.lat is not None else None
    audit = [{"permit": cab.permit.number, "cab_id": cab.pk, "source": "operator", "allowed": True, "reasons": []}]
    try:
        with transaction.atomic():  # a savepoint: a database error is caught outside an atomic block
            return _offer_open_ride(ride, Choice(cab, _("atribuição manual pelo operador"), audit, distance))
    except IntegrityError:  # one_pending_offer_per_cab
        raise DispatchError("cab_has_offer", _("Este táxi está respondendo a outra oferta; tente de novo em instantes.")) from None


def close_offer(offer: Offer, status: str) -> bool:
    """Close a pending offer of a ride the caller locked; announced only if it was still pending."""
    if not Offer.objects.filter(pk=offer.pk, status=OfferStatus.PENDING).update(status=status, responded_at=timezone.now()):
        return False
    permit_id = Cab.objects.values_list("permit_id", flat=True).get(pk=offer.cab_id)
    announcements.announce(announcements.cab_group(permit_id), wire.OFFER_CLOSED(offer_id=offer.pk, status=status))
    return True


# --- answers to an offer -------------------------------------------------------------------------


def _offer_gone() -> DispatchError:
    return DispatchError("offer_gone", _("Esta oferta não está mais disponível."))


def _locked_ride_of_offer(offer_id: int, cab_id: int) -> Ride:
    """The ride of this cab's offer, locked first (the one lock order); the offer itself is checked after."""
    ride_id = Offer.objects.filter(pk=offer_id, cab_id=cab_id).values_list("ride_id", flat=True).first()
    ride = lock_ride(ride_id) if ride_id is not None else None
    if ride is None:
        raise _offer_gone()
    return ride


def accept_offer(offer_id: int, cab_id: int) -> Ride:
    """Exactly one cab wins: the ride is locked first, then the offer and the ride change only if still pending/offered.

    The loser hears why: ``ride_cancelled``, ``ride_taken`` or ``offer_gone`` (withdrawn, expired, declined).
    """
    now = timezone.now()
    try:
        with transaction.atomic():
            ride = _locked_ride_of_offer(offer_id, cab_id)
            if ride.status not in (RideStatus.REQUESTED, RideStatus.OFFERED):
                raise _offer_gone() if ride.cab_id == cab_id else ride_closed(ride)  # a repeat of this cab's own accept
            taken = Offer.objects.filter(pk=offer_id, cab_id=cab_id, status=OfferStatus.PENDING, expires_at__gt=now).update(
                status=OfferStatus.ACCEPTED, responded_at=now
            )
            if not taken:
                raise _offer_gone()
            cab = Cab.objects.select_related("permit", "driver").get(pk=cab_id)
            won = Ride.objects.filter(pk=ride.pk, status=RideStatus.OFFERED).update(
                status=RideStatus.ACCEPTED, cab=cab, permit_id=cab.permit_id, driver_id=cab.driver_id,
                accepted_at=now, version=F("version") + 1, credentials=snapshots.credentials(cab.permit, cab.driver),
                boarding_code=safety.new_boarding_code(now),  # the right-cab check (docs/passenger-safety.md)
            )
            if not won:  # cannot happen while the ride's row is locked; kept as the conditional update's guard
                raise _offer_gone()
            Cab.objects.filter(pk=cab_id).update(status=CabStatus.EN_ROUTE)
            cab.status = CabStatus.EN_ROUTE
            rank_services.leave_rank(permit_id=cab.permit_id, at=now)
            ride = fresh_ride(ride.pk)
            announce_ride(ride)
            announcements.announce(announcements.OPERATORS, wire.CAB_UPDATE(cab=snapshots.cab(cab)))
            return ride
    except IntegrityError:
        raise DispatchError("cab_busy", _("Este táxi já tem uma corrida em andamento.")) from None


def decline_offer(offer_id: int, cab_id: int) -> None:
    with transaction.atomic():
        ride = _locked_ride_of_offer(offer_id, cab_id)
        declined = Offer.objects.filter(pk=offer_id, cab_id=cab_id, status=OfferStatus.PENDING).update(
            status=OfferStatus.DECLINED, responded_at=timezone.now()
        )
        if not declined:
            raise _offer_gone()
        offer_next(ride.pk)


EXPIRE_PER_TICK = 200  # offers expired per sweep: bounded work, the rest next tick


def expire_offers(now: datetime | None = None, limit: int = EXPIRE_PER_TICK) -> int:
    """Finish offers whose time ran out, whichever process made them (the sweeper calls this).

    Each ride is locked first (the one lock order), skipping a ride another transaction holds (an accept or a
    cancel deciding it now): the next sweep sees it again if it is still waiting.
    """
    now = now or timezone.now()
    due = list(Offer.objects.filter(status=OfferStatus.PENDING, expires_at__lte=now)
               .order_by("expires_at").values_list("pk", "ride_id", "cab_id")[:limit])
    count = 0
    for offer_id, ride_id, cab_id in due:
        with transaction.atomic():
            if lock_ride(ride_id, skip_locked=True) is None:
                continue
            if not close_offer(Offer(pk=offer_id, cab_id=cab_id), OfferStatus.EXPIRED):  # accepted or withdrawn meanwhile
                continue
            offer_next(ride_id)
            count += 1
    return count
