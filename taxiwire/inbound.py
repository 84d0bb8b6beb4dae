"""Every frame a client may send, declared once: the server checks what it receives against these declarations
(``dispatch.protocol`` builds its checks from them, with the pt-BR messages of its framework), and every client
builds what it sends by calling one (``inbound.OFFER_ACCEPT(offer_id=7)``), which checks the field names.

A field is an :class:`In`: its kind (``KINDS``), whether it may be left out or be null, its default and its limits.
The limits are the protocol's (a trace of at most 10 000 fixes, a broadcast of at most 500 characters): the server
refuses more, and a client may read them (the driver app thins a longer trace).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union

from .bodies import ACCESSIBILITY_NEEDS, CANCEL_REASONS
from .outbound import (
    ASSIGNED,
    BROADCAST_SENT,
    DRIVER_ROLE,
    OFFER_ACCEPTED,
    OFFER_DECLINED,
    OPERATOR_ROLE,
    PASSENGER_ROLE,
    PASSENGER_SNAPSHOT,
    PONG,
    RANK_CHECKED_IN,
    RANK_CHECKED_OUT,
    RIDE_CANCELLED,
    RIDE_CREATED,
    RIDE_UPDATE,
    RIDE_UPDATED,
    STREET_TRIP_RECORDED,
    Frame,
)
from .outbound import (
    STATUS as STATUS_ANSWER,
)
from .shapes import ContractError

#: the kinds of an inbound field: ``decimal`` is money as a string with at most 10 digits and 2 decimals
#: ("12.30"); ``aware_datetime`` an ISO 8601 instant with its UTC offset; ``place`` a point with its address,
#: inside the municipality (``{lat, lon, address?}``); ``list`` holds ``item`` (a field, or an object's fields)
KINDS = ("int", "number", "decimal", "string", "datetime", "aware_datetime", "uuid", "choice", "place", "list")
REQUIRED: Any = object()  # no default: the field must be sent


@dataclass(frozen=True)
class In:
    """One field of an inbound frame."""

    kind: str
    required: bool = True
    null: bool = False
    default: Any = REQUIRED  # a value, or a function making it (``list``); implies not required
    low: float | None = None  # numbers: the least value
    high: float | None = None
    max_length: int | None = None  # strings: characters; lists: items
    min_length: int | None = None
    blank: bool = False  # strings: may be empty
    choices: tuple = ()
    item: Union["In", dict, None] = None  # lists: what each item is

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ContractError(f"unknown field kind {self.kind!r}")

    @property
    def optional(self) -> bool:
        return not self.required or self.default is not REQUIRED

    def describe(self) -> str:
        """The field's kind as the protocol document writes it."""
        if self.kind == "choice":
            return " | ".join(self.choices)
        if self.kind == "list":
            inner = self.item.describe() if isinstance(self.item, In) else "object"
            return f"[{inner}]"
        return {"number": "number", "aware_datetime": "ISO datetime with offset", "datetime": "ISO datetime",
                "decimal": "decimal string"}.get(self.kind, self.kind)


@dataclass(frozen=True, eq=False)
class InFrame:
    """One inbound frame type."""

    type: str
    fields: dict = field(default_factory=dict)
    doc: str = ""
    since: str = "1.0"

    def __call__(self, **values: Any) -> dict:
        """The frame with these fields; a required field missing or an unknown one is a client bug."""
        missing = {name for name, spec in self.fields.items() if not spec.optional} - values.keys()
        extra = values.keys() - self.fields.keys()
        if missing or extra:
            raise ContractError(f"{self.type}: missing {sorted(missing)}, unexpected {sorted(extra)}")
        return {"type": self.type, **values}


def _positive_id() -> In:
    return In("int", low=1)


LAT, LON = In("number", low=-90, high=90), In("number", low=-180, high=180)
MAX_TRACE_FIXES = 10000  # 5.5 h at one fix every 2 s
#: one GPS fix of a trace; ``accuracy_m`` in metres
FIX = {"t": In("datetime"), "lat": LAT, "lon": LON, "accuracy_m": In("number", low=0, required=False, null=True)}
MONEY = In("decimal", low=0)
DRIVER_STATUSES = ("livre", "ocupado", "fora_de_servico")  # ocupado: a street or ponto passenger

PING = InFrame("ping")
POSITION = InFrame("position", {"lat": LAT, "lon": LON, "accuracy": In("number", low=0, required=False, null=True)},
                   "the cab's fix, every few seconds; `accuracy` in metres")
STATUS = InFrame("status", {"status": In("choice", choices=DRIVER_STATUSES)},
                 "the driver's choice; `a_caminho` and `ocupado` of a dispatched ride are set by the server")
