"""The wire contract: every websocket frame, in and out, for every role (docs/dispatch-protocol.md).

Inbound frames are validated by ``dispatch.protocol`` (``parse``, ``INBOUND``), re-exported here.
Outbound frames are declared below as :class:`Frame` objects; every sender builds its frame by
calling one (``wire.OFFER(offer=...)``), which checks the field names, so no dict literal of a
frame lives anywhere else. :func:`validate` checks a whole frame, nested shapes included (the
contract test runs it over every frame an action sends); ``tools/protocol_table.py`` writes the
protocol document's tables from these declarations.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

_INBOUND = ("INBOUND", "MAX_FRAME_BYTES", "VERSION", "ProtocolError", "parse")


def __getattr__(name: str):
    """The inbound half (``dispatch.protocol``), imported when first used: the outbound half is imported
    before Django is set up (``dispatch.events`` in an offering worker), the inbound one needs DRF."""
    if name in _INBOUND:
        from . import protocol

        return getattr(protocol, name)
    raise AttributeError(name)


class ContractError(AssertionError):
    """A frame that does not match its declaration (a server bug, never a client's)."""


# --- shapes: a field's value is one of these -----------------------------------------------------


@dataclass(frozen=True)
class Nullable:
    inner: Any

    def __str__(self):
        return f"{_name(self.inner)} | null"


@dataclass(frozen=True)
class ListOf:
    inner: Any

    def __str__(self):
        return f"[{_name(self.inner)}]"


@dataclass(frozen=True)
class OneOf:
    values: tuple

    def __str__(self):
        return " | ".join(f"`{v}`" for v in self.values)


@dataclass(frozen=True)
class Shape:
    """A nested object: ``fields`` always present, ``optional`` present or not."""

    name: str
    fields: dict
    optional: dict = field(default_factory=dict)

    def __hash__(self):
        return hash(self.name)

    def __str__(self):
        return self.name


def _name(spec) -> str:
    return {str: "string", int: "int", float: "number", bool: "bool", dict: "object"}.get(spec, None) or str(spec)


DECIMAL = "decimal string"  # money, "12.30"
DATETIME = "ISO datetime"
RIDE_STATUSES = OneOf(("requested", "offered", "accepted", "arriving", "on_board", "completed", "cancelled"))
CAB_STATUSES = OneOf(("livre", "a_caminho", "ocupado", "fora_de_servico"))

POINT = Shape("point", {"lat": float, "lon": float, "address": str})
LATLON = Shape("latlon", {"lat": float, "lon": float})
CVI = Shape("cvi", {"plate": str, "make": str, "model": str, "colour": str, "permit": str})
DRIVER = Shape("driver", {"name": str, "cmt": Nullable(str)})
CAB = Shape("cab", {"id": int, "permit_id": int, "permit": str, "status": CAB_STATUSES, "online": bool,
                    "lat": Nullable(float), "lon": Nullable(float), "zone": str, "driver": Nullable(str)})
PAYMENT = Shape("payment", {"method": str, "method_display": str, "collector": str, "receiver": str, "amount": DECIMAL},
                optional={"pix": str, "pix_qr": str})  # 1.3 (docs/payments.md)
FARE_REVIEW = Shape("fare review", {"code": str, "title": str, "message": str})  # 1.5 (docs/payments.md)
RIDE = Shape("ride", {
    "id": int, "version": int, "status": RIDE_STATUSES, "pickup": POINT, "destination": Nullable(POINT),
    "passenger": str, "escalated": bool, "requested_at": Nullable(DATETIME), "accepted_at": Nullable(DATETIME),
    "completed_at": Nullable(DATETIME), "cancelled_at": Nullable(DATETIME), "fare": Nullable(DECIMAL),
    "permit": Nullable(str), "payment": Nullable(PAYMENT),
}, optional={"cvi": Nullable(CVI), "driver": Nullable(DRIVER), "cab_position": Nullable(LATLON),
             # 1.3: who cancelled (passenger | operator | driver | "") and why, for the passenger page to explain
             "cancelled_by": str, "cancel_reason": str,
             # an escalated ride still waiting: when it is given up (dispatch.give_up), the console's countdown
             "gives_up_at": DATETIME,
             # 1.4, to the ride's driver only: the passenger's phone, when "Cheguei" was said and from when a
             # no-show may be recorded (taxilaw.cancellation)
             "passenger_phone": str, "arriving_at": Nullable(DATETIME), "no_show_at": Nullable(DATETIME),
             # 1.5: present while the fare is held for DIMUTRAN's review: not charged, no BR Code, not payable
             "fare_review": FARE_REVIEW,
             # 1.6: what the vehicle must have (taxilaw.accessibility.FEATURES), the same in pt-BR, and, while the
             # ride waits escalated, why no cab was found (docs/passenger-safety.md)
             "needs": ListOf(OneOf(("wheelchair_accessible", "child_seat"))), "needs_display": str, "needs_unmet": str,
             # 1.6: from the accept, the code the passenger's page and the driver's app both show (docs/passenger-safety.md)
             "boarding_code": str})
OFFER_LOG = Shape("offer_log", {"permit": str, "status": str, "reason": str}, optional={"cancel_reason": str})
OPERATOR_RIDE = Shape("ride + offers", {**RIDE.fields, "offers": ListOf(OFFER_LOG)}, RIDE.optional)
OFFER_STATUSES = OneOf(("pending", "accepted", "declined", "expired", "withdrawn", "cancelled"))
OFFER_PASSENGER = Shape("offer passenger", {"name": str, "phone": str})
OFFER_BODY = Shape("offer", {"id": int, "ride_id": int, "status": OFFER_STATUSES, "expires_at": DATETIME,
                             "distance_m": Nullable(int), "reason": str, "pickup": POINT},
                   optional={"passenger": OFFER_PASSENGER, "destination": Nullable(POINT)})  # 1.4
CAB_POSITION = Shape("cab position", {"id": int, "lat": float, "lon": float, "zone": str})
REASON = Shape("reason", {"article": str, "code": str, "message": str})
SOS_POSITION = Shape("sos position", {"source": OneOf(("passenger", "cab")), "lat": float, "lon": float, "at": Nullable(DATETIME)},
                     optional={"accuracy_m": Nullable(float)})
SOS = Shape("sos", {"id": int, "ride_id": int, "raised_at": DATETIME, "ride_status": RIDE_STATUSES, "passenger": str,
                    "passenger_phone": str, "permit": str, "plate": str, "driver": str, "positions": ListOf(SOS_POSITION)})


# Complexity kept: one branch per field kind of the wire declaration; a table of checkers would hide the pt-BR messages.
def _check(value, spec, path: str) -> None:  # noqa: C901
    if isinstance(spec, Nullable):
        if value is not None:
            _check(value, spec.inner, path)
    elif isinstance(spec, ListOf):
        if not isinstance(value, list):
            raise ContractError(f"{path}: a list expected, got {value!r}")
        for i, item in enumerate(value):
            _check(item, spec.inner, f"{path}[{i}]")
    elif isinstance(spec, OneOf):
        if value not in spec.values:
            raise ContractError(f"{path}: one of {spec.values} expected, got {value!r}")
    elif isinstance(spec, Shape):
        if not isinstance(value, dict):
            raise ContractError(f"{path}: an object ({spec.name}) expected, got {value!r}")
        _check_fields(value, spec.fields, spec.optional, path)
    elif spec is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ContractError(f"{path}: a number expected, got {value!r}")
    elif spec in (DECIMAL, DATETIME):
        if not isinstance(value, str):
            raise ContractError(f"{path}: a {spec} expected, got {value!r}")
    elif spec is dict:
        if not isinstance(value, dict):
            raise ContractError(f"{path}: an object expected, got {value!r}")
    elif (spec is int and isinstance(value, bool)) or not isinstance(value, spec):
        raise ContractError(f"{path}: {_name(spec)} expected, got {value!r}")


def _check_fields(value: dict, fields: dict, optional: dict, path: str) -> None:
    missing = set(fields) - set(value)
    extra = set(value) - set(fields) - set(optional)
    if missing or extra:
        raise ContractError(f"{path}: missing {sorted(missing)}, unexpected {sorted(extra)}")
    for name, spec in {**fields, **optional}.items():
        if name in value:
            _check(value[name], spec, f"{path}.{name}")


# --- frames ------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Frame:
    """One outbound frame type as ``to`` (roles; empty: internal to the server) receive it."""

    type: str
    to: tuple
    fields: dict
    doc: str
    optional: dict = field(default_factory=dict)
    since: str = "1.0"

    def __call__(self, **values) -> dict:
        """The frame with these fields; a missing or unknown field name is a server bug (``ContractError``)."""
        missing = self.fields.keys() - values.keys()
        extra = values.keys() - self.fields.keys() - self.optional.keys()
        if missing or extra:
            raise ContractError(f"{self.type}: missing {sorted(missing)}, unexpected {sorted(extra)}")
        return {"type": self.type, **values}


DRIVER_ROLE, PASSENGER_ROLE, OPERATOR_ROLE = "driver", "passenger", "operator"
ALL = (DRIVER_ROLE, PASSENGER_ROLE, OPERATOR_ROLE)

ERROR = Frame("error", ALL, {"code": str, "message": str},
              "a refused frame; the connection stays open unless said otherwise",
              optional={"fields": dict, "reasons": ListOf(REASON), "trip_id": str})
PONG = Frame("pong", ALL, {}, "the answer to `ping`")
DRIVER_SNAPSHOT = Frame("snapshot", (DRIVER_ROLE,), {"cab": CAB, "offer": Nullable(OFFER_BODY), "ride": Nullable(RIDE)},
                        "on every (re)connection: the cab, its pending offer, its ride in progress")
PASSENGER_SNAPSHOT = Frame("snapshot", (PASSENGER_ROLE,), {"passenger": Shape("passenger", {"name": str}), "rides": ListOf(RIDE)},
                           "after `auth`: the passenger's open rides")
OPERATOR_SNAPSHOT = Frame("snapshot", (OPERATOR_ROLE,), {"cabs": ListOf(CAB), "rides": ListOf(OPERATOR_RIDE)},
                          "on connection: the connected cabs and the open rides with their offers; `sos_alerts` (1.6): "
                          "the passengers' SOS no operator has acknowledged yet", optional={"sos_alerts": ListOf(SOS)})
OFFER = Frame("offer", (DRIVER_ROLE,), {"offer": OFFER_BODY}, "a ride offered to this cab (answer within `expires_at`)")
OFFER_CLOSED = Frame("offer_closed", (DRIVER_ROLE,), {"offer_id": int, "status": OneOf(("expired", "withdrawn"))},
                     "the offer is no longer open")
CANCEL_REASONS = OneOf(("passenger_absent", "passenger_asked", "vehicle_problem"))
RIDE_CANCELLED = Frame("ride_cancelled", (DRIVER_ROLE,), {"ride_id": int},
                       "the cab's ride was cancelled; the cab is free. The answer to the driver's `ride_cancel` "
                       "(1.4) carries its `reason` and `next`: `reoffer` (offered to the next cab) or `end`",
                       optional={"reason": CANCEL_REASONS, "next": OneOf(("reoffer", "end"))})
BROADCAST = Frame("broadcast", (DRIVER_ROLE,), {"text": str}, "an operators' message to every cab")
SUSPENDED = Frame("suspended", (DRIVER_ROLE,), {"reasons": ListOf(REASON)},
                  "the registry no longer allows the driver to work (then a policy close 4008)")
PRESENCE = Frame("presence", (DRIVER_ROLE,), {"online": bool},
                 "the central's own view of this cab changed while its socket stayed open: `false`, it is not "
                 "receiving rides (its serving process lost the cab's presence, e.g. after a stall, and is recording "
                 "it again); `true`, it is again. The snapshot's `cab.online` is the view at (re)connection", since="1.5")
STATUS = Frame("status", (DRIVER_ROLE,), {"status": CAB_STATUSES}, "the answer to `status`")
RANK_CHECKED_IN = Frame("rank_checked_in", (DRIVER_ROLE,), {"rank_id": int, "rank": str, "queue_position": int, "visitor": bool},
                        "the answer to `rank_check_in` (Art. 22, 27 §3)")
RANK_CHECKED_OUT = Frame("rank_checked_out", (DRIVER_ROLE,), {}, "the answer to `rank_check_out`")
OFFER_ACCEPTED = Frame("offer_accepted", (DRIVER_ROLE,), {"ride_id": int}, "the answer to `offer_accept`: the ride is the cab's",
                       optional={"ride": RIDE})
OFFER_DECLINED = Frame("offer_declined", (DRIVER_ROLE,), {"offer_id": int}, "the answer to `offer_decline`")
RIDE_UPDATED = Frame("ride_updated", (DRIVER_ROLE,), {"ride": RIDE},
                     "the answer to `ride_arriving`, `ride_on_board` and `ride_complete`: the ride as it now is; "
                     "`fare_held`: why a meter total is held for DIMUTRAN's review (Art. 43)", since="1.2",
                     optional={"fare_held": ListOf(REASON)})
STREET_TRIP_RECORDED = Frame("street_trip_recorded", (DRIVER_ROLE,), {
    "trip_id": str, "ride_id": int, "fare": DECIMAL, "server_total": Nullable(DECIMAL), "meter_disagreement": bool,
    "duplicate": bool}, "the answer to `street_trip_complete`; `fare_held` as in `ride_updated`", since="1.1",
    optional={"fare_held": ListOf(REASON)})
RIDE_UPDATE = Frame("ride_update", (PASSENGER_ROLE, OPERATOR_ROLE), {"ride": RIDE}, "a ride changed (its `version` grew)")
CAB_POSITION_FRAME = Frame("cab_position", (PASSENGER_ROLE,), {"ride_id": int, "lat": float, "lon": float},
                           "where the ride's cab is, about once a second")
RIDE_CREATED = Frame("ride_created", (OPERATOR_ROLE,), {"ride_id": int}, "the answer to `ride_create`")
ASSIGNED = Frame("assigned", (OPERATOR_ROLE,), {"offer_id": int}, "the answer to `ride_assign`: the cab got the offer")
BROADCAST_SENT = Frame("broadcast_sent", (OPERATOR_ROLE,), {}, "the answer to `broadcast`")
CAB_UPDATE = Frame("cab_update", (OPERATOR_ROLE,), {"cab": CAB}, "a cab connected, disconnected or changed status")
POSITIONS = Frame("positions", (OPERATOR_ROLE,), {"cabs": ListOf(CAB_POSITION)}, "the cabs that moved, one frame per batch")
SOS_ALERT = Frame("sos_alert", (OPERATOR_ROLE,), {"alert": SOS},
                  "a passenger pressed SOS during a ride (`POST /api/rides/<id>/sos/`): the console raises its alarm until "
                  "an operator acknowledges it (docs/passenger-safety.md)", since="1.6")
ESCALATION = Frame("escalation", (OPERATOR_ROLE,), {"ride": RIDE}, "no cab may take the ride: the operators must")
HEALTH = Frame("health", (OPERATOR_ROLE,), {
    "at": DATETIME, "process": str, "cabs_online": int, "process_cabs": int, "tick_lag_s": float, "stall_after_s": float,
    "silence_after_s": float}, "every few seconds from each serving process's background tick (dispatch/health.py): the "
    "cabs online (all processes; through this one), how much later than due this process's tick ran, the lag past which "
    "its cabs are taken offline, and the silence after which the console raises the alarm (docs/operations.md)",
    since="1.5")
# Internal: sent to the cab's group, never to a socket (the consumer re-checks the registry).
COMPLIANCE_CHANGED = Frame("compliance_changed", (), {"permit_id": int}, "internal: the cab's driver must be checked again")

# Internal: sent to a driver's cab group or a passenger's group when a credential may have ended (a logout, a new
# login, a password change, a passenger's erasure): each socket there checks its own credential again.
CREDENTIAL_CHANGED = Frame("credential_changed", (), {}, "internal: the socket's credential must be checked again")


# --- what a socket may send, and how the server closes one -------------------------------------------


@dataclass(frozen=True)
class Budget:
    """A token bucket: ``burst`` at once, refilled at ``per_second``."""

    burst: float
    per_second: float


@dataclass(frozen=True)
class Limits:
    """Every frame costs one of ``frames`` and its length (characters) of ``chars``: a socket that has spent either
    gets ``error`` ``flood`` and a policy close. ``chars``: a working day's traces at once (about 2 MB at one fix
    every 2 s, the driver app's offline queue), then 64 KiB a second."""

    frames: Budget
    chars: Budget = Budget(4 * 1024 * 1024, 64 * 1024)


LIMITS = {DRIVER_ROLE: Limits(Budget(40, 20.0)), PASSENGER_ROLE: Limits(Budget(40, 20.0)),
          OPERATOR_ROLE: Limits(Budget(60, 30.0))}
POLICY_CLOSE = 4008  # RFC 6455's 1008 in the range Daphne lets applications send (django/daphne#374)
SESSION_ENDED = 4401
LAYER_LOST = 4503
CLOSE_CODES = {
    POLICY_CLOSE: "policy: a flood (`flood`), a driver the registry does not allow (`not_allowed`, `suspended`), a "
                  "cab another person drives (`cab_in_use`), a bad passenger token (`bad_token`)",
    SESSION_ENDED: "the credential ended: at the driver's handshake, refused (HTTP 403); on an open socket, after an "
                   "`error` `session_ended`, when the token was revoked (logout, a new login, a password change, a "
                   "passenger's erasure) or expired (`AUTH_TOKEN_TTL_HOURS`). The client asks the person to log in again",
    4403: "the operators' console without a DIMUTRAN staff session (handshake refused)",
    LAYER_LOST: "the central's message channel (Redis) failed, restarted or lost the socket's groups: the client "
                "reconnects with backoff and its new connection gets a fresh `snapshot` (closed again while Redis is down)",
}

# The frame that answers each inbound frame on the sender's own connection (None: none of its own; what
# changed reaches the sender as an announcement, e.g. ``ride_update`` after ``ride_cancel``). A refusal is an ``error``.
ANSWERS: dict[str, dict[str, Frame | None]] = {
    DRIVER_ROLE: {
        "ping": PONG, "position": None, "status": STATUS, "rank_check_in": RANK_CHECKED_IN,
        "rank_check_out": RANK_CHECKED_OUT, "offer_accept": OFFER_ACCEPTED, "offer_decline": OFFER_DECLINED,
        "ride_arriving": RIDE_UPDATED, "ride_on_board": RIDE_UPDATED, "ride_complete": RIDE_UPDATED,
        "street_trip_complete": STREET_TRIP_RECORDED, "ride_cancel": RIDE_CANCELLED,
    },
    PASSENGER_ROLE: {"ping": PONG, "auth": PASSENGER_SNAPSHOT, "ride_request": RIDE_UPDATE, "ride_cancel": None},
    OPERATOR_ROLE: {"ping": PONG, "ride_create": RIDE_CREATED, "ride_assign": ASSIGNED, "ride_cancel": None,
                    "broadcast": BROADCAST_SENT},
}

OUTBOUND: dict[str, dict[str, Frame]] = {role: {} for role in ALL}
FRAMES = [v for v in dict(globals()).values() if isinstance(v, Frame)]
for _frame in FRAMES:
    for _role in _frame.to:
        if _frame.type in OUTBOUND[_role]:  # a client tells frames apart by their type alone
            raise ContractError(f"two {_frame.type!r} frames declared for {_role}")
        OUTBOUND[_role][_frame.type] = _frame


def validate(role: str, frame: dict) -> Frame:
    """Check ``frame`` as ``role`` receives it against its declaration; returns the declaration."""
    declared = OUTBOUND[role].get(str(frame.get("type")))
    if declared is None:
        raise ContractError(f"{role} never receives a frame of type {frame.get('type')!r}")
    body = {k: v for k, v in frame.items() if k != "type"}
    _check_fields(body, declared.fields, declared.optional, frame["type"])
    return declared


def error(exc: Exception, trip_id: str | None = None) -> dict:
    """The ``error`` frame for a refusal: protocol, dispatcher or law (one place for every consumer)."""
    from backend.api_errors import LawViolation

    from .errors import DispatchError
    from .protocol import ProtocolError

    extra = {"trip_id": trip_id} if trip_id is not None else {}
    if isinstance(exc, ProtocolError):
        return ERROR(code=exc.code, message=exc.message, **({"fields": exc.fields} if exc.fields else {}), **extra)
    if isinstance(exc, DispatchError):
        return ERROR(code=exc.code, message=exc.message, **extra)
    if isinstance(exc, LawViolation):
        return ERROR(code="law", message=str(exc.detail), reasons=exc.reasons, **extra)
    raise TypeError(f"not a refusal: {exc!r}")
