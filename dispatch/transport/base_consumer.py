"""The shared base of the three websocket roles (``dispatch.consumers``): the socket's own message loop (the layer
read waits for the handshake), both token buckets from the first frame, frames read (off the event loop when long)
and handed to the role's ``on_<type>`` handler, ``relay``/``resync`` of group announcements, memberships renewed
before the layer drops them, and the session's end (credential gone or expired: 4401; layer lost: 4503).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import time

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.utils import timezone
from django.utils.translation import gettext as _

from backend.api_errors import LawViolation
from dispatch import errors, protocol, wire
from dispatch.ops import metrics
from dispatch.rides import offer_workers
from dispatch.transport import background_tick, layer_watch, message_loop, off_loop

log = logging.getLogger("dispatch.consumers")  # the consumers' log, one name for the base and the roles
POLICY_VIOLATION = wire.POLICY_CLOSE
# Channel layers drop a group membership a day after it was made (group_expiry): a cab or a console
# connected longer would stop hearing offers and updates. Each connection renews its memberships.
GROUP_REFRESH_SECONDS = 3600


class BaseConsumer(AsyncWebsocketConsumer):
    role = ""
    _refresher: asyncio.Task | None = None
    _ending: asyncio.Task | None = None

    async def __call__(self, scope, receive, send):
        """Channels' ``AsyncConsumer.__call__`` with ``dispatch.transport.message_loop`` in place of ``await_many_dispatch``."""
        self.scope = scope
        background_tick.ensure_running()  # the outbox before any database batch announces (dispatch.events.announcements.post)
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        sources = [receive]
        if self.channel_layer is not None:
            self.channel_name = await self.channel_layer.new_channel()
            self.channel_receive = functools.partial(self.channel_layer.receive, self.channel_name)
            sources.append(self._from_layer)
        self.base_send = send
        self._handshake_decided, self._layer_failed = asyncio.Event(), False
        try:
            await message_loop.dispatch_from(sources, self.dispatch)
        except StopConsumer:
            pass

    async def _from_layer(self):
        """The channel layer's next message; when the layer fails (Redis down), a ``layer.lost`` message, then none.

        Read only once the handshake is accepted or refused: a close before the accept would refuse it with HTTP 403,
        which the driver app takes for a revoked token."""
        if self._layer_failed:
            await asyncio.Future()  # never: the connection is being closed, which ends the loop
        await self._handshake_decided.wait()
        try:
            return await self.channel_receive()
        except Exception as exc:
            self._layer_failed = True
            layer_watch.failed()
            log.debug("channel layer read failed: %s", exc)
            return {"type": "layer.lost"}

    async def layer_lost(self, event):
        await self.close(code=layer_watch.LAYER_LOST)

    async def dispatch(self, message):
        """Channels' dispatch without its ``aclose_old_connections()`` before every handler.

        That call is a hop to the database thread for every frame, positions included, queued behind
        other rides' database work. Every database call here goes through ``database_sync_to_async``,
        which closes stale connections around itself.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def websocket_connect(self, message):
        try:
            await super().websocket_connect(message)
        finally:
            self._handshake_decided.set()

    async def connect(self):
        limits = wire.LIMITS[self.role]  # a driver sends a position every few seconds: generous
        self._frames, self._chars = limits.frames, limits.chars
        self._tokens, self._char_tokens, self._last, self._closing = self._frames.burst, self._chars.burst, time.monotonic(), False
        await self.accept()
        try:
            await self.on_connect()
        except layer_watch.LayerUnavailable:
            await self.close(code=layer_watch.LAYER_LOST)

    async def on_connect(self):
        pass

    async def send_json(self, body: dict):
        await self.send(text_data=json.dumps(body, default=str))

    def _allow_frame(self, size: int) -> bool:
        """Both token buckets (``wire.LIMITS``): one token a frame, and one a character of it."""
        now = time.monotonic()
        elapsed, self._last = now - self._last, now
        self._tokens = min(self._frames.burst, self._tokens + elapsed * self._frames.per_second)
        self._char_tokens = min(self._chars.burst, self._char_tokens + elapsed * self._chars.per_second)
        if self._tokens < 1 or self._char_tokens < size:
            return False
        self._tokens -= 1
        self._char_tokens -= size
        return True

    async def receive(self, text_data=None, bytes_data=None):
        if self._closing:
            return
        if not self._allow_frame(len(text_data if text_data is not None else bytes_data or b"")):
            metrics.rejected("flood")
            await self._end(wire.ERROR(code="flood", message=_("Mensagens demais; conexão encerrada.")), POLICY_VIOLATION)
            return
        refusal = self.refusal_before_reading(text_data)
        if refusal is not None:
            metrics.rejected(refusal["code"])
            await self.send_json(refusal)
            return
        try:
            parsed = await self._read(text_data)
            if isinstance(parsed, off_loop.Served):
                await self.send_json(parsed.answer)
                return
            kind, data = parsed
            await getattr(self, "on_" + kind)(data)
        except layer_watch.LayerUnavailable:  # what the frame did is in the snapshot the reconnection gets
            await self.close(code=layer_watch.LAYER_LOST)
        except protocol.ProtocolError as exc:
            metrics.rejected("protocol")
            await self.send_json(wire.error(exc))
        except (errors.DispatchError, LawViolation) as exc:  # every refusal becomes a frame here, and only here
            await self.send_json(wire.error(exc))
        except Exception:
            log.exception("unexpected error handling a %s frame", self.role)
            await self.send_json(wire.ERROR(code="internal", message=_("Erro interno; a mensagem não foi processada.")))

    async def _read(self, text: str | None):
        """``(type, data)`` of a frame, or what ``off_loop`` answered it with. A short frame is read here (a
        position); a long one, and any trace, in the offering worker (``dispatch.transport.off_loop``)."""
        if text is not None and len(text) > protocol.INLINE_FRAME_BYTES:
            if len(text) > protocol.MAX_FRAME_BYTES:
                raise protocol.ProtocolError("too_large", _("Mensagem grande demais."))
            return await offer_workers.run(off_loop.serve, self.role, text, self.cab_id())
        frame = protocol.load(text)
        kind = protocol.kind_of(self.role, frame)
        if (self.role, kind) in off_loop.SERVED:
            return await offer_workers.run(off_loop.serve, self.role, frame, self.cab_id())
        return kind, protocol.validate(self.role, kind, frame)

    def cab_id(self) -> int | None:
        return None

    def refusal_before_reading(self, text: str | None) -> dict | None:
        """An ``error`` that refuses a frame before it is read, or None."""
        return None

    async def _end(self, frame: dict, code: int) -> None:
        """Send ``frame`` and close with ``code``; nothing the socket sends afterwards is read."""
        if self._closing:
            return
        self._closing = True
        await self.send_json(frame)
        await self.close(code=code)

    async def end_session(self) -> None:
        """The credential this socket was opened with was revoked or has expired: the person logs in again."""
        await self._end(wire.ERROR(code="session_ended", message=_("Sua sessão terminou ou expirou: entre novamente.")),
                        wire.SESSION_ENDED)

    def end_session_at(self, expires_at) -> None:
        """Close the socket when its credential expires (one timer a socket: no periodic sweep over thousands)."""
        delay = max(0.0, (expires_at - timezone.now()).total_seconds())
        self._expiry = asyncio.get_running_loop().call_later(delay, self._expired)

    def _expired(self) -> None:
        self._ending = asyncio.ensure_future(self.end_session())

    async def on_ping(self, data):
        await self.send_json(wire.PONG())

    async def resync(self, event):
        """An announcement to one of this socket's groups was lost (``dispatch.events``): a fresh snapshot instead."""
        await self.send_snapshot()

    async def send_snapshot(self):
        """The role's ``snapshot`` frame, as at (re)connection."""

    async def relay(self, event):
        await self.send_json(event["message"])

    async def relay_many(self, event):
        """Several announcements in one group message (``events.announce_each``), relayed one frame each, in order."""
        for message in event["messages"]:
            await self.relay({"type": "relay", "message": message})

    async def join(self, group: str):
        try:
            await self.channel_layer.group_add(group, self.channel_name)
        except Exception as exc:
            layer_watch.failed()
            raise layer_watch.LayerUnavailable(group) from exc
        self.groups.append(group)
        layer_watch.watch(self)
        if self._refresher is None:
            self._refresher = asyncio.create_task(self._refresh_groups())

    async def _refresh_groups(self):
        while True:
            await asyncio.sleep(GROUP_REFRESH_SECONDS)
            try:
                for group in list(self.groups):
                    await self.channel_layer.group_add(group, self.channel_name)
            except Exception:  # Redis down: the client reconnects and joins afresh
                await self.close(code=layer_watch.LAYER_LOST)
                return

    async def disconnect(self, code):
        if self._refresher is not None:
            self._refresher.cancel()
        layer_watch.forget(self)
        if getattr(self, "_expiry", None) is not None:
            self._expiry.cancel()
        for group in self.groups:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception as exc:  # Redis down: its memberships went with it, or expire (group_expiry)
                log.debug("leaving %s failed: %s", group, exc)
