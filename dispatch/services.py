"""Dispatch services: every state change is committed before it is announced (dispatch.events).

Consumers call these through ``database_sync_to_async``. Races between
processes are settled by the database: conditional updates on the offer and
the ride, and the constraint of one active ride per cab. Which cab a ride is
offered to is chosen in ``dispatch.choosing``.

One lock order in every path that changes a ride and its offers (accept, decline, expiry, cancel, manual
assignment): the ride's row first (:func:`_lock_ride`), then its offers. Two paths that took them in opposite
orders deadlocked on PostgreSQL. A locked ride is read without joins: PostgreSQL re-reads a row it waited for
but not the rows joined to it, so ``select_related`` beside ``select_for_update`` returned a stale cab.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from decimal import Decimal

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from backend.api_errors import require
from backend.parameters.selectors import current_parameters
from backend.ranks import services as rank_services
from backend.ranks.models import Rank, RankCheckIn
from backend.registry import selectors
from backend.registry.models import Permit, Person
from backend.trips.models import (
    ACTIVE_RIDE_STATUSES,
    OPEN_RIDE_STATUSES,
    DriverCancellation,
    Passenger,
    Ride,
    RideStatus,
)
from backend.trips.services import record_finished_trip
from taxilaw import cancellation
from taxilaw.geodesy import distance_m
from zones.gazetteer import AddressError, default_gazetteer

from . import events, presence, snapshots, wire
from .choosing import Choice, choose
from .compliance import may_work
from .models import Cab, CabStatus, Offer, OfferStatus

OFFER_TIMEOUT = timedelta(seconds=settings.DISPATCH_OFFER_SECONDS)
RECHECK_PER_TICK = 100  # connected cabs re-checked per tick after a registry write: bounded work, the rest next tick



class DispatchError(Exception):
    """A request the dispatcher refuses; sent back as an error frame."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, str(message)

    def __reduce__(self):  # raised in an offering worker process, re-raised in the serving one
        return type(self), (self.code, self.message)


# --- drivers ---------------------------------------------------------------------------------


def driven_permit(person: Person) -> Permit | None:
    """The active permit this person may drive (their own, or the one they assist)."""
    return selectors.driven_permit(person, (Permit.Status.ACTIVE,))[0]


def go_online(person: Person, channel_name: str | None = None) -> Cab:
    """A driver connects: the registry must allow them to work this cab now, and nobody else may be driving it.

    The connection is recorded (``dispatch.presence``): the cab stays online while any of its sockets is open in a
    live process. The cab's row is locked, so two drivers connecting at once cannot both pass.
    """
    outcome = go_online_many([(person, channel_name)])[0]
    if isinstance(outcome, DispatchError):
        raise outcome
    return outcome


@transaction.atomic
def go_online_many(arrivals: list[tuple[Person, str | None]]) -> list[Cab | DispatchError]:
    """:func:`go_online` for many connections at once (after a restart every driver reconnects): the same checks
    for each, a few statements and one commit for all. Each arrival gets its cab or the error refusing it."""
    outcomes: list = [None] * len(arrivals)
    permits: dict[int, Permit] = {}
    for k, (person, _channel) in enumerate(arrivals):
        permit = driven_permit(person)
        if permit is None:
            outcomes[k] = DispatchError("no_permit", _("Este motorista não está vinculado a uma permissão ativa."))
        else:
            permits[k] = permit
    # Rows locked in one order (the flush and the other paths lock one cab or ascending ids): no deadlock.
    cabs = {c.permit_id: c for c in Cab.objects.select_for_update().filter(permit__in=permits.values()).order_by("pk")}
    for permit in permits.values():
        if permit.pk not in cabs:
            cabs[permit.pk] = Cab.objects.select_for_update().get_or_create(permit=permit)[0]
    drivers_connected = presence.drivers_connected([c.pk for c in cabs.values()])  # cab id -> person ids
    online, connections = {}, []
    for k, permit in permits.items():
        person, channel = arrivals[k]
        cab = cabs[permit.pk]
        if drivers_connected.get(cab.pk, set()) - {person.pk}:
            outcomes[k] = DispatchError("cab_in_use", _(
                "Este táxi já está em serviço com outro motorista conectado. "
                "Um táxi é dirigido por uma pessoa de cada vez: peça que ele se desconecte."))
            continue
        if cab.driver_id != person.pk:  # the facts kept on the cab were another driver's
            cab.compliance_facts, cab.facts_epoch = None, cab.facts_epoch + 1
        cab.permit, cab.driver = permit, person
        decision = may_work(cab, store=False)
        if not decision:
            outcomes[k] = DispatchError("not_allowed", "; ".join(r.render(_) for r in decision.reasons))
            continue
        cab.online = True
        drivers_connected.setdefault(cab.pk, set()).add(person.pk)  # a second driver in the same batch is refused
        online[cab.pk] = cab
        connections.append((cab, person.pk, channel or f"direct!{uuid.uuid4().hex}"))
        outcomes[k] = cab
    Cab.objects.bulk_update(online.values(), ["driver", "online", "compliance_facts", "facts_epoch"])
    presence.open_connections(connections)
    for cab in online.values():
        events.announce(events.OPERATORS, wire.CAB_UPDATE(cab=snapshots.cab(cab)))
    return outcomes


