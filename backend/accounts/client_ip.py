"""The client's address as far as the configured proxies vouch for it.

``X-Forwarded-For`` is written by whoever sends the request: only the entries
that ``TRUSTED_PROXIES`` proxies in front of us appended are believed. With the
default 0 the address is the socket's (``REMOTE_ADDR``), so a client cannot
pick a fresh address per request to escape a throttle or a lockout.
"""

from django.conf import settings


def client_ip(request) -> str:
    remote = request.META.get("REMOTE_ADDR", "")
    trusted = settings.TRUSTED_PROXIES
    if trusted <= 0:
        return remote
    hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
    # Each trusted proxy appended the address it saw: the client is the entry the outermost one wrote.
    return hops[-trusted] if len(hops) >= trusted else remote
