"""Django's own error answers (URLs no view matched, errors outside DRF): JSON under ``/api/``, pt-BR pages elsewhere.

DRF answers the errors of its views itself (``backend.api_errors``); these cover what never reached one: a
mistyped API address (404), a bad Host header (400), and a failure before or outside a DRF view (500). An API
client gets ``{"detail": ...}`` as from DRF, never an HTML page.
"""

from django.conf import settings
from django.http import HttpResponseServerError, JsonResponse
from django.template import loader
from django.utils.translation import gettext as _
from django.views import defaults

API_PREFIX = "/api/"


def _is_api(request) -> bool:
    return request.path.startswith(API_PREFIX)


def bad_request(request, exception):
    if _is_api(request):
        return JsonResponse({"detail": _("Requisição inválida.")}, status=400)
    return defaults.bad_request(request, exception)


def permission_denied(request, exception):
    if _is_api(request):
        return JsonResponse({"detail": _("Você não tem permissão para executar essa ação.")}, status=403)
    return defaults.permission_denied(request, exception)


def page_not_found(request, exception):
    if _is_api(request):
        return JsonResponse({"detail": _("Endereço da API não encontrado.")}, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request):
    """The 500 answer: nothing here may fail in turn (no database, no request context)."""
    if _is_api(request):
        return JsonResponse({"detail": _("Erro interno do servidor; tente de novo em alguns minutos.")}, status=500)
    page = loader.get_template("500.html").render({"central_phone": settings.DISPATCH_CENTRAL_PHONE})
    return HttpResponseServerError(page)