@transaction.atomic
def go_offline(cab_id: int, channel_name: str | None = None) -> None:
    """A socket closed: the cab goes offline only if none of its sockets is left open in a live process."""
    Cab.objects.select_for_update().filter(pk=cab_id).first()  # serialised with go_online of the same cab
    if channel_name is not None and not presence.close_connection(cab_id, channel_name):
        return
    _take_offline([cab_id])


def _take_offline(cab_ids: list[int]) -> None:
    Cab.objects.filter(pk__in=cab_ids).update(online=False)
    for cab in Cab.objects.select_related("permit", "driver").filter(pk__in=cab_ids):
        events.announce(events.OPERATORS, wire.CAB_UPDATE(cab=snapshots.cab(cab)))


def sweep_presence() -> list[int]:
    """Renew this process's lease; take offline the cabs whose process died (no offer reaches them). The tick calls it."""
    presence.renew()
    with transaction.atomic():
        orphans = presence.orphaned_cabs()
        if orphans:
            _take_offline(orphans)
    return orphans


def set_status(cab_id: int, status: str) -> Cab:
    with transaction.atomic():
        cab = Cab.objects.select_for_update().get(pk=cab_id)
        if cab.rides.filter(status__in=ACTIVE_RIDE_STATUSES).exists():
            raise DispatchError("busy", _("Conclua ou cancele a corrida em andamento antes de mudar a situação."))
        cab.status = status
        cab.save(update_fields=["status"])
        events.announce(events.OPERATORS, wire.CAB_UPDATE(cab=snapshots.cab(cab)))
    return cab


def still_allowed(cab_id: int):
    """Re-check the registry for an open connection (after a suspension or revocation)."""
    return may_work(Cab.objects.select_related("permit", "driver").get(pk=cab_id))


def tell_the_no_longer_allowed(limit: int = RECHECK_PER_TICK) -> list[int]:
    """Re-check connected cabs whose kept facts the database forgot; tell those no longer allowed to work.

    Whatever wrote the registry (a service, the admin, raw SQL, another process), the triggers of migration
    0003 cleared ``compliance_facts`` in the same transaction; this reads the registry again for at most
    ``limit`` such cabs (storing their facts back, so each is checked once per change) and sends each one
    refused ``compliance_changed``: its connection re-checks, sends ``suspended`` and closes. Returns the
    permit ids told.
    """
    forgotten = (Cab.objects.filter(online=True, compliance_facts__isnull=True, driver__isnull=False)
                 .select_related("permit", "driver").order_by("pk")[:limit])
    told = []
    for cab in forgotten:
        if not may_work(cab):
            events.announce_compliance_change(cab.permit_id)
            told.append(cab.permit_id)
    return told


