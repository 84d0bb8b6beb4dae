"""Websocket authentication.

Drivers: a native app sends no ``Origin``, so this route has its own stack:
``Authorization: Token <key>`` in the handshake headers (never in the URL), refused
once expired or revoked as on the REST API (``backend.accounts.tokens``).
Passengers: the first frame is ``{"type": "auth", "token": ...}``.
Operators: the Django session, behind origin validation.
"""

from django.contrib.auth.models import AnonymousUser

from backend.accounts.tokens import live_users

from . import connecting


def users_for_tokens(keys: list[str]) -> list:
    """The live user of each key (with their person), or AnonymousUser: one statement for a batch of connections."""
    return [user or AnonymousUser() for user in live_users(keys, related=("user__person",))]


_user_for_token = connecting.Batched(users_for_tokens)


class DriverTokenAuthMiddleware:
    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        headers = dict(scope.get("headers", []))
        value = headers.get(b"authorization", b"").decode("latin-1")
        scheme, _, key = value.partition(" ")
        scope = dict(scope, user=await _user_for_token(key.strip()) if scheme.lower() == "token" and key else AnonymousUser())
        return await self.inner(scope, receive, send)
