"""The end of a trip: how the passenger pays (dinheiro, Pix, cartão), with the Pix QR code of the fare.

The fare is the meter's total (Art. 43). The BR Code is built here, offline too, with ``taxilaw.pix`` on the
key the authorization names (``pix_terms``, cached in ``pix_terms.json`` at login); the method goes to
``payment_queue.json`` and is sent (``POST /api/rides/<id>/payment/``) once the central has recorded the trip
(:meth:`PaymentViewModel.on_trip_confirmed`: a dispatched ride completed, a street or ponto trip given its
number), since only a completed ride can be paid. A refusal is shown and the entry dropped; offline it waits.
The terms and the payments are sent off the UI thread (``Background``), one payment in flight at a time.

A fare the central holds for DIMUTRAN's review (the answer's ``fare_held``, Art. 43) is not charged
(``taxilaw.settlement.check_charge``): the screen says "Valor em revisão", withdraws a QR already shown, drops the
trip's queued payment and records none; the server refuses one all the same (``payment_fare_held``).

A payment screen that was missed (closed, the app killed) is reopened from the week's rides
(:meth:`PaymentViewModel.reopen`: a ride the central numbered, its fare); the server decides whether it may still
be recorded (not once a closed statement counted it: ``payment_week_closed``). Each recorded or refused payment
calls ``on_answered`` (the session reloads the Partilha, so "Você recebeu" and the ride's line follow at once).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Callable, Optional

from taxilaw import pix
from taxilaw.brazil import brl
from taxilaw.settlement import METHOD_CARD, METHOD_CASH, METHOD_PIX, check_charge

from ..background import Background
from ..clients import PaymentsClient, RejectedError
from ..storage import JsonStore
from .base import Observable

TERMS_FILE = "pix_terms"
QUEUE_FILE = "payment_queue"
METHOD_TEXTS = {METHOD_CASH: "Dinheiro", METHOD_PIX: "Pix", METHOD_CARD: "Cartão"}
REVIEW_TEXT = "Valor em revisão pela DIMUTRAN: não cobre o passageiro agora."


class PaymentViewModel(Observable):
    title = "Pagamento da corrida"

    def __init__(self, store: JsonStore, payments: PaymentsClient, token: Callable[[], Optional[str]] = lambda: None,
                 background: Optional[Background] = None):
        super().__init__()
        self.store = store
        self.payments = payments
        self.token = token
        self.background = background or Background()
        self.terms: dict[str, Any] = store.load(TERMS_FILE, {}) or {}
        self.queue: list[dict[str, Any]] = list(store.load(QUEUE_FILE, []) or [])
        self.fare: Optional[Decimal] = None
        self.trip_id: Optional[str] = None
        self.ride_id: Optional[int] = None
        self.method: Optional[str] = None
        self.pix_payload = ""
        self.message = ""
        self.numbered: dict[str, int] = {}  # trip_id -> ride number of the trips the central recorded
        self.sending: Optional[dict[str, Any]] = None  # the queue entry handed to the client, its answer not back
        self.under_review = False  # the central holds this trip's fare for DIMUTRAN's review: nothing is charged
        self.on_answered: Callable[[], None] = lambda: None  # a payment recorded or refused: the Partilha reloads

    # -- terms ----------------------------------------------------------------------------------

    def load_terms(self) -> None:
        """Whose Pix key receives the fares (the authorization's term), asked off the UI thread; the last answer
        is kept for offline (and kept as it is when the server cannot be asked)."""
        token = self.token() or ""
        self.background.run(lambda: self.payments.pix_terms(token), self._terms, lambda _exc: None)

    def _terms(self, terms: Optional[dict[str, Any]]) -> None:
        self.terms = terms or {}
        self.store.save(TERMS_FILE, self.terms)
        self.changed()

    # -- the trip that ended --------------------------------------------------------------------

    def begin(self, fare: Decimal, trip_id: str, ride_id: Optional[int] = None) -> None:
        """A trip ended with this fare: ask how it is paid."""
        self.fare, self.trip_id = Decimal(str(fare)), trip_id
        self.ride_id = ride_id or self.numbered.get(trip_id)
        self.method, self.pix_payload, self.message, self.under_review = None, "", "", False
        self.changed()

    def reopen(self, ride_id: int, fare: Decimal) -> None:
        """The payment of a ride the central recorded, asked again from the week's rides (its screen was missed)."""
        trip_id = f"ride-{int(ride_id)}"
        self.numbered = {**self.numbered, trip_id: int(ride_id)}
        self.begin(fare, trip_id, int(ride_id))

    @property
    def reopened(self) -> bool:
        """The payment was asked again from the week's rides, not at the end of a trip."""
        return str(self.trip_id or "").startswith("ride-")

    @property
    def pending(self) -> bool:
        """A trip ended and its payment is not chosen yet (nor held for DIMUTRAN's review)."""
        return self.fare is not None and self.method is None and not self.under_review

    def choose(self, method: str, card_machine: str = "driver") -> None:
        """Record the method (queued; sent when the ride has its number on the server); Pix shows the QR."""
        if self.fare is None or method not in METHOD_TEXTS:
            return
        if self.under_review:
            self.message = check_charge(True).reasons[0].message
            self.changed()
            return
        if method == METHOD_PIX:
            if not self.terms.get("key"):
                self.message = ("Sem chave Pix cadastrada para receber esta corrida: cadastre a sua em "
                                "\"Chave Pix\" ou escolha outra forma.")
                self.changed()
                return
            if self.fare <= 0:
                self.message = "Corrida sem valor: não há Pix a cobrar."
                self.changed()
                return
            txid = f"CORRIDA{self.ride_id}" if self.ride_id else pix.NO_TXID
            self.pix_payload = pix.static_pix(self.terms["key"], self.terms.get("receiver", ""),
                                              self.terms.get("city", "MURIAE"), self.fare, txid=txid)
        self.method = method
        self.queue.append({"trip_id": self.trip_id, "ride_id": self.ride_id, "method": method,
                           "card_machine": card_machine, "recorded": self.trip_id in self.numbered})
        self.store.save(QUEUE_FILE, self.queue)
        self.message = ""
        self.flush()
        self.changed()

    def on_trip_confirmed(self, trip: dict[str, Any], answer: Optional[dict[str, Any]]) -> None:
        """The central recorded the trip: a street or ponto trip now has its ride number."""
        ride_id = (answer or {}).get("ride_id") or trip.get("ride_id")
        if not ride_id:
            return
        if (answer or {}).get("fare_held"):
            self._held(trip.get("trip_id"), answer["fare_held"])
        self.numbered = {**dict(list(self.numbered.items())[-49:]), trip.get("trip_id"): ride_id}
        if self.trip_id == trip.get("trip_id") and not self.ride_id:
            self.ride_id = ride_id
        for entry in self.queue:
            if entry["trip_id"] == trip.get("trip_id"):
                entry["ride_id"], entry["recorded"] = entry.get("ride_id") or ride_id, True
        self.store.save(QUEUE_FILE, self.queue)
        self.flush()

    def _held(self, trip_id: Optional[str], reasons: list[dict[str, Any]]) -> None:
        """The central holds the trip's fare for DIMUTRAN's review: its payment is not recorded nor its QR shown."""
        self.queue = [e for e in self.queue if e["trip_id"] != trip_id]
        self.store.save(QUEUE_FILE, self.queue)
        if self.trip_id == trip_id:
            self.under_review, self.method, self.pix_payload = True, None, ""
            self.message = str(reasons[0].get("message", "")) if reasons else ""
        self.changed()

    def flush(self) -> None:
        """Send the queued payments whose trip the central recorded, in order, one at a time off the UI thread;
        each answer sends the next. Offline (or an error of the server) the queue waits for the next flush."""
        if self.sending is not None:
            return
        entry = next((e for e in self.queue if e.get("ride_id") and e.get("recorded")), None)
        if entry is None:
            return
        self.sending = entry
        self.changed()
        token, ride_id = self.token() or "", int(entry["ride_id"])
        self.background.run(
            lambda: self.payments.record(token, ride_id, entry["method"], entry.get("card_machine", "driver")),
            lambda _answer: self._answered(entry, None), lambda exc: self._answered(entry, exc))

    def _answered(self, entry: dict[str, Any], error: Optional[Exception]) -> None:
        """The answer to the payment in flight, on the UI thread: recorded or refused, it leaves the queue."""
        self.sending = None
        if error is not None and not isinstance(error, RejectedError):
            self.changed()  # no network, the server failed: it stays queued
            return
        # already recorded: sent before, its answer lost; nothing to tell
        if isinstance(error, RejectedError) and error.code != "payment_already_recorded":
            self.message = error.message or error.code
        self.queue = [e for e in self.queue if e is not entry]
        self.store.save(QUEUE_FILE, self.queue)
        self.changed()
        self.on_answered()
        self.flush()

    def done(self) -> None:
        """Back to the meter: the payment screen closes."""
        self.fare, self.method, self.pix_payload, self.under_review = None, None, "", False
        self.changed()

    # -- display ---------------------------------------------------------------------------------

    @property
    def fare_text(self) -> str:
        return brl(self.fare) if self.fare is not None else ""

    @property
    def method_text(self) -> str:
        if self.under_review:
            return REVIEW_TEXT
        return f"Pagamento: {METHOD_TEXTS[self.method]}" if self.method else "Como o passageiro vai pagar?"

    @property
    def receiver_text(self) -> str:
        if self.method != METHOD_PIX:
            return ""
        whose = " (permissionário)" if self.terms.get("receiver_is_holder") else ""
        return f"Pix para {self.terms.get('receiver', '')}{whose}"

    @property
    def can_register_key(self) -> bool:
        """No key receives this driver's Pix, and the key would be his own (not the holder's, by the authorization)."""
        return not self.terms.get("key") and not self.terms.get("receiver_is_holder")

    @property
    def queue_text(self) -> str:
        waiting = len(self.queue)
        if self.sending is not None:
            return "Enviando o pagamento à central…" + (f" (+{waiting - 1} na fila)" if waiting > 1 else "")
        return f"{waiting} pagamento(s) aguardando envio à central" if waiting else ""

    def qr_png(self) -> bytes:
        """The QR code of the BR Code as PNG bytes (empty without a Pix)."""
        return pix.qr_png(self.pix_payload, scale=6) if self.pix_payload else b""
