"""Passengers authenticate with ``Authorization: Passenger <token>`` (backend.trips.models.Passenger.token)."""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from ..models import Passenger

KEYWORD = "Passenger"


class PassengerPrincipal:
    """``request.user`` for a passenger: authenticated, never staff, carries the passenger."""

    is_authenticated = True
    is_anonymous = False
    is_staff = False
    is_superuser = False
    pk = None
    id = None

    def __init__(self, passenger: Passenger):
        self.passenger = passenger

    def __str__(self):
        return f"passageiro {self.passenger.pk}"


class PassengerAuthentication(authentication.BaseAuthentication):
    """Reads ``Authorization: Passenger <token>``; any other scheme is left to the next class."""

    def authenticate(self, request):
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].lower() != KEYWORD.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(_("Cabeçalho inválido: use 'Authorization: Passenger <token>'."))
        try:
            token = parts[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed(_("Token de passageiro inválido.")) from None
        passenger = Passenger.objects.filter(token=token).first()
        if passenger is None:
            raise exceptions.AuthenticationFailed(_("Token de passageiro inválido."))
        return PassengerPrincipal(passenger), passenger

    def authenticate_header(self, request):
        return KEYWORD


class PassengerAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "backend.trips.api.authentication.PassengerAuthentication"
    name = "passengerAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "header", "name": "Authorization", "description": "Passenger <token>"}
