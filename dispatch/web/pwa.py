"""The passenger page as an installable app (docs/passenger-app.md): its web app manifest, its service worker and
the site's favicon.

The service worker is served from /passageiro/sw.js, so its scope is the passenger page's (/passageiro/) without a
``Service-Worker-Allowed`` header; it is rendered with the static files' current URLs (hashed in production), so a
new deployment is a new worker that drops the old cache. It caches the page's shell and static files only, never an
/api/ answer or a websocket.
"""

import hashlib

from django.contrib.staticfiles import finders
from django.http import FileResponse, Http404, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET

SCOPE = "/passageiro/"
#: The page's shell: what opens the page with no network (the passenger template's CSS, scripts and icons).
SHELL_ASSETS = ("vendor/leaflet/leaflet.css", "dispatch/app.css", "vendor/leaflet/leaflet.js", "dispatch/common.js",
                "dispatch/passenger.js", "dispatch/passenger_account.js", "dispatch/pwa.js",
                "dispatch/icons/icon-192.png", "dispatch/icons/favicon-32.png")
ICONS = (("dispatch/icons/icon-192.png", "192x192", "any"), ("dispatch/icons/icon-512.png", "512x512", "any"),
         ("dispatch/icons/icon-maskable-512.png", "512x512", "maskable"))


@require_GET
@cache_control(max_age=3600, public=True)
def manifest(request):
    body = {
        "name": "Táxi Muriaé — pedir um táxi",
        "short_name": "Táxi Muriaé",
        "description": "Peça um táxi em Muriaé e acompanhe a chegada (Lei 1.242/1987, Art. 66).",
        "lang": "pt-BR",
        "dir": "ltr",
        "start_url": SCOPE,
        "scope": SCOPE,
        "id": SCOPE,
        "display": "standalone",
        "orientation": "portrait",
        "background_color": "#f8fafc",
        "theme_color": "#0f2a4a",
        "icons": [{"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose} for path, sizes, purpose in ICONS],
    }
    return JsonResponse(body, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})


@require_GET
@never_cache  # the browser checks for a new worker on each visit
def service_worker(request):
    assets = [static(a) for a in SHELL_ASSETS]
    version = hashlib.sha256("|".join(assets).encode()).hexdigest()[:12]
    response = render(request, "dispatch/pwa/sw.js", {"shell": SCOPE, "assets": assets, "version": version},
                      content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = SCOPE
    return response


@require_GET
@cache_control(max_age=86400, public=True)
def favicon(request):
    """/favicon.ico, which browsers ask for on every page that names no icon (the admin's, the API docs')."""
    path = finders.find("dispatch/icons/favicon.ico")
    if not path:
        raise Http404
    return FileResponse(open(path, "rb"), content_type="image/x-icon")
