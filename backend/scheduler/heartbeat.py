"""The scheduler's heartbeat, in the database so that any process can read it (``/readyz``, docs/operations.md).

Each scheduler process writes its row at every check (``manage.py scheduler``); a reader looks at the newest row.
A scheduler that died, or hangs in a job, stops beating.
"""

from __future__ import annotations

import os
import socket
from datetime import datetime, timedelta

from django.utils import timezone

from .models import Heartbeat

NAME = f"{socket.gethostname()}:{os.getpid()}"


def beat(now: datetime | None = None) -> None:
    now = now or timezone.now()
    Heartbeat.objects.update_or_create(name=NAME, defaults={"beat_at": now})
    Heartbeat.objects.filter(beat_at__lt=now - timedelta(days=1)).delete()  # processes long gone (restarts)


def age(now: datetime | None = None) -> float | None:
    """Seconds since the newest heartbeat of any scheduler process; None when none ever beat."""
    last = Heartbeat.objects.order_by("-beat_at").values_list("beat_at", flat=True).first()
    return None if last is None else ((now or timezone.now()) - last).total_seconds()
