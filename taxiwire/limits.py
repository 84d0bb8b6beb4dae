"""What a socket may spend (frames and characters) and the codes the server closes one with."""

from __future__ import annotations

from dataclasses import dataclass

from .outbound import DRIVER_ROLE, OPERATOR_ROLE, PASSENGER_ROLE

VERSION = (1, 6)  # (major, minor): a minor version only adds messages or optional fields
MAX_FRAME_BYTES = 1024 * 1024  # a long trip's trace fits; Daphne itself stops at 2 MiB
MAX_DEPTH = 8  # the deepest inbound frame is 3 levels (ride_complete: frame, trace, fix); room for optional extras


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
