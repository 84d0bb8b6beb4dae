"""The ceiling of the stack for benchmarks/dispatch_bench.py: Daphne + Channels with a bare consumer.

Same server, same protocol framing, same JSON parsing, no database and no
dispatch: a ``position`` is parsed and dropped (the real consumer parses,
validates and buffers it), a ``ping`` gets a ``pong``, any other frame is sent
back as ``{"type": "echo", "of": <type>}``. Like the dispatch consumers it skips
Channels' ``aclose_old_connections()`` before every handler (a hop to the
database thread per frame), so it stays the ceiling. Run with
``daphne benchmarks.echo:application`` (DJANGO_SETTINGS_MODULE set).
"""

import json
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DJANGO_DEBUG", "1")  # a benchmark is development
django.setup()

from channels.consumer import get_handler_name  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import re_path  # noqa: E402


class EchoConsumer(AsyncWebsocketConsumer):
    async def dispatch(self, message):
        await getattr(self, get_handler_name(message))(message)

    async def connect(self):
        await self.accept()

    async def receive(self, text_data=None, bytes_data=None):
        frame = json.loads(text_data)
        kind = frame.get("type")
        if kind == "position":
            return
        if kind == "ping":
            await self.send(text_data=json.dumps({"type": "pong"}))
            return
        await self.send(text_data=json.dumps({"type": "echo", "of": kind}))


application = ProtocolTypeRouter({"websocket": URLRouter([re_path(r"^ws/.*$", EchoConsumer.as_asgi())])})
