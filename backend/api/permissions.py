"""Roles: DIMUTRAN staff manage everything; a permit holder and a driver see only their own; a passenger theirs."""

from django.utils.translation import gettext as _
from rest_framework.permissions import SAFE_METHODS, BasePermission


def is_dimutran(user) -> bool:
    return bool(user and user.is_authenticated and user.is_staff)


class IsDimutran(BasePermission):
    message = "Apenas a DIMUTRAN pode realizar esta operação."

    def has_permission(self, request, view):
        return is_dimutran(request.user)


class DimutranOrReadOwn(BasePermission):
    """DIMUTRAN writes; anyone authenticated reads (the view narrows the queryset to their own)."""

    message = "Apenas a DIMUTRAN pode alterar este cadastro."

    def has_permission(self, request, view):
        if not (request.user and request.user.is_authenticated):
            return False
        return request.method in SAFE_METHODS or is_dimutran(request.user)


class IsPassenger(BasePermission):
    message = _("Entre como passageiro (Authorization: Passenger <token>).")

    def has_permission(self, request, view):
        return request.auth is not None and hasattr(request.user, "passenger")
