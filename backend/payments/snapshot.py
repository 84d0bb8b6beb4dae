"""A ride's payment as the console, the passenger page and the driver app receive it (docs/payments.md)."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist

from backend.trips.models import RideStatus
from taxilaw import pix
from taxilaw.split import METHOD_PIX

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
