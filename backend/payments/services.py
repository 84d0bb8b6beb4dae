"""Recording how a fare was paid, and the static Pix charge of a ride (docs/payments.md).

Data flows one way: the API (``dispatch.payments``) asks :func:`record_payment`, which asks the law core
(``taxilaw.settlement.check_payment`` and ``payment_collector``) and writes the payment once; the API then announces
the ride to its passenger and the operators.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils import timezone

from backend.api_errors import require
from backend.registry.models import Auxiliary, Person
from backend.trips.models import Ride, RideStatus
from taxilaw import pix, settlement
from taxilaw.settlement import (
    METHOD_CARD,
    METHOD_PIX,
    PIX_TO_DRIVER,
    PIX_TO_HOLDER,
    check_charge,
    check_payment,
    payment_collector,
)

from .models import PixKey, RidePayment
from .snapshot import MERCHANT_CITY, txid


def register_pix_key(person: Person, kind: str, key: str) -> PixKey:
    """Register (or replace) ``person``'s Pix key, validated and normalised by kind (``taxilaw.pix.check_key``)."""
    check = pix.check_key(kind, key)
    require(check.decision, "key")
    require(pix.check_receiver_name(person.full_name), "key")  # the BR Code's field 59 is built from the name
    pix_key, _created = PixKey.objects.update_or_create(person=person, defaults={"kind": kind, "key": check.key})
    return pix_key


def authorization_of(ride: Ride) -> Auxiliary | None:
    """The auxiliary authorization under which the ride's driver drove its permit, if they are an auxiliary."""
    if ride.permit is None or ride.driver_id == ride.permit.holder_id:
        return None
    return (Auxiliary.objects.filter(permit_id=ride.permit_id, person_id=ride.driver_id)
            .order_by("-authorized_on", "-pk").first())


def pix_receiver_of(ride: Ride) -> Person:
    """Whose Pix key receives the ride's fare: the driver's, or the holder's when the authorization says so."""
    aux = authorization_of(ride)
    if aux is not None and aux.pix_receiver == PIX_TO_HOLDER and ride.permit.holder_id:
        return ride.permit.holder
    return ride.driver


def pix_terms(person: Person) -> dict | None:
    """The Pix key that receives the fares ``person`` drives now, for the app to build BR Codes offline."""
    from backend.registry.selectors import driven_permit

    permit, role = driven_permit(person)
    if permit is None:
        return None
    receiver = person
    aux = (Auxiliary.objects.filter(permit=permit, person=person, status=Auxiliary.Status.ACTIVE).first()
           if permit.holder_id != person.pk else None)
    if aux is not None and aux.pix_receiver == PIX_TO_HOLDER and permit.holder_id:
        receiver = permit.holder
    key = PixKey.objects.filter(person=receiver).first()
    return {"key": key.key if key else None, "receiver": receiver.full_name, "city": MERCHANT_CITY,
            "receiver_is_holder": receiver.pk == permit.holder_id}


@dataclass(frozen=True)
class PixCharge:
    """The static Pix of a ride's fare: the BR Code (the "Pix copia e cola") and who receives it."""

    payload: str
    key: str
    receiver_name: str
    amount: Decimal

    def as_dict(self) -> dict:
        return {"payload": self.payload, "key": self.key, "receiver": self.receiver_name, "amount": str(self.amount)}


def pix_charge(ride: Ride) -> PixCharge | None:
    """The BR Code for the ride's fare on the receiver's key; ``None`` without a fare or a key.

    A fare held for DIMUTRAN's review is refused with its pt-BR reason (``taxilaw.settlement.check_charge``)."""
    require(check_charge(ride.fare_held), "ride")
    receiver = pix_receiver_of(ride) if ride.driver_id else None
    key = PixKey.objects.filter(person=receiver).first() if receiver else None
    if key is None or not ride.fare or ride.fare <= 0:
        return None
    payload = pix.static_pix(key.key, receiver.full_name, MERCHANT_CITY, ride.fare, txid=txid(ride.pk))
    return PixCharge(payload, key.key, receiver.full_name, ride.fare)


def record_payment(ride_id: int, by: Person, method: str, *, card_machine: str = PIX_TO_DRIVER,
                   now: datetime | None = None) -> RidePayment:
    """Record once how the driver says the fare of a completed ride was paid, and who received it.

    Refused with a pt-BR reason: a ride not driven by ``by`` (404 for the API), not completed, already paid, a
    fare held for DIMUTRAN's review (``check_charge``), a method it cannot have (``check_payment``), or a ride
    already counted by a closed statement: its settlement is closed (docs/readings-statements.md). A ride of a
    closed week not counted yet (a late ride) may be paid: the next closing carries it with its payment. The
    ride's row lock is the one the weekly closing takes before it reads the payments (``statements.services``).
    """
    now = now or timezone.now()
    try:
        with transaction.atomic():
            ride = (Ride.objects.select_for_update(of=("self",)).select_related("permit", "permit__holder", "driver")
                    .filter(pk=ride_id, driver=by).first())
            require(settlement.ride_payable(ride is not None, ride is not None and ride.status == RideStatus.COMPLETED),
                    "ride")
            require(settlement.payment_not_recorded(RidePayment.objects.filter(ride=ride).exists()), "ride")
            require(check_charge(ride.fare_held), "ride")  # held for DIMUTRAN's review: not paid until decided
            require(settlement.ride_not_counted(hasattr(ride, "statement_entry")), "ride")
            driver_is_holder = ride.permit is not None and ride.driver_id == ride.permit.holder_id
            if method == METHOD_PIX:
                receiver = pix_receiver_of(ride)
            elif method == METHOD_CARD and card_machine == PIX_TO_HOLDER and ride.permit and ride.permit.holder_id:
                receiver = ride.permit.holder
            else:
                receiver = ride.driver
            key = PixKey.objects.filter(person=receiver).first()
            require(check_payment(method, ride.fare, card_machine=card_machine, receiver_has_key=key is not None),
                    "method")
            aux = authorization_of(ride)
            collector = payment_collector(method, driver_is_holder=driver_is_holder or ride.permit is None,
                                          pix_receiver=aux.pix_receiver if aux else PIX_TO_DRIVER,
                                          card_machine=card_machine)
            payment = RidePayment.objects.create(
                ride=ride, method=method, collector=collector, receiver=receiver,
                pix_key=key.key if method == METHOD_PIX else "", amount=ride.fare or Decimal("0.00"),
                recorded_at=now, recorded_by=by)
            return payment  # the caller announces the ride (dispatch.payments), after the commit
    except IntegrityError:
        require(settlement.payment_not_recorded(True), "ride")
        raise  # pragma: no cover - require raised

