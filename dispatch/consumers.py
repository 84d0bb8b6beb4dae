"""Thin consumers: parse, authorize every message, call a service, answer. The three roles (driver, passenger,
operator) and their handlers live here; what they share (the message loop, the buckets, reading frames, relays, group
memberships, the session's end) is ``dispatch.transport.base_consumer``.

A bad frame gets an ``error`` frame and the connection stays; a flood gets a
policy close. RFC 6455's policy code is 1008, but Daphne (autobahn) lets an
application send only 1000 or 3000-4999 (django/daphne#374), so the policy
close is 4008: the same meaning in the application range. Every socket is
rate-limited from its first frame, in frames and in characters (``wire.LIMITS``);
long frames and traces are read off the event loop (``dispatch.transport.off_loop``). A
credential that ends (revoked, expired) closes its sockets with 4401. Group messages arrive as ``relay`` events (or
``relay_many``, several at once) and are passed on as they are, a frame each; a ``resync`` (an announcement to one
of the socket's groups was lost: ``dispatch.events``) is answered with the role's snapshot. A connection whose channel layer
failed (Redis down or restarted: ``dispatch.transport.layer_watch``) is closed with 4503, and its client reconnects.
"""

from __future__ import annotations

import asyncio
import logging
import time

from channels.db import database_sync_to_async
from django.utils.translation import gettext as _

from dispatch import errors, protocol, wire
from dispatch.events import announcements, snapshots
from dispatch.ops import latency_trace, metrics
from dispatch.rides import cabs, driver_steps, offer_workers, offers, ride_steps
from dispatch.rides.positions import buffer
from dispatch.transport import connection_batches, held_sockets, socket_auth
from dispatch.transport.base_consumer import POLICY_VIOLATION, BaseConsumer

log = logging.getLogger(__name__)
AUTH_FRAME_CHARS = 1024  # before ``auth`` a passenger may send only ``auth``: a longer frame is refused unread


_go_online = connection_batches.Batched(socket_auth.go_online_by_token)
_driver_snapshot = connection_batches.Batched(snapshots.for_drivers)
_set_status = connection_batches.Batched(cabs.set_status_many)
_go_offline = connection_batches.Batched(cabs.go_offline_many)
_rejoin = connection_batches.Batched(socket_auth.rejoin_by_token)


