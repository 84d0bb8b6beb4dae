"""The passenger's safety over HTTP (docs/passenger-safety.md; the services are ``dispatch.rides.safety``).

- ``POST /api/rides/<id>/share/`` (passenger token): a new link to follow the ride; ``DELETE``: every link revoked.
- ``GET /acompanhar/<token>/`` (anyone with the link): the read-only page; ``estado.json`` beside it, polled by it.
- ``POST /api/rides/<id>/sos/`` (passenger token): the SOS, announced to the operators on commit.
- ``POST /api/sos/<id>/ack/`` (DIMUTRAN staff): an operator saw the alert.
"""

from __future__ import annotations

from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAdminUser, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.api.throttling import AnonRateThrottle
from backend.trips.api.authentication import PassengerAuthentication
from dispatch.errors import DispatchError
from dispatch.rides import safety

MAX_TOKEN_CHARS = 64  # token_urlsafe(32) is 43 characters


def _passenger(request):
    passenger = getattr(request.user, "passenger", None)
    if passenger is None:
        raise DispatchError("passengers_only", _("Só o passageiro da corrida pode fazer isto."))
    return passenger


def _refused(exc: DispatchError) -> Response:
    code = status.HTTP_404_NOT_FOUND if exc.code == "not_your_ride" else status.HTTP_409_CONFLICT
    if exc.code == "passengers_only":
        code = status.HTTP_403_FORBIDDEN
    return Response({"code": exc.code, "detail": exc.message}, status=code)


class RideShareView(APIView):
    authentication_classes = [PassengerAuthentication]
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={201: inline_serializer("RideShared", {
        "url": serializers.CharField(), "token": serializers.CharField()})})
    def post(self, request, ride_id: int):
        try:
            token = safety.share_ride(ride_id, _passenger(request))
        except DispatchError as exc:
            return _refused(exc)
        return Response({"url": request.build_absolute_uri(f"/acompanhar/{token}/"), "token": token}, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: inline_serializer("RideShareRevoked", {"revoked": serializers.IntegerField()})})
    def delete(self, request, ride_id: int):
        try:
            revoked = safety.revoke_shares(ride_id, _passenger(request))
        except DispatchError as exc:
            return _refused(exc)
        return Response({"revoked": revoked})


class SosFix(serializers.Serializer):
    """Where the passenger's phone is, if it could tell (optional: the SOS goes without it)."""

    lat = serializers.FloatField(min_value=-90, max_value=90, required=False)
    lon = serializers.FloatField(min_value=-180, max_value=180, required=False)
    accuracy_m = serializers.FloatField(min_value=0, required=False, allow_null=True)


class SosThrottle(AnonRateThrottle):
    scope = "sos"
    rate = "30/hour"

    def get_cache_key(self, request, view):
        passenger = getattr(request.user, "passenger", None)
        return self.cache_format % {"scope": self.scope, "ident": f"p{passenger.pk}"} if passenger else None


class RideSosView(APIView):
    authentication_classes = [PassengerAuthentication]
    permission_classes = [IsAuthenticated]
    throttle_classes = [SosThrottle]

    @extend_schema(request=SosFix, responses={201: inline_serializer("SosRaised", {
        "id": serializers.IntegerField(), "message": serializers.CharField()})})
    def post(self, request, ride_id: int):
        body = SosFix(data=request.data)
        body.is_valid(raise_exception=True)
        fix = body.validated_data if {"lat", "lon"} <= body.validated_data.keys() else None
        try:
            alert = safety.raise_sos(ride_id, _passenger(request), fix)
        except DispatchError as exc:
            return _refused(exc)
        return Response({"id": alert.pk, "message": _("A central foi avisada e vai acompanhar sua corrida. Em perigo, ligue 190.")},
                        status=status.HTTP_201_CREATED)


class SosAckView(APIView):
    permission_classes = [IsAdminUser]

    @extend_schema(request=None, responses={200: inline_serializer("SosAcknowledged", {"acknowledged": serializers.BooleanField()})})
    def post(self, request, alert_id: int):
        return Response({"acknowledged": safety.acknowledge(alert_id, request.user.get_username())})


# --- the public page of a share link ----------------------------------------------------------------


def _follow(token: str):
    if len(token) > MAX_TOKEN_CHARS:
        raise safety.ShareRefused(404, _("Este link de acompanhamento não existe. Confira se ele foi copiado inteiro."))
    return safety.followed(token)


@require_GET
@never_cache
def follow_page(request, token: str):
    """The page a share link opens: refused with a pt-BR page once the ride ended or the link was revoked."""
    try:
        ride = _follow(token)
    except safety.ShareRefused as refused:
        return render(request, "dispatch/follow_refused.html", {"title": _("Acompanhar corrida"), "message": refused.message},
                      status=refused.status)
    return render(request, "dispatch/follow.html", {"title": _("Acompanhar corrida"), "ride": safety.public_view(ride)})


@require_GET
@never_cache
def follow_state(request, token: str):
    """The ride as the page shows it, polled every few seconds while it lasts."""
    from django.http import JsonResponse

    try:
        return JsonResponse(safety.public_view(_follow(token)))
    except safety.ShareRefused as refused:
        return JsonResponse({"detail": refused.message}, status=refused.status)
