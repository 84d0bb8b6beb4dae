"""Who may do what in enforcement: DIMUTRAN runs it; the infractor defends and appeals; passengers complain."""

from rest_framework.permissions import SAFE_METHODS, BasePermission

from backend.api.permissions import is_dimutran
from backend.trips.api.authentication import PassengerPrincipal


def person_of(user):
    return getattr(user, "person", None) if user and user.is_authenticated and not isinstance(user, PassengerPrincipal) else None


class IsPassenger(BasePermission):
    message = "Apenas um passageiro identificado pode registrar reclamação."

    def has_permission(self, request, view):
        return isinstance(request.user, PassengerPrincipal)


class DimutranWritesOthersRead(BasePermission):
    message = "Apenas a DIMUTRAN pode realizar esta operação."

    def has_permission(self, request, view):
        if not (request.user and request.user.is_authenticated) or isinstance(request.user, PassengerPrincipal):
            return False
        return request.method in SAFE_METHODS or is_dimutran(request.user)


class DimutranOrInfractor(BasePermission):
    """DIMUTRAN, or the infractor themselves (the view checks the object belongs to them)."""

    message = "Apenas a DIMUTRAN ou o próprio infrator."

    def has_permission(self, request, view):
        return is_dimutran(request.user) or person_of(request.user) is not None
