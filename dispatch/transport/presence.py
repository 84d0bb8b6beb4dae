"""Presence that follows the connections really open, in every process (issue 14).

Each driver socket is a ``CabConnection`` row of its serving process; each process renews its lease
(``ServingProcess.lease_until``) on every background tick. A cab is online while it has a connection in a
process whose lease has not run out: closing one of two sockets of a reconnecting phone leaves it online, and
a process that dies takes its cabs offline within ``DISPATCH_PROCESS_LEASE_SECONDS`` (any other process's tick
sweeps it). One person drives a cab at a time: a second driver is refused while the first is connected.

A process that stalls (SIGSTOP, a swap storm, a paused VM) longer than its lease is swept by the others
while its sockets stay open. It finds out on its next renewal (the lease had lapsed) and proves its rows
against the sockets it holds (:func:`registered_channels`, ``dispatch.transport.held_sockets``): every socket whose row
is gone is recorded again (docs/operations.md).
"""

from __future__ import annotations

import os
import secrets
import socket
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from dispatch.models import Cab, CabConnection, ServingProcess
from dispatch.transport import connection_sql

PROCESS = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
SWEEP_PER_TICK = 500  # cabs taken offline per tick after a process died: bounded work, the rest next tick
FULL_SWEEP_SECONDS = 30.0  # orphans are looked for at least this often, even when no process died
_sweep_due, _swept_at = False, None
_renewed = False  # whether this process has renewed its lease yet


def lease() -> timedelta:
    return timedelta(seconds=settings.DISPATCH_PROCESS_LEASE_SECONDS)


def renew(now: datetime | None = None) -> bool:
    """This process is alive for one more lease (the tick calls it). False when the lease had lapsed (run out,
    or swept by a process that found it run out): this process's connection rows may be gone."""
    global _renewed
    now = now or timezone.now()
    if ServingProcess.objects.filter(name=PROCESS, lease_until__gt=now).update(lease_until=now + lease()):
        _renewed = True
        return True
    ServingProcess.objects.update_or_create(name=PROCESS, defaults={"lease_until": now + lease()})
    lapsed, _renewed = _renewed, True  # the first renewal finds no lease yet (or the one a connection made)
    return not lapsed


def registered_channels() -> set[str]:
    """The channel names of this process's connections whose cab is online: what the dispatcher sees of its sockets."""
    return set(CabConnection.objects.filter(process_id=PROCESS, cab__online=True).values_list("channel_name", flat=True))


def live_connections(now: datetime | None = None):
    """Connections in a process whose lease runs, or in this one (alive, since it asks)."""
    return CabConnection.objects.filter(Q(process__lease_until__gt=now or timezone.now()) | Q(process_id=PROCESS))


def drivers_connected(cab_ids: list[int]) -> dict[int, set[int]]:
    """The people connected to each of these cabs in a live process."""
    found: dict[int, set[int]] = {}
    for cab_id, driver_id in connection_sql.live_drivers(cab_ids, timezone.now(), PROCESS):
        found.setdefault(cab_id, set()).add(driver_id)
    return found


def open_connections(connections: list[tuple[Cab, int, str]]) -> None:
    """Record sockets: (cab, driver's person id, channel name) each."""
    if connections:
        now = timezone.now()
        connection_sql.open_connections(PROCESS, now + lease(), [(cab.pk, person_id, channel) for cab, person_id, channel in connections], now)


def close_connections(cab_ids: list[int], channel_names: list[str]) -> set[int]:
    """Forget these sockets (of these cabs); the cabs left with no live connection (they go offline)."""
    connection_sql.close_connections(channel_names)
    return without_live_connection(cab_ids)


def without_live_connection(cab_ids) -> set[int]:
    """Which of these cabs have no connection in a live process."""
    return set(cab_ids) - {cab_id for cab_id, _driver in connection_sql.live_drivers(cab_ids, timezone.now(), PROCESS)}


def orphaned_cabs(now: datetime | None = None) -> list[int]:
    """Cabs marked online with no connection in a live process (their process died): at most SWEEP_PER_TICK.

    Looking for them reads every online cab (an anti-join with the live connections): at 10,000 cabs the
    largest statement of each process's tick. Orphans appear when a process's lease runs out, so the
    search runs on the tick that removes such a process (whichever process's tick it is), while the
    previous search found a full batch, and every ``FULL_SWEEP_SECONDS`` whatever happened (a process
    that removed a dead one and died before sweeping, a socket closed without going offline).
    """
    global _sweep_due, _swept_at
    now = now or timezone.now()
    # Their connections go too (CASCADE). Never this process's own: it is alive, it is running this (its tick
    # may have been held up between renewing and sweeping).
    removed, _by_model = ServingProcess.objects.filter(lease_until__lte=now).exclude(name=PROCESS).delete()
    if not (removed or _sweep_due or _swept_at is None or (now - _swept_at).total_seconds() >= FULL_SWEEP_SECONDS):
        return []
    _swept_at = now
    alive = live_connections(now).filter(cab=OuterRef("pk"))
    found = list(Cab.objects.filter(online=True).exclude(Exists(alive)).values_list("pk", flat=True)[:SWEEP_PER_TICK])
    _sweep_due = len(found) == SWEEP_PER_TICK  # more left: the next tick goes on
    return found
