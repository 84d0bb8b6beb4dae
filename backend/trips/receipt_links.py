"""The signed link to a ride's receipt (the screen and the PDF), kept with the trip record so that the ride's
admin links to its receipt without importing the receipts app above it; ``backend.receipts.receipts`` re-exports
these names and renders what a link shows."""

from __future__ import annotations

from django.core import signing
from django.urls import reverse
from django.utils import timezone

SALT = "backend.receipts.link"


def link_token(ride_id: int) -> str:
    """A receipt's link, like the one a radio-taxi central e-mails: whoever holds it reads that receipt only.

    The token is signed with the time it was made (``signing.dumps``): it works for ``receipt_link_days``.
    """
    return signing.dumps(ride_id, salt=SALT, compress=False)


def link_days(now=None) -> int:
    from backend.parameters.selectors import current_parameters

    return int(current_parameters().as_of("receipt_link_days", timezone.localdate(now)))


def ride_id_from(token: str, now=None) -> int | None:
    """The ride a link names, or ``None`` when it is forged or older than ``receipt_link_days``."""
    try:
        value = signing.loads(token, salt=SALT, max_age=link_days(now) * 86400)
    except signing.BadSignature:  # SignatureExpired is one
        return None
    return value if isinstance(value, int) else None


def linkable(ride) -> bool:
    """Whether a link may show the ride: completed, and not of a passenger who erased their data (LGPD: the
    links they were given are revoked with their token)."""
    return ride.status == "completed" and not (ride.passenger_id and ride.passenger.anonymised_at)


def links(ride) -> dict:
    token = link_token(ride.pk)
    return {"screen": reverse("receipt-page", args=[token]), "pdf": reverse("receipt-pdf", args=[token])}