def rank_check_in(permit_id: int, rank_id: int, position: tuple[float, float] | None = None) -> dict:
    """Check the cab in at a rank where its last GPS fix shows it (Art. 9, V; Art. 22; visitors per Art. 27, §3)
    and give its place in the queue."""
    rank = Rank.objects.filter(pk=rank_id).first()
    if rank is None:
        raise DispatchError("unknown_rank", _("Ponto inexistente."))
    if position is None:  # no fix on this connection yet: the last one flushed to the cab's row
        position = Cab.objects.filter(permit_id=permit_id, lat__isnull=False).values_list("lat", "lon").first()
    checkin = rank_services.check_in(permit=Permit.objects.get(pk=permit_id), rank=rank, position=position)
    position = RankCheckIn.objects.filter(rank=rank, checked_out_at__isnull=True, checked_in_at__lte=checkin.checked_in_at).count()
    return {"rank_id": rank.pk, "rank": rank.name, "queue_position": position, "visitor": checkin.visitor}


def rank_check_out(permit_id: int) -> None:
    checkin = RankCheckIn.objects.filter(permit_id=permit_id, checked_out_at__isnull=True).first()
    if checkin is None:
        raise DispatchError("not_checked_in", _("O táxi não está em nenhum ponto."))
    rank_services.check_out(checkin=checkin)


# --- passengers and operators ------------------------------------------------------------------


def passenger_by_token(token: str) -> Passenger | None:
    return Passenger.objects.filter(token=token).first()


def _address(point: dict) -> str:
    """The address typed, else "Rua X, bairro Y" of the nearest street (the driver's offer shows it)."""
    if point.get("address"):
        return point["address"]
    try:
        return default_gazetteer().reverse(point["lon"], point["lat"]).address
    except AddressError:  # outside: the protocol refuses such places; a direct caller gets no address
        return ""


def request_ride(*, pickup: dict, destination: dict | None = None, passenger: Passenger | None = None,
                 caller_name: str = "", caller_phone: str = "") -> Ride:
    """A new ride, written already offered to the chosen cab (or escalated to operators when none may take it).

    The cab is chosen before the transaction: nobody else sees the ride yet, and reading a free cab
    locks nothing either way. The ride and its offer are then written together. A passenger with a
    ride open is refused by ``one_open_ride_per_passenger`` on the write (no query before it, and no
    race between two connections).
    """

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
            **({"status": RideStatus.OFFERED, "offered_at": now} if choice else {"escalated": True}),
        )
        if choice:
            _insert_offer(ride, choice, now)
        _announce_ride(ride, escalation=not choice)
        return ride

    try:
        return _choose_and_write(pickup["lat"], pickup["lon"], set(), write)
    except IntegrityError:
        if passenger and passenger.rides.filter(status__in=OPEN_RIDE_STATUSES).exists():
            raise DispatchError("ride_open", _("Você já tem uma corrida em andamento.")) from None
        raise

def _lock_ride(ride_id: int, *, skip_locked: bool = False) -> Ride | None:
    """The ride's row, locked for this transaction (the first lock of every ride-and-offer path); no join."""
    return Ride.objects.select_for_update(skip_locked=skip_locked).filter(pk=ride_id).first()


def _ride_closed(ride: Ride) -> DispatchError:
    """The specific answer to whoever lost a race for a ride that is no longer waiting for a cab."""
    if ride.status == RideStatus.CANCELLED:
        return DispatchError("ride_cancelled", _("Esta corrida foi cancelada."))
    return DispatchError("ride_taken", _("Esta corrida já foi atendida por outro táxi."))


def _has_pending_offer(cab: Cab) -> bool:
    return Offer.objects.filter(cab=cab, status=OfferStatus.PENDING).exists()



@transaction.atomic(savepoint=False)  # callers run it inside their own transaction or none
def offer_next(ride_id: int) -> Offer | None:
    """Offer the ride to the next cab that may legally work; escalate to operators when none is left."""
    ride = _lock_ride(ride_id)
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
        _announce_ride(ride, escalation=True)
        return None

    return _choose_and_write(ride.pickup_lat, ride.pickup_lon, {cab_id for cab_id, _status in offers}, write)