class DriverConsumer(BaseConsumer):
    role = "driver"

    async def connect(self):
        self.groups, self.cab, self.last_fix, self._rejoining = [], None, None, None
        self.key = key = socket_auth.handshake_token(self.scope)
        outcome = await _go_online((key, self.channel_name)) if key else None
        if outcome is None:
            await self.close(code=wire.SESSION_ENDED)  # rejects the handshake: no valid token
            return
        if isinstance(outcome, errors.DispatchError):
            await self.accept()
            await self.send_json(wire.error(outcome))
            await self.close(code=POLICY_VIOLATION)
            return
        self.cab = outcome
        metrics.DRIVER_SOCKETS.inc()
        held_sockets.hold(self)
        await super().connect()
        self.end_session_at(outcome.driver.token_expires_at)

    def rejoin_soon(self) -> None:
        """``dispatch.transport.held_sockets`` found this socket's presence row gone: record it again (one attempt at a time)."""
        if self._rejoining is None or self._rejoining.done():
            self._rejoining = asyncio.get_running_loop().create_task(self._rejoin())

    async def _rejoin(self):
        """Tell the phone it is not receiving rides, record the socket again as a connection is (or close it with
        the refusal), tell the phone it is receiving again. A failure (the database away) is tried again by the
        next audit; meanwhile the phone shows it."""
        await self.send_json(wire.PRESENCE(online=False))
        try:
            outcome = await _rejoin((self.key, self.channel_name))
        except Exception:
            log.exception("a driver socket could not be recorded again; the next audit tries again")
            return
        if outcome is None:  # the token expired or was revoked meanwhile: the app asks to log in again
            await self.end_session()
        elif isinstance(outcome, errors.DispatchError):  # no longer allowed, or the cab's other driver took it
            await self.send_json(wire.error(outcome))
            await self.close(code=POLICY_VIOLATION)
        else:
            self.cab = outcome
            held_sockets.hold(self)
            await self.send_json(wire.PRESENCE(online=True))

    async def on_connect(self):
        await self.join(announcements.cab_group(self.cab.permit_id))
        await self.join("cabs")
        await self.send_snapshot()

    async def send_snapshot(self):
        await self.send_json(await _driver_snapshot(self.cab))

    async def disconnect(self, code):
        if self.cab is not None:
            metrics.DRIVER_SOCKETS.dec()
            held_sockets.release(self.channel_name)
            if self._rejoining is not None:  # its row written after the go-offline would outlive the socket
                await asyncio.wait([self._rejoining])
            await _go_offline((self.cab.pk, self.channel_name))
        await super().disconnect(code)

    async def relay(self, event):
        message = event["message"]
        if message.get("type") == wire.COMPLIANCE_CHANGED.type:
            decision = await database_sync_to_async(cabs.still_allowed)(self.cab.pk)
            if not decision:
                await self.send_json(wire.SUSPENDED(reasons=[r.as_dict(_) for r in decision.reasons]))
                await self.close(code=POLICY_VIOLATION)
            return
        if message.get("type") == wire.CREDENTIAL_CHANGED.type:
            if (await database_sync_to_async(socket_auth.people_for_tokens)([self.key]))[0] is None:
                await self.end_session()
            return
        latency_trace.mark_offer(message, "relay")
        await self.send_json(message)
        latency_trace.mark_offer(message, "sent")

    def cab_id(self) -> int | None:
        return self.cab.pk

    async def on_position(self, data):
        self.last_fix = (data["lat"], data["lon"])  # a rank check-in carries it (Art. 9, V)
        buffer.record(self.cab.pk, data["lat"], data["lon"])

    async def on_status(self, data):
        cab = await _set_status((self.cab.pk, data["status"]))
        if isinstance(cab, errors.DispatchError):
            raise cab
        await self.send_json(wire.STATUS(status=cab.status))

    async def on_rank_check_in(self, data):
        checkin = await database_sync_to_async(cabs.rank_check_in)(
            self.cab.permit_id, data["rank_id"], self.last_fix)  # Art. 9, V: where the GPS shows the cab
        await self.send_json(wire.RANK_CHECKED_IN(**checkin))

    async def on_rank_check_out(self, data):
        await database_sync_to_async(cabs.rank_check_out)(self.cab.permit_id)
        await self.send_json(wire.RANK_CHECKED_OUT())

    async def on_offer_accept(self, data):
        ride = await offer_workers.run(driver_steps.accept, data["offer_id"], self.cab.pk)
        await self.send_json(wire.OFFER_ACCEPTED(ride_id=ride["id"], ride=ride))

    async def on_offer_decline(self, data):
        await offer_workers.run(offers.decline_offer, data["offer_id"], self.cab.pk)
        await self.send_json(wire.OFFER_DECLINED(offer_id=data["offer_id"]))

    async def on_ride_arriving(self, data):
        ride = await offer_workers.run(driver_steps.arriving, data["ride_id"], self.cab.pk, self.last_fix)  # where the server saw it
        await self.send_json(wire.RIDE_UPDATED(ride=ride))

    async def on_ride_on_board(self, data):
        ride = await offer_workers.run(driver_steps.on_board, data["ride_id"], self.cab.pk)
        await self.send_json(wire.RIDE_UPDATED(ride=ride))

    async def on_ride_cancel(self, data):
        ride_id, step = await offer_workers.run(ride_steps.driver_cancel, data["ride_id"], self.cab.pk, data["reason"], self.last_fix)
        await self.send_json(wire.RIDE_CANCELLED(ride_id=ride_id, reason=data["reason"], next=step))