RANK_CHECK_IN = InFrame("rank_check_in", {"rank_id": _positive_id()})
RANK_CHECK_OUT = InFrame("rank_check_out")
OFFER_ACCEPT = InFrame("offer_accept", {"offer_id": _positive_id()})
OFFER_DECLINE = InFrame("offer_decline", {"offer_id": _positive_id()})
RIDE_ARRIVING = InFrame("ride_arriving", {"ride_id": _positive_id()})
RIDE_ON_BOARD = InFrame("ride_on_board", {"ride_id": _positive_id()})
RIDE_COMPLETE = InFrame("ride_complete", {"ride_id": _positive_id(), "meter_total": MONEY,
                                          "trace": In("list", item=FIX, max_length=MAX_TRACE_FIXES)})
STREET_TRIP_COMPLETE = InFrame("street_trip_complete", {
    "trip_id": In("uuid"),  # generated by the phone; echoed in the answer
    "started_at": In("aware_datetime"),  # the phone's clock, with its UTC offset: there is no server time to use
    "stopped_at": In("aware_datetime", required=False, null=True, default=None),  # default: the last fix
    "meter_total": MONEY,
    "trace": In("list", item=FIX, min_length=1, max_length=MAX_TRACE_FIXES),  # first fix: the pickup, last: drop-off
}, "a street-hail or rank trip (no dispatched ride), sent when it ends or later from the offline queue", since="1.1")
DRIVER_RIDE_CANCEL = InFrame("ride_cancel", {"ride_id": _positive_id(), "reason": In("choice", choices=CANCEL_REASONS.values)},
                             "the driver gives the ride up before boarding, with one of the law's reasons", since="1.4")

AUTH = InFrame("auth", {"token": In("string", max_length=128)})
_RIDE_REQUEST_FIELDS = {
    "pickup": In("place"), "destination": In("place", required=False, null=True),
    # 1.6: the vehicle must have these (taxilaw.accessibility): a wheelchair, a child seat
    "needs": In("list", item=In("choice", choices=ACCESSIBILITY_NEEDS.values), required=False, default=list,
                max_length=len(ACCESSIBILITY_NEEDS.values)),
}
RIDE_REQUEST = InFrame("ride_request", _RIDE_REQUEST_FIELDS)
RIDE_CANCEL = InFrame("ride_cancel", {"ride_id": _positive_id(),
                                      "reason": In("string", max_length=255, required=False, blank=True, default="")})

RIDE_CREATE = InFrame("ride_create", {**_RIDE_REQUEST_FIELDS, "caller_name": In("string", max_length=120),
                                      "caller_phone": In("string", max_length=20)})
RIDE_ASSIGN = InFrame("ride_assign", {"ride_id": _positive_id(), "permit_id": _positive_id()})
BROADCAST = InFrame("broadcast", {"text": In("string", max_length=500)})

# What each role may send.
INBOUND: dict[str, dict[str, InFrame]] = {
    DRIVER_ROLE: {f.type: f for f in (PING, POSITION, STATUS, RANK_CHECK_IN, RANK_CHECK_OUT, OFFER_ACCEPT, OFFER_DECLINE,
                                      RIDE_ARRIVING, RIDE_ON_BOARD, RIDE_COMPLETE, STREET_TRIP_COMPLETE,
                                      DRIVER_RIDE_CANCEL)},
    PASSENGER_ROLE: {f.type: f for f in (PING, AUTH, RIDE_REQUEST, RIDE_CANCEL)},
    OPERATOR_ROLE: {f.type: f for f in (PING, RIDE_CREATE, RIDE_ASSIGN, RIDE_CANCEL, BROADCAST)},
}

# The frame that answers each inbound frame on the sender's own connection (None: none of its own; what
# changed reaches the sender as an announcement, e.g. ``ride_update`` after ``ride_cancel``). A refusal is an ``error``.
ANSWERS: dict[str, dict[str, Frame | None]] = {
    DRIVER_ROLE: {
        "ping": PONG, "position": None, "status": STATUS_ANSWER, "rank_check_in": RANK_CHECKED_IN,
        "rank_check_out": RANK_CHECKED_OUT, "offer_accept": OFFER_ACCEPTED, "offer_decline": OFFER_DECLINED,
        "ride_arriving": RIDE_UPDATED, "ride_on_board": RIDE_UPDATED, "ride_complete": RIDE_UPDATED,
        "street_trip_complete": STREET_TRIP_RECORDED, "ride_cancel": RIDE_CANCELLED,
    },
    PASSENGER_ROLE: {"ping": PONG, "auth": PASSENGER_SNAPSHOT, "ride_request": RIDE_UPDATE, "ride_cancel": None},
    OPERATOR_ROLE: {"ping": PONG, "ride_create": RIDE_CREATED, "ride_assign": ASSIGNED, "ride_cancel": None,
                    "broadcast": BROADCAST_SENT},
}


