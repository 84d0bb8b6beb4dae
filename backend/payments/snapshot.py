"""A ride's payment as the console, the passenger page and the driver app receive it (docs/payments.md)."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.utils.translation import gettext as _

from backend.trips.models import RideStatus
from taxilaw import pix
from taxilaw.settlement import METHOD_PIX, check_charge

#: The city on every BR Code (field 60): the fares are collected in Muriaé.
MERCHANT_CITY = "MURIAE"


def txid(ride_id: int) -> str:
    """The BR Code's txid (62/05) of a ride's fare: the receiver's bank statement names the ride."""
    return f"CORRIDA{ride_id}"


def payment(ride) -> dict | None:
    """``{method, method_display, collector, receiver, amount, pix?}`` of a completed ride, or ``None``.

    ``pix`` is the BR Code (the "Pix copia e cola") of a fare paid by Pix, ``pix_qr`` its QR code (SVG data URI).
    """
    if ride.status != RideStatus.COMPLETED:
        return None
    try:
        paid = ride.payment
    except ObjectDoesNotExist:
        return None
    body = {"method": paid.method, "method_display": str(paid.get_method_display()), "collector": paid.collector,
            "receiver": paid.receiver.full_name, "amount": str(paid.amount)}
    if paid.method == METHOD_PIX:
        body["pix"] = pix.static_pix(paid.pix_key, paid.receiver.full_name, MERCHANT_CITY, paid.amount,
                                     txid=txid(ride.pk))
        body["pix_qr"] = pix.qr_data_uri(body["pix"])
    return body


def fare_review(ride) -> dict | None:
    """``{code, title, message}`` while a completed ride's fare waits for DIMUTRAN's review, else ``None``.

    Such a fare is not charged (``taxilaw.settlement.check_charge``): the passenger page and the driver app show
    "Valor em revisão" and what happens next instead of a BR Code; the payment is recorded after the decision."""
    if ride.status != RideStatus.COMPLETED:
        return None
    decision = check_charge(ride.fare_held)
    if decision.allowed:
        return None
    return {"code": decision.reasons[0].code, "title": _("Valor em revisão"),
            "message": _("A DIMUTRAN está conferindo o valor registrado pelo taxímetro. Não pague agora: quando a "
                         "conferência terminar, o valor a pagar aparece aqui e o motorista registra o pagamento.")}
