"""Websocket authentication.

Drivers: a native app sends no ``Origin``, so this route has its own rule: ``Authorization: Token <key>`` in the
handshake headers (never in the URL), refused once expired or revoked as on the REST API
(``backend.accounts.tokens``). The key is checked in the same batched call that brings the driver's cab online
(:func:`go_online_by_token`): after a restart every driver reconnects at once, and one database step per connection
instead of two is less of the serving process's work in that storm (docs/dispatch-benchmark.md, "Measurements by
module"). Passengers: the first frame is ``{"type": "auth", "token": ...}``. Operators: the Django session, behind
origin validation.

A credential that ends closes its open sockets (``dispatch.transport.credential_changes``): a driver's when its key expires (a timer
per socket) or is deleted, a passenger's when its token changes.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction

from backend.accounts.tokens import issued_after
from backend.registry.models import Person
from dispatch.errors import DispatchError
from dispatch.models import Cab
from dispatch.rides import cabs
from dispatch.transport import connection_sql


def handshake_token(scope) -> str | None:
    """The key of the handshake's ``Authorization: Token <key>`` header, if it has one."""
    value = dict(scope.get("headers", [])).get(b"authorization", b"").decode("latin-1")
    scheme, _, key = value.partition(" ")
    return key.strip() if scheme.lower() == "token" and key.strip() else None


def people_for_tokens(keys: list[str]) -> list[Person | None]:
    """The person of each key's live user, or None (no such key, expired, revoked, inactive, no person): one statement.

    Each person found carries ``token_expires_at``: when its key expires (a driver's socket closes then)."""
    found = connection_sql.people_for_tokens(keys, issued_after())
    people = []
    for key in keys:
        person, issued = found.get(key, (None, None))
        if person is not None:
            person.token_expires_at = issued + settings.AUTH_TOKEN_TTL
        people.append(person)
    return people


def go_online_by_token(arrivals: list[tuple[str, str]]) -> list[Cab | DispatchError | None]:
    """Drivers' handshakes, (key, channel name) each: :func:`dispatch.rides.cabs.go_online_many` for those whose key
    opens a person, ``None`` for the others (their handshake is refused)."""
    people = people_for_tokens([key for key, _channel in arrivals])
    known = [(person, channel) for person, (_key, channel) in zip(people, arrivals) if person is not None]
    outcomes = iter(cabs.go_online_many(known) if known else ())
    return [None if person is None else next(outcomes) for person in people]


@transaction.atomic
def rejoin_by_token(arrivals: list[tuple[str, str]]) -> list[Cab | DispatchError | None]:
    """Open sockets, (key, channel name) each, whose presence rows were lost (their process was swept while
    stalled, ``dispatch.transport.held_sockets``): recorded again exactly as :func:`go_online_by_token` records a new one (the
    token, the registry's compliance and the one-driver rule checked again), any row left of them replaced."""
    connection_sql.close_connections([channel for _key, channel in arrivals])
    return go_online_by_token(arrivals)