def _choose_and_write(lat: float, lon: float, tried: set[int], write):
    """``write(choice)`` in a transaction (a savepoint in the caller's) for the cab chosen, or ``None`` if none may go.

    Choosing locks no cab: one that another ride's offer took meanwhile breaks ``one_pending_offer_per_cab``
    on the write; it is left out (added to ``tried``) and the choice made again.
    """
    while True:
        choice = choose(lat, lon, tried)
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
    events.announce(events.cab_group(choice.cab.permit_id), wire.OFFER(offer=snapshots.offer(offer)))
    return offer


def _offer_open_ride(ride: Ride, choice: Choice) -> Offer:
    """Offer a ride already announced (the caller locked its row): the offer, then the ride's new state."""
    now = timezone.now()
    offer = _insert_offer(ride, choice, now)
    ride.status, ride.offered_at, ride.version = RideStatus.OFFERED, now, ride.version + 1
    ride.save(update_fields=["status", "offered_at", "version"])
    _announce_ride(ride)
    return offer


@transaction.atomic
def assign_by_operator(ride_id: int, permit_id: int) -> Offer:
    """An operator picks the cab; it still must be allowed to work, and the driver still accepts."""
    ride = _lock_ride(ride_id)
    if ride is None:
        raise DispatchError("unknown_ride", _("Corrida inexistente."))
    if ride.status not in (RideStatus.REQUESTED, RideStatus.OFFERED):
        raise _ride_closed(ride)
    cab = Cab.objects.select_related("permit", "driver").filter(permit_id=permit_id, online=True).first()
    if cab is None:
        raise DispatchError("cab_offline", _("Este táxi não está conectado."))
    if ride.offers.filter(cab=cab).exists():
        raise DispatchError("already_offered", _("Esta corrida já foi oferecida a este táxi."))
    decision = may_work(cab)
    if not decision:
        raise DispatchError("not_allowed", "; ".join(r.render(_) for r in decision.reasons))
    for pending in ride.offers.filter(status=OfferStatus.PENDING):
        _close_offer(pending, OfferStatus.WITHDRAWN)
    distance = distance_m(ride.pickup_lat, ride.pickup_lon, cab.lat, cab.lon) if cab.lat is not None else None
    audit = [{"permit": cab.permit.number, "cab_id": cab.pk, "source": "operator", "allowed": True, "reasons": []}]
    try:
        with transaction.atomic():  # a savepoint: a database error is caught outside an atomic block
            return _offer_open_ride(ride, Choice(cab, _("atribuição manual pelo operador"), audit, distance))
    except IntegrityError:  # one_pending_offer_per_cab
        raise DispatchError("cab_has_offer", _("Este táxi está respondendo a outra oferta; tente de novo em instantes.")) from None


def _close_offer(offer: Offer, status: str) -> bool:
    """Close a pending offer of a ride the caller locked; announced only if it was still pending."""
    if not Offer.objects.filter(pk=offer.pk, status=OfferStatus.PENDING).update(status=status, responded_at=timezone.now()):
        return False
    permit_id = Cab.objects.values_list("permit_id", flat=True).get(pk=offer.cab_id)
    events.announce(events.cab_group(permit_id), wire.OFFER_CLOSED(offer_id=offer.pk, status=status))
    return True


# --- answers to an offer -------------------------------------------------------------------------


def _offer_gone() -> DispatchError:
    return DispatchError("offer_gone", _("Esta oferta não está mais disponível."))


