"""The operations endpoints of a serving process: ``/healthz``, ``/readyz``, ``/metrics`` (docs/operations.md).

``/healthz`` touches no dependency: the process answers HTTP. ``/readyz`` runs ``dispatch.ops.health``'s checks and
answers 503 with the failing ones named. ``/metrics`` is this process's Prometheus exposition, for a scraper
from ``METRICS_ALLOWED_NETWORKS`` (loopback by default) or a staff session; anyone else gets 403.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from backend.accounts.client_ip import client_ip
from dispatch.ops import health


@never_cache
def healthz(request):
    return JsonResponse({"status": "ok"})


@never_cache
async def readyz(request):
    checks = await health.readiness()
    failing = [name for name, check in checks.items() if not check["ok"]]
    return JsonResponse({"status": "unavailable" if failing else "ok", "failing": failing, "checks": checks},
                        status=503 if failing else 200)


def may_scrape(request) -> bool:
    """A staff session, or an address in ``METRICS_ALLOWED_NETWORKS`` as far as the trusted proxies vouch for it.

    A request that came through a proxy we were not told to trust (it carries ``X-Forwarded-For``) is not believed
    to come from the proxy's address: a reverse proxy on the same host would make every outsider loopback.
    """
    if request.user.is_authenticated and request.user.is_staff:
        return True
    if not settings.TRUSTED_PROXIES and "HTTP_X_FORWARDED_FOR" in request.META:
        return False
    try:
        address = ipaddress.ip_address(client_ip(request))
    except ValueError:
        return False
    return any(address in network for network in settings.METRICS_ALLOWED_NETWORKS)


@never_cache
def metrics(request):
    if not may_scrape(request):
        return HttpResponse("Acesso negado: as métricas são só para a rede de monitoramento ou a equipe do DIMUTRAN.\n",
                            status=403, content_type="text/plain; charset=utf-8")
    return HttpResponse(generate_latest(), content_type=CONTENT_TYPE_LATEST)
