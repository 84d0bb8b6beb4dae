"""Django's own error answers (URLs no view matched, errors outside DRF): JSON under ``/api/``, pt-BR pages elsewhere.

DRF answers the errors of its views itself (``backend.api_errors``); these cover what never reached one: a
mistyped API address (404), a bad Host header (400), and a failure before or outside a DRF view (500). An API
client gets ``{"detail": ...}`` as from DRF, never an HTML page. A view that found no database connection (the
process's pool stayed full) answers 503 instead of 500 (``DatabaseBusyMiddleware``).
"""

from django.conf import settings
from django.http import HttpResponse, HttpResponseServerError, JsonResponse
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


# PostgreSQL's "too many connections" and "cannot connect now" (starting up, shutting down): busy, not broken.
_BUSY_SQLSTATES = {"53300", "57P03"}
RETRY_AFTER_SECONDS = 5


def database_busy(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or what caused it) says the database has no connection for us now: this process's pool stayed
    full for ``DATABASE_POOL_TIMEOUT`` seconds, or the server refused a new connection."""
    while exc is not None:
        if type(exc).__name__ == "PoolTimeout" or getattr(exc, "sqlstate", None) in _BUSY_SQLSTATES:
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def server_error(request):
    """The 500 answer: nothing here may fail in turn (no database, no request context)."""
    if _is_api(request):
        return JsonResponse({"detail": _("Erro interno do servidor; tente de novo em alguns minutos.")}, status=500)
    page = loader.get_template("500.html").render({"central_phone": settings.DISPATCH_CENTRAL_PHONE})
    return HttpResponseServerError(page)


class DatabaseBusyMiddleware:
    """A view that found no database connection answers 503 with ``Retry-After`` (JSON under /api/), not 500.

    A middleware's ``process_exception``, not the 500 handler: under ASGI Django calls that one on another thread,
    where the exception is no longer known.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        return _busy(request) if database_busy(exception) else None


def _busy(request):
    if _is_api(request):
        answer = JsonResponse({"detail": _("Servidor ocupado; tente de novo em alguns segundos.")}, status=503)
    else:
        answer = HttpResponse(loader.get_template("503.html").render({}), status=503)
    answer["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return answer
