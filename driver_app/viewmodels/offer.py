"""A dispatch offer: it rings and vibrates (the phone facade), shows the pickup, the distance, the passenger
(with a call button), the destination when given and the countdown; accept or decline with one tap.

It reads the wire's frames as the central sends them (``offer``, a ``snapshot``'s pending offer, ``offer_closed``)
and keeps the ``offer`` body (taxiwire.bodies.OFFER_BODY); it answers with ``offer_accept`` / ``offer_decline``."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Callable, Optional

from taxilaw.brazil import km_truncated
from taxiwire import inbound

from ..clients import DispatchClient
from ..formatting import mmss
from ..phone import DesktopPhone, Phone
from ..sound import OfferSound, RecordingSound
from .base import Observable
from .flag import DriverState, FlagViewModel


def distance_text(metres: float) -> str:
    return f"{int(metres)} m" if metres < 1000 else km_truncated(metres)


class OfferViewModel(Observable):
    accept_text = "Aceitar"
    decline_text = "Recusar"

    call_text = "Ligar"

    def __init__(self, dispatch: DispatchClient, flag: FlagViewModel, clock: Callable[[], datetime],
                 phone: Optional[Phone] = None, sound: Optional[OfferSound] = None):
        super().__init__()
        self.sound = sound or RecordingSound()  # rings and vibrates (driver_app/sound.py)
        self.dispatch = dispatch
        self.flag = flag
        self.clock = clock
        self.phone = phone or DesktopPhone()
        self.offer: Optional[dict[str, Any]] = None
        self.expires_at: Optional[datetime] = None
        self.received_at: Optional[datetime] = None
        self.outcome = ""  # accepted | declined | expired | cancelled
        self.last_pickup: Optional[dict[str, Any]] = None  # kept after accepting: the driver navigates to it

    def on_message(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "offer":
            self._offered(msg["offer"])
        elif kind == "snapshot" and msg.get("offer") and msg["offer"].get("status", "pending") == "pending":
            self._offered(msg["offer"])  # the offer still open after a reconnection
        elif kind == "offer_closed" and self.offer and msg.get("offer_id") == self.offer.get("id"):
            self._close("cancelled")

    def _offered(self, offer: dict[str, Any]) -> None:
        if self.offer is not None and offer.get("id") == self.offer.get("id"):
            return  # the same offer again (the snapshot after a reconnection)
        if self.flag.state != DriverState.LIVRE or self.offer is not None:
            self.dispatch.send(inbound.OFFER_DECLINE(offer_id=offer.get("id")))  # busy
            return
        self.offer = offer
        self.last_pickup = dict(offer.get("pickup") or {})
        self.received_at = self.clock()
        if offer.get("expires_at"):
            self.expires_at = datetime.fromisoformat(offer["expires_at"])
        else:
            self.expires_at = self.received_at + timedelta(seconds=20)
        self.outcome = ""
        self.sound.offer()
        self.changed()

    def _close(self, outcome: str) -> None:
        self.offer, self.expires_at, self.outcome = None, None, outcome
        self.changed()

    @property
    def active(self) -> bool:
        return self.offer is not None

    @property
    def seconds_left(self) -> float:
        if self.expires_at is None:
            return 0.0
        return max(0.0, (self.expires_at - self.clock()).total_seconds())

    def tick(self) -> None:
        """Call every second: an offer not answered in time is declined (``timeout``)."""
        if self.offer is not None and self.seconds_left <= 0:
            self.dispatch.send(inbound.OFFER_DECLINE(offer_id=self.offer["id"]))  # not answered in time
            self._close("expired")
        elif self.offer is not None:
            self.changed()

    def accept(self) -> bool:
        if self.offer is None or self.seconds_left <= 0:
            self.tick()
            return False
        self.dispatch.send(inbound.OFFER_ACCEPT(offer_id=self.offer["id"]))
        self.flag.to_pickup()
        self._close("accepted")
        return True

    def decline(self) -> None:
        if self.offer is None:
            return
        self.dispatch.send(inbound.OFFER_DECLINE(offer_id=self.offer["id"]))
        self._close("declined")

    def call_passenger(self) -> bool:
        phone = self.passenger.get("phone")
        if not phone:
            return False
        self.phone.call(phone)
        return True

    @property
    def pickup_point(self) -> Optional[tuple[float, float, str]]:
        """(lat, lon, address) of the offered pickup, or of the last one accepted; None without coordinates."""
        p = (self.offer or {}).get("pickup") or (self.last_pickup if self.outcome == "accepted" else None) or {}
        if p.get("lat") is None or p.get("lon") is None:
            return None
        return float(p["lat"]), float(p["lon"]), str(p.get("address", ""))

    def navigate(self) -> bool:
        """Hand the pickup to the phone's navigation app (``Phone.navigate``: a ``geo:`` intent)."""
        point = self.pickup_point
        return bool(point) and self.phone.navigate(*point)

    # -- display ------------------------------------------------------------------------

    @property
    def passenger(self) -> dict[str, Any]:
        return dict((self.offer or {}).get("passenger") or {})

    @property
    def passenger_text(self) -> str:
        name = self.passenger.get("name")
        return f"Passageiro: {name}" if name else ""

    @property
    def can_call(self) -> bool:
        return bool(self.passenger.get("phone"))

    @property
    def destination_text(self) -> str:
        destination = (self.offer or {}).get("destination") or {}
        return f"Destino: {destination['address']}" if destination.get("address") else ""

    @property
    def pickup_text(self) -> str:
        if not self.offer:
            return "Nenhuma chamada"
        p = self.offer.get("pickup") or {}
        ref = p.get("reference")
        address = p.get("address") or f"{p.get('lat', 0):.5f}, {p.get('lon', 0):.5f}"  # a pickup given as a point
        return address + (f" ({ref})" if ref else "")

    @property
    def distance_text(self) -> str:
        if not self.offer:
            return ""
        return f"{distance_text(float(self.offer.get('distance_m') or 0))} até o passageiro"

    @property
    def countdown_text(self) -> str:
        return mmss(self.seconds_left) if self.offer else ""

    @property
    def progress(self) -> float:
        if not self.offer or self.received_at is None or self.expires_at is None:
            return 0.0
        total = (self.expires_at - self.received_at).total_seconds()
        return 0.0 if total <= 0 else min(1.0, self.seconds_left / total)
