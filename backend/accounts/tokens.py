"""API tokens that expire and can be revoked.

DRF's token table, one token per user, with three rules on top: a login issues
a fresh key (the old one dies), a key older than ``AUTH_TOKEN_TTL`` is refused,
and logout or a password change deletes it. The websocket handshake
(``dispatch.transport.socket_auth``) asks the same question as the REST API, in one statement for a batch of
handshakes: an active user and a key issued after :func:`issued_after`.
"""

from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token


def expires_at(token: Token) -> datetime:
    return token.created + settings.AUTH_TOKEN_TTL


def issued_after(now: datetime | None = None) -> datetime:
    """A key issued after this instant has not expired yet."""
    return (now or timezone.now()) - settings.AUTH_TOKEN_TTL


def is_live(token: Token) -> bool:
    return token.user.is_active and token.created > issued_after()


@transaction.atomic
def issue(user) -> Token:
    """A new key for ``user``: every earlier key stops working."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


def revoke(user) -> None:
    Token.objects.filter(user=user).delete()


class ExpiringTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <key>``, refused once the key is older than ``AUTH_TOKEN_TTL``."""

    def authenticate_credentials(self, key):
        user, token = super().authenticate_credentials(key)
        if not is_live(token):
            raise exceptions.AuthenticationFailed(_("Sessão expirada: entre de novo."))
        return user, token