def _locked_ride_of_offer(offer_id: int, cab_id: int) -> Ride:
    """The ride of this cab's offer, locked first (the one lock order); the offer itself is checked after."""
    ride_id = Offer.objects.filter(pk=offer_id, cab_id=cab_id).values_list("ride_id", flat=True).first()
    ride = _lock_ride(ride_id) if ride_id is not None else None
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
                raise _offer_gone() if ride.cab_id == cab_id else _ride_closed(ride)  # a repeat of this cab's own accept
            taken = Offer.objects.filter(pk=offer_id, cab_id=cab_id, status=OfferStatus.PENDING, expires_at__gt=now).update(
                status=OfferStatus.ACCEPTED, responded_at=now
            )
            if not taken:
                raise _offer_gone()
            cab = Cab.objects.select_related("permit", "driver").get(pk=cab_id)
            won = Ride.objects.filter(pk=ride.pk, status=RideStatus.OFFERED).update(
                status=RideStatus.ACCEPTED, cab=cab, permit_id=cab.permit_id, driver_id=cab.driver_id,
                accepted_at=now, version=F("version") + 1, credentials=snapshots.credentials(cab.permit, cab.driver),
            )
            if not won:  # cannot happen while the ride's row is locked; kept as the conditional update's guard
                raise _offer_gone()
            Cab.objects.filter(pk=cab_id).update(status=CabStatus.EN_ROUTE)
            cab.status = CabStatus.EN_ROUTE
            rank_services.leave_rank(permit_id=cab.permit_id, at=now)
            ride = _fresh(ride.pk)
            _announce_ride(ride)
            events.announce(events.OPERATORS, wire.CAB_UPDATE(cab=snapshots.cab(cab)))
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
            if _lock_ride(ride_id, skip_locked=True) is None:
                continue
            if not _close_offer(Offer(pk=offer_id, cab_id=cab_id), OfferStatus.EXPIRED):  # accepted or withdrawn meanwhile
                continue
            offer_next(ride_id)
            count += 1
    return count


# --- the trip ----------------------------------------------------------------------------------


def _driver_ride(ride_id: int, cab_id: int, allowed: tuple) -> Ride:
    ride = _lock_ride(ride_id)
    if ride is None or ride.cab_id != cab_id:
        raise DispatchError("not_your_ride", _("Esta corrida não é deste táxi."))
    if ride.status not in allowed:
        raise DispatchError("wrong_state", _("A corrida está em “%(status)s”.") % {"status": ride.get_status_display()})
    return ride


def _advance(ride: Ride, status: str, stamp: str, **fields) -> Ride:
    """Move a ride the caller locked to ``status``, stamp the time, announce it on commit."""
    changes = {"status": status, "version": ride.version + 1, stamp: timezone.now(), **fields}
    for name, value in changes.items():
        setattr(ride, name, value)
    ride.save(update_fields=list(changes))
    _announce_ride(ride)
    return ride


@transaction.atomic
def ride_arriving(ride_id: int, cab_id: int) -> Ride:
    return _advance(_driver_ride(ride_id, cab_id, (RideStatus.ACCEPTED,)), RideStatus.ARRIVING, "arriving_at")


@transaction.atomic
def ride_on_board(ride_id: int, cab_id: int) -> Ride:
    ride = _advance(_driver_ride(ride_id, cab_id, (RideStatus.ACCEPTED, RideStatus.ARRIVING)), RideStatus.ON_BOARD, "on_board_at")
    _set_cab_status(cab_id, CabStatus.BUSY)
    return ride


@transaction.atomic
def ride_complete(ride_id: int, cab_id: int, meter_total: Decimal, trace: list[dict]) -> Ride:
    """The fare is the meter's total (Art. 43); the server recomputes the trace and records any disagreement.

    Sending it again for a ride already completed changes nothing and is not an error.
    """
    ride = _driver_ride(ride_id, cab_id, (RideStatus.ON_BOARD, RideStatus.COMPLETED))
    if ride.status == RideStatus.COMPLETED:
        return ride  # a repeat from a phone that missed the answer: recorded once, the first total stands
    ride = record_finished_trip(ride, meter_total=meter_total, trace=trace, stopped_at=timezone.now())
    _announce_ride(ride)
    _set_cab_status(cab_id, CabStatus.FREE)
    return ride


