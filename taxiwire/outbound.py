"""Every frame the server sends, declared as a :class:`Frame`: a sender builds its frame by calling one
(``OFFER(offer=...)``), which checks the field names, so no dict literal of a frame lives anywhere else
(tests/test_no_frame_literals.py). :func:`validate` checks a whole frame, nested objects included (the contract
test, tests/backend/test_wire_contract.py, runs it over every frame an action sends)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .bodies import (
    CAB,
    CAB_POSITION,
    CAB_STATUSES,
    CANCEL_REASONS,
    OFFER_BODY,
    OPERATOR_RIDE,
    REASON,
    RIDE,
    SOS,
)
from .shapes import DATETIME, DECIMAL, ContractError, ListOf, Nullable, OneOf, Shape, check_fields


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
    check_fields(body, declared.fields, declared.optional, frame["type"])
    return declared
