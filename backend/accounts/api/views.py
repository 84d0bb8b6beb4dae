"""POST /api/auth/token/ (log in: a fresh, expiring token) and POST /api/auth/logout/ (revoke it).

Guessing is bounded twice: a per-address rate (``LoginThrottle``) and
django-axes, which locks an account and an address out after
``AXES_FAILURE_LIMIT`` failures for ``AXES_COOLOFF_TIME`` (the admin login too).
"""

from django.contrib.auth import authenticate
from django.contrib.auth.signals import user_logged_in
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.api.throttling import AnonRateThrottle

from .. import tokens


class LoginThrottle(AnonRateThrottle):
    scope = "login"


class LoginSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, trim_whitespace=False, style={"input_type": "password"})


TokenAnswer = inline_serializer("TokenAnswer", {"token": serializers.CharField(), "expires_at": serializers.DateTimeField()})
Detail = inline_serializer("LoginRefused", {"detail": serializers.CharField()})


class TokenView(APIView):
    permission_classes = [AllowAny]
    authentication_classes = []
    throttle_classes = [LoginThrottle]

    @extend_schema(request=LoginSerializer,
                   responses={200: TokenAnswer, 400: OpenApiTypes.OBJECT, 429: Detail}, auth=[])  # 400: per-field or detail
    def post(self, request):
        form = LoginSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        # The Django request, not DRF's: django-axes marks it when the account or the address is locked
        # out, and its middleware then answers 429 (backend.accounts.lockout).
        user = authenticate(request._request, **form.validated_data)
        if user is None:
            return Response({"detail": str(_("Usuário ou senha incorretos."))}, status=status.HTTP_400_BAD_REQUEST)
        # As a session login would: last_login is recorded and django-axes clears the account's failures.
        user_logged_in.send(sender=user.__class__, request=request._request, user=user)
        token = tokens.issue(user)
        return Response({"token": token.key, "expires_at": tokens.expires_at(token)})


class LogoutView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None})
    def post(self, request):
        tokens.revoke(request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
