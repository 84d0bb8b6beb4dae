"""The answer to a locked-out login (django-axes' AXES_LOCKOUT_CALLABLE): JSON on the API, a page elsewhere."""

from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _


def lockout_response(request, original_response=None, credentials=None):
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": _("Muitas tentativas de acesso erradas: aguarde alguns minutos e tente de novo.")}, status=429)
    return render(request, "accounts/lockout.html", status=429)