class PassengerConsumer(BaseConsumer):
    role = "passenger"

    async def connect(self):
        self.passenger = None
        self.groups = []
        await super().connect()

    async def on_auth(self, data):
        passenger = await database_sync_to_async(ride_steps.passenger_by_token)(data["token"])
        if passenger is None:
            await self._end(wire.ERROR(code="bad_token", message=_("Token de passageiro inválido.")), POLICY_VIOLATION)
            return
        self.passenger = passenger
        await self.join(announcements.passenger_group(passenger.pk))  # told when the token changes (erasure)
        await self.send_snapshot()

    async def send_snapshot(self):
        snapshot = await database_sync_to_async(snapshots.for_passenger)(self.passenger)
        for ride in snapshot["rides"]:
            if announcements.ride_group(ride["id"]) not in self.groups:
                await self.join(announcements.ride_group(ride["id"]))
        await self.send_json(snapshot)

    def refusal_before_reading(self, text: str | None) -> dict | None:
        """Before ``auth`` nothing else is read (and the rate limit already counted the frame)."""
        if self.passenger is None and not (text is not None and len(text) <= AUTH_FRAME_CHARS and _is_auth_frame(text)):
            return wire.ERROR(code="auth_required", message=_("Envie primeiro a mensagem “auth” com o seu token."))
        return None

    async def relay(self, event):
        kind = event["message"].get("type")
        if kind == wire.CREDENTIAL_CHANGED.type:
            current = await database_sync_to_async(ride_steps.passenger_by_token)(self.passenger.token)
            if current is None or current.pk != self.passenger.pk:
                await self.end_session()
            return
        await super().relay(event)

    async def on_ride_request(self, data):
        received = time.perf_counter()
        ride = await offer_workers.run(offers.request_ride, pickup=data["pickup"], destination=data.get("destination"),
                                  passenger=self.passenger, needs=tuple(data["needs"]))
        metrics.requested(ride, received)
        if latency_trace.PATH:
            marks = {"consumer": received, "loop": time.perf_counter()}
            marks.update(zip(("worker", "chosen", "loop"), latency_trace.worker_span.get() or ()))
            for hop, at in marks.items():
                latency_trace.mark(ride.pk, hop, at)
        await self.join(announcements.ride_group(ride.pk))
        await self.send_json(wire.RIDE_UPDATE(ride=await database_sync_to_async(snapshots.ride)(ride)))

    async def on_ride_cancel(self, data):
        await database_sync_to_async(ride_steps.cancel_ride)(data["ride_id"], by="passenger", passenger=self.passenger, reason=data["reason"])


def _is_auth_frame(text_data) -> bool:
    try:
        frame = protocol.load(text_data)
    except protocol.ProtocolError:
        return False
    return isinstance(frame, dict) and frame.get("type") == "auth"


class OperatorConsumer(BaseConsumer):
    role = "operator"

    async def connect(self):
        self.groups = []
        user = self.scope.get("user")
        if not (user and user.is_authenticated and user.is_staff):
            await self.close(code=4403)
            return
        await super().connect()

    async def on_connect(self):
        await self.join(announcements.OPERATORS)
        await self.send_snapshot()

    async def send_snapshot(self):
        await self.send_json(await database_sync_to_async(snapshots.for_operator)())

    async def on_ride_create(self, data):
        ride = await offer_workers.run(
            offers.request_ride,
            pickup=data["pickup"], destination=data.get("destination"), caller_name=data["caller_name"], caller_phone=data["caller_phone"],
            needs=tuple(data["needs"]),
        )
        await self.send_json(wire.RIDE_CREATED(ride_id=ride.pk))

    async def on_ride_assign(self, data):
        offer = await offer_workers.run(offers.assign_by_operator, data["ride_id"], data["permit_id"])
        await self.send_json(wire.ASSIGNED(offer_id=offer.pk))

    async def on_ride_cancel(self, data):
        await database_sync_to_async(ride_steps.cancel_ride)(data["ride_id"], by="operator", reason=data["reason"])

    async def on_broadcast(self, data):
        await self.channel_layer.group_send("cabs", {"type": "relay", "message": wire.BROADCAST(text=data["text"])})
        await self.send_json(wire.BROADCAST_SENT())
