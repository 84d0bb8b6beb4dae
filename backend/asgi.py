"""ASGI entry point served by Daphne: HTTP through Django, websockets through Channels."""

import gc
import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")

from django.core.asgi import get_asgi_application  # noqa: E402

django_asgi = get_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402

from dispatch.routing import websocket_application  # noqa: E402

# Thousands of websocket connections make full collections long (up to a second at
# 10,000): freeze what start-up allocated and collect the young generation less often.
gc.collect()
gc.freeze()
gc.set_threshold(50_000, 20, 100)
# An offer is a dozen database round trips on its own thread; after each one the thread waits for the
# GIL while the event loop serves positions, up to the switch interval each time (5 ms by default).
sys.setswitchinterval(0.0005)

application = ProtocolTypeRouter(
    {
        # Daphne serves the console's assets itself: no separate web server is needed.
        "http": ASGIStaticFilesHandler(django_asgi),
        "websocket": websocket_application,
    }
)
