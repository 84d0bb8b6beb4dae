"""Where the cab must be for the driver's word about the pickup to count (Art. 1, X; Art. 9, VII).

"Cheguei" tells the passenger the taxi is waiting, and starts the wait after which the driver may record the
passenger absent (``taxilaw.cancellation``): an absence recorded by a driver who never came is a refusal of the
service passed off as the passenger's fault (lock-out, Art. 1, X; a ground of revocation, Art. 9, VII). Both
acts are judged against the cab's last position known to the server, within ``arrival_radius_m`` (a dated
parameter; the reading is in docs/readings-dispatch.md). Django-free: the distance is computed by the caller.
"""

from __future__ import annotations

from typing import Optional

from .decision import Decision, Reason
from .i18n import gettext_noop as _

ARTICLES = ("Art. 1, X", "Art. 9, VII")


def at_pickup(distance_m: Optional[float], radius_m: float) -> Decision:
    """Is the cab at the pickup? Refused without a known position or farther than ``radius_m`` (Art. 1, X; Art. 9, VII)."""
    if distance_m is None:
        return Decision.refuse(Reason(
            "Art. 1, X", "arrival_without_position",
            _("A central ainda não recebeu a posição do táxi (GPS); ligue a localização e tente de novo (Art. 1, X)."),
        ))
    if distance_m > radius_m:
        return Decision.refuse(Reason(
            "Art. 1, X", "away_from_pickup",
            _("O táxi está a {distance} m do local de embarque; a chegada e a ausência do passageiro só são "
              "registradas a até {radius} m dele (Art. 1, X; Art. 9, VII)."),
            {"distance": int(round(distance_m)), "radius": int(radius_m)},
        ))
    return Decision.allow(*ARTICLES)
