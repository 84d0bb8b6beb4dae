"""Address search, reverse lookup and the streets layer for the console and the passenger page (offline, zones.gazetteer).

``GET /api/addresses/?q=`` ranked suggestions, each with its street's geometry;
``GET /api/addresses/reverse/?lat=&lon=`` "Rua X, bairro Y". Callers: DIMUTRAN
staff (session or ``Authorization: Token``) and passengers (``Authorization:
Passenger <token>``, the token of ``POST /api/passengers/``). Bad input is a
400 with a pt-BR field message or an empty list with a ``message``, never a 500.
"""

import gzip
import json
from functools import lru_cache

from django.http import HttpResponse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET
from rest_framework import serializers
from rest_framework.permissions import BasePermission
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.api.fields import PointSerializer
from backend.api.throttling import UserRateThrottle
from backend.trips.api.authentication import PassengerAuthentication
from backend.trips.models import Passenger
from zones.gazetteer import MAX_QUERY_CHARS, MAX_RESULTS, STREETS_FILE, AddressError, default_gazetteer


class StaffOrPassenger(BasePermission):
    message = _("Endereços: acesso dos operadores da DIMUTRAN e dos passageiros identificados.")

    def has_permission(self, request, view):
        user = request.user
        return isinstance(request.auth, Passenger) or bool(user and user.is_authenticated and user.is_staff)


class AddressThrottle(UserRateThrottle):
    rate = "120/minute"  # an operator types fast; each search costs about a millisecond

    def get_cache_key(self, request, view):
        if isinstance(request.auth, Passenger):
            return self.cache_format % {"scope": self.scope, "ident": f"p{request.auth.pk}"}
        return super().get_cache_key(request, view)


class SearchQuery(serializers.Serializer):
    q = serializers.CharField(allow_blank=True, trim_whitespace=True, max_length=MAX_QUERY_CHARS * 5,
                              error_messages={"max_length": _("Endereço longo demais.")})
    limit = serializers.IntegerField(required=False, min_value=1, max_value=MAX_RESULTS, default=MAX_RESULTS)


class _AddressView(APIView):
    authentication_classes = [PassengerAuthentication, *APIView.authentication_classes]
    permission_classes = [StaffOrPassenger]
    throttle_classes = [AddressThrottle]


class AddressSearchView(_AddressView):
    def get(self, request):
        query = SearchQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        result = default_gazetteer().search(query.validated_data["q"], query.validated_data["limit"])
        return Response(result.as_dict(gettext))


class AddressReverseView(_AddressView):
    def get(self, request):
        query = PointSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        try:
            found = default_gazetteer().reverse(query.validated_data["lon"], query.validated_data["lat"])
        except AddressError as exc:
            message = exc.reason.render(gettext)
            return Response({"detail": message, "lat": [message], "reasons": [exc.reason.as_dict(gettext)]}, status=400)
        return Response(found.as_dict(gettext))


@lru_cache(maxsize=1)
def _streets_layer() -> tuple[bytes, bytes]:
    """The streets for the base map (name and line only), as JSON and gzipped, built once per process."""
    doc = json.loads(STREETS_FILE.read_text("utf-8"))
    slim = {"type": "FeatureCollection", "attribution": STREETS_ATTRIBUTION, "features": [
        {"type": "Feature", "geometry": f["geometry"], "properties": {"name": f["properties"]["name"]}}
        for f in doc["features"]]}
    body = json.dumps(slim, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return body, gzip.compress(body, compresslevel=9, mtime=0)


STREETS_ATTRIBUTION = ("Ruas: 9v8vz2kws9-boop/PAIRDI (MIT), provável origem IBGE · Nomes e CEPs: CEP Aberto (ODbL 1.0) · "
                       "Limite: IBGE (CC0)")


@require_GET
def streets_geojson(request):
    """Every street of Muriaé for the base map (public, cached): ~90 KB gzipped."""
    body, packed = _streets_layer()
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        response = HttpResponse(packed, content_type="application/geo+json")
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(body, content_type="application/geo+json")
    response["Vary"] = "Accept-Encoding"
    response["Cache-Control"] = "public, max-age=86400"
    return response
