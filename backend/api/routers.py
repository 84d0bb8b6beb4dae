"""Routers whose detail URLs take database ids only: ``/api/autos/abc/`` is a 404, not a database error."""

from rest_framework.routers import DefaultRouter, SimpleRouter

from .params import ID_PATTERN


class IdLookup:
    def get_lookup_regex(self, viewset, lookup_prefix=""):
        kwarg = getattr(viewset, "lookup_url_kwarg", None) or getattr(viewset, "lookup_field", "pk")
        return f"(?P<{lookup_prefix}{kwarg}>{getattr(viewset, 'lookup_value_regex', ID_PATTERN)})"


class IdRouter(IdLookup, DefaultRouter):
    pass


class IdSimpleRouter(IdLookup, SimpleRouter):
    pass