@transaction.atomic
def cancel_ride(ride_id: int, *, by: str, passenger: Passenger | None = None, reason: str = "") -> Ride:
    ride = _lock_ride(ride_id)
    if ride is None or (passenger is not None and ride.passenger_id != passenger.pk):
        raise DispatchError("not_your_ride", _("Esta corrida não é sua."))
    if ride.status == RideStatus.CANCELLED:
        raise _ride_closed(ride)
    if ride.status in (RideStatus.COMPLETED, RideStatus.ON_BOARD):
        raise DispatchError("wrong_state", _("A corrida está em “%(status)s” e não pode ser cancelada.") % {"status": ride.get_status_display()})
    for pending in ride.offers.filter(status=OfferStatus.PENDING):
        _close_offer(pending, OfferStatus.WITHDRAWN)
    if ride.cab_id:
        _set_cab_status(ride.cab_id, CabStatus.FREE)
        events.announce(events.cab_group(ride.permit_id), wire.RIDE_CANCELLED(ride_id=ride.pk))
    return _advance(ride, RideStatus.CANCELLED, "cancelled_at", cancelled_by=by, cancel_reason=reason)


@transaction.atomic
def driver_cancel(ride_id: int, cab_id: int, reason: str) -> tuple[int, str]:
    """The driver gives up the ride before boarding, for a reason the law core accepts (``taxilaw.cancellation``).

    The cancellation is recorded for DIMUTRAN's report (the offer log reads its reason) and the offer is marked; the
    cab is free again. A vehicle problem sends the ride to the next cab (never this one again: it has an offer
    of the ride); otherwise the ride ends. Returns the ride's id and ``reoffer`` or ``end``.
    """
    ride = _driver_ride(ride_id, cab_id, (*cancellation.BEFORE_BOARDING, RideStatus.ON_BOARD))
    now = timezone.now()
    wait = current_parameters().as_of("no_show_wait_minutes", timezone.localdate(now))
    require(cancellation.may_driver_cancel(cancellation.DriverCancelFacts(
        reason=reason, ride_status=ride.status, arrived_at=ride.arriving_at, now=now, no_show_wait_minutes=wait,
    )), "reason")
    step = cancellation.NEXT_STEP[cancellation.CancelReason(reason)]
    DriverCancellation.objects.create(
        ride=ride, permit_id=ride.permit_id, driver_id=ride.driver_id, reason=reason, ride_status=ride.status,
        waited_s=int((now - ride.arriving_at).total_seconds()) if ride.arriving_at else None,
        reoffered=step == cancellation.REOFFER,
    )
    ride.offers.filter(cab_id=cab_id, status=OfferStatus.ACCEPTED).update(status=OfferStatus.CANCELLED)
    _set_cab_status(cab_id, CabStatus.FREE)
    if step == cancellation.END:
        _advance(ride, RideStatus.CANCELLED, "cancelled_at", cancelled_by="driver", cancel_reason=reason)
        return ride.pk, step
    # Back to the queue of rides waiting for a cab: the passenger and the operators see it offered again.
    changes = {"status": RideStatus.REQUESTED, "version": ride.version + 1, "cab": None, "permit": None, "driver": None,
               "accepted_at": None, "arriving_at": None, "credentials": {}}
    for name, value in changes.items():
        setattr(ride, name, value)
    ride.save(update_fields=list(changes))
    _announce_ride(ride)
    offer_next(ride.pk)
    return ride.pk, step


def _set_cab_status(cab_id: int, status: str) -> None:
    """The cab's status as the ride moves it, told to the operators on commit like every other change."""
    Cab.objects.filter(pk=cab_id).update(status=status)
    cab = Cab.objects.select_related("permit", "driver").get(pk=cab_id)
    events.announce(events.OPERATORS, wire.CAB_UPDATE(cab=snapshots.cab(cab)))


def _fresh(ride_id: int) -> Ride:
    """The ride with what its snapshot reads (passenger, cab) in one query."""
    return Ride.objects.select_related("cab", "passenger").get(pk=ride_id)


def _announce_ride(ride: Ride, escalation: bool = False) -> None:
    body = snapshots.ride(ride)
    events.announce(events.ride_group(ride.pk), wire.RIDE_UPDATE(ride=body))
    events.announce(events.OPERATORS, (wire.ESCALATION if escalation else wire.RIDE_UPDATE)(ride=body))
