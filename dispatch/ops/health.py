"""Whether a serving process is fit to serve (``/readyz``), and what the operators' console is told (``health``).

Readiness (docs/operations.md): the database answers, the channel layer carries a message to this process and
back, this process's background tick finished within the presence lease (past it, other processes take its cabs
offline), and a scheduler process beat recently. Each check says what is wrong in pt-BR.

The console's alarm: every ``HEALTH_EVERY_SECONDS`` (and at once after a late tick) each process's tick tells the
operators the cabs online and how late it ran; the console raises the alarm when the cabs online drop sharply,
when a tick ran later than the lease, or when no ``health`` frame came for ``SILENCE_AFTER_SECONDS``.
"""

from __future__ import annotations

import asyncio
import time

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.utils import timezone

from backend.scheduler import heartbeat
from dispatch import wire
from dispatch.events import announcements
from dispatch.models import Cab, CabConnection
from dispatch.ops import metrics
from dispatch.transport import presence
from taxilaw.brazil import br_number

HEALTH_EVERY_SECONDS = 2.0
SILENCE_AFTER_SECONDS = 10.0  # five health frames missed: the console's process, its tick or the channel layer is down
CHECK_TIMEOUT_SECONDS = 2.0  # a dependency slower than this to answer a probe is not ready
_told_at: float | None = None


def registered_here() -> int:
    """The cabs the dispatcher sees connected through this process (its connection rows)."""
    return CabConnection.objects.filter(process_id=presence.PROCESS).values("cab").distinct().count()


def ticked() -> None:
    """The end of this process's background tick (``dispatch.transport.background_tick.tick``): measured, and the operators told."""
    global _told_at
    lag = metrics.ticked(settings.DISPATCH_TICK_SECONDS)
    now = time.monotonic()
    late = lag >= settings.DISPATCH_PROCESS_LEASE_SECONDS
    if (late or _told_at is None or now - _told_at >= HEALTH_EVERY_SECONDS) and announcements.listened(announcements.OPERATORS):
        _told_at = now
        tell_operators(lag)


def tell_operators(lag: float) -> None:
    announcements.announce(announcements.OPERATORS, wire.HEALTH(
        at=timezone.now().isoformat(), process=presence.PROCESS, cabs_online=Cab.objects.filter(online=True).count(),
        process_cabs=registered_here(), tick_lag_s=round(lag, 3),
        stall_after_s=settings.DISPATCH_PROCESS_LEASE_SECONDS, silence_after_s=SILENCE_AFTER_SECONDS,
    ))


# --- readiness -------------------------------------------------------------------------------------------


def _ok(detail: str) -> dict:
    return {"ok": True, "detail": detail}


def _failed(detail: str) -> dict:
    return {"ok": False, "detail": detail}


async def readiness() -> dict[str, dict]:
    """Each check's ``{"ok", "detail"}``: ``database``, ``channel_layer``, ``tick``, ``scheduler``."""
    try:
        database, scheduler = await asyncio.wait_for(sync_to_async(_database_and_scheduler)(), CHECK_TIMEOUT_SECONDS)
    except TimeoutError:
        database = _failed(f"o banco de dados não respondeu em {CHECK_TIMEOUT_SECONDS:.0f} s")
        scheduler = _failed("não verificado: o banco de dados não respondeu")
    return {"database": database, "channel_layer": await _channel_layer(), "tick": _tick(), "scheduler": scheduler}


def _database_and_scheduler() -> tuple[dict, dict]:
    """On the request's thread, whose connection Django's request signals open and close as a sync view's."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        age = heartbeat.age()
    except Exception as exc:  # whatever the driver raises, the answer is "not ready", never a 500
        return _failed(f"banco de dados inacessível ({type(exc).__name__}: {exc})"), _failed("não verificado: banco de dados inacessível")
    limit = settings.READYZ_SCHEDULER_MAX_AGE_SECONDS
    if not limit:  # 0: reported, not required (a load balancer must not drop every replica for the scheduler)
        scheduler = _ok("não exigido (READYZ_SCHEDULER_MAX_AGE_SECONDS=0); último sinal " +
                        ("nunca" if age is None else f"há {age:.0f} s"))
    elif age is None:
        scheduler = _failed("nenhum agendador (manage.py scheduler) deu sinal")
    elif age > limit:
        scheduler = _failed(f"o agendador não dá sinal há {age:.0f} s (limite {limit:.0f} s)")
    else:
        scheduler = _ok(f"último sinal há {age:.0f} s")
    return _ok("respondeu"), scheduler


async def _channel_layer() -> dict:
    """A message sent to a channel of this process and received back (Redis: a real round trip)."""
    layer = get_channel_layer()
    try:
        channel = await layer.new_channel()
        await asyncio.wait_for(layer.send(channel, {"type": "readyz.probe"}), CHECK_TIMEOUT_SECONDS)
        await asyncio.wait_for(layer.receive(channel), CHECK_TIMEOUT_SECONDS)
    except TimeoutError:
        return _failed(f"a camada de canais (Redis) não respondeu em {CHECK_TIMEOUT_SECONDS:.0f} s")
    except Exception as exc:
        return _failed(f"camada de canais (Redis) inacessível ({type(exc).__name__})")
    return _ok("respondeu")


def _tick() -> dict:
    age, limit = metrics.tick_age(), settings.DISPATCH_PROCESS_LEASE_SECONDS
    if age is None:
        return _failed("o ciclo de despacho ainda não rodou neste processo")
    if age > limit:
        return _failed(f"o ciclo de despacho deste processo não roda há {br_number(age, 1)} s (limite {limit:.0f} s: "
                       "depois disso os táxis conectados a ele são desconectados pelos outros)")
    return _ok(f"último ciclo há {br_number(age, 1)} s")
