"""ASGI entry point served by Daphne: HTTP through Django, websockets through Channels."""

import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.core.asgi import get_asgi_application  # noqa: E402

django_asgi = get_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402

from dispatch.transport import gc_policy  # noqa: E402
from dispatch.transport.routing import websocket_application  # noqa: E402

gc_policy.start()  # the garbage collector's policy for thousands of websockets
# Threads that wait on the database (the position flush; offers, with DISPATCH_OFFER_PROCESSES=0) get the
# GIL back from the event loop within the switch interval after each round trip (5 ms by default).
sys.setswitchinterval(0.0005)

application = ProtocolTypeRouter(
    {
        # Daphne serves the console's assets itself (WhiteNoise, inside Django's middleware, so with the
        # pages' security headers): no separate web server is needed.
        "http": django_asgi,
        "websocket": websocket_application,
    }
)

