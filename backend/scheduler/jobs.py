"""The scheduler: generic jobs run once per period of the local day, across processes.

A job is a small function ``fn(now) -> str`` (``now`` an aware datetime: tests pass a fake clock)
registered with :func:`job`; each app declares its own in ``<app>/jobs.py`` (autodiscovered). A job
is due when the current period (``every`` seconds from local midnight, starting ``at`` seconds past
it) has no :class:`JobRun`; the run's row is inserted in the job's transaction, so a failure
leaves nothing and the next tick tries again, and a second process finds the row and skips.

A job registered ``in_steps=True`` is a series of short transactions, each of which may be done twice
(the indicators' rollup replaces one day at a time): it runs outside one transaction and its row is
written when it finishes. One transaction around a long job would hold the embedded SQLite's only
writer for the whole job, and the dispatcher's tick, which writes every second, would fail waiting for it.

A job registered with :func:`every_tick` instead runs on each tick of every scheduler process, with no
:class:`JobRun`: for work that claims each of its items itself (a conditional UPDATE), so that two runs at
once, here or in a serving process, do each item once (dispatch's overdue advance bookings).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Callable

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.module_loading import autodiscover_modules

from .models import JobRun

log = logging.getLogger(__name__)
DAY = 24 * 3600


@dataclass(frozen=True)
class Job:
    name: str
    fn: Callable[[datetime], str]
    every: int = DAY  # seconds; divides a day
    at: int = 0  # seconds past local midnight when the first period of the day starts
    in_steps: bool = False  # short, repeatable transactions of its own instead of one around it (module docstring)

    def slot(self, now: datetime) -> str | None:
        """The period ``now`` falls in (``YYYY-MM-DD#n``), or None before the day's first period."""
        local = timezone.localtime(now)
        midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
        elapsed = (local - midnight).total_seconds() - self.at
        if elapsed < 0:
            return None
        return f"{local.date().isoformat()}#{int(elapsed // self.every)}"


_JOBS: dict[str, Job] = {}


def job(name: str, *, every: timedelta = timedelta(days=1), at: timedelta = timedelta(0), in_steps: bool = False):
    """Register ``fn(now) -> str`` as the job ``name``, due every ``every`` from ``at`` past local midnight."""
    seconds = int(every.total_seconds())
    if seconds <= 0 or DAY % seconds:
        raise ValueError("every must divide a day")

    def register(fn):
        _JOBS[name] = Job(name, fn, seconds, int(at.total_seconds()), in_steps)
        return fn

    return register


_EVERY_TICK: dict[str, Callable[[datetime], str]] = {}


def every_tick(name: str):
    """Register ``fn(now) -> str`` to run on every tick (no period, no JobRun): it must claim its own work."""

    def register(fn):
        _EVERY_TICK[name] = fn
        return fn

    return register


def registered() -> dict[str, Job]:
    autodiscover_modules("jobs")
    return dict(_JOBS)


def registered_every_tick() -> dict[str, Callable[[datetime], str]]:
    autodiscover_modules("jobs")
    return dict(_EVERY_TICK)


def run_every_tick(now: datetime | None = None) -> dict[str, str]:
    """Run the :func:`every_tick` jobs; their non-empty summaries by name. A failure is logged and tried next tick."""
    now = now or timezone.now()
    summaries = {}
    for name, fn in registered_every_tick().items():
        try:
            summary = fn(now)
        except Exception:  # one job's failure must not stop the others
            log.exception("scheduled job %s failed", name)
            continue
        if summary:
            summaries[name] = summary
    return summaries


def run_job(j: Job, now: datetime) -> JobRun | None:
    """Run ``j`` for the period of ``now`` unless it already ran for it (here or in another process)."""
    slot = j.slot(now)
    if slot is None or JobRun.objects.filter(job=j.name, slot=slot).exists():
        return None
    if j.in_steps:
        return _run_in_steps(j, slot, now)
    with transaction.atomic():
        try:
            with transaction.atomic():
                run = JobRun.objects.create(job=j.name, slot=slot, started_at=timezone.now())
        except IntegrityError:
            return None  # another process claimed the period first
        run.summary = j.fn(now) or ""
        run.finished_at = timezone.now()
        run.save(update_fields=["summary", "finished_at"])
    return run


def _run_in_steps(j: Job, slot: str, now: datetime) -> JobRun | None:
    started_at = timezone.now()
    summary = j.fn(now) or ""  # a failure writes no row: the next tick runs it again, redoing what it redoes
    try:
        with transaction.atomic():
            return JobRun.objects.create(job=j.name, slot=slot, started_at=started_at, summary=summary,
                                         finished_at=timezone.now())
    except IntegrityError:
        return None  # another process ran it meanwhile: each step is done whole, whichever did it


def run_due(now: datetime | None = None, only: set[str] | None = None) -> list[JobRun]:
    """Run every due job once for ``now``'s period; a failing job is logged and retried at the next tick."""
    now = now or timezone.now()
    runs = []
    for j in registered().values():
        if only and j.name not in only:
            continue
        try:
            run = run_job(j, now)
        except Exception:  # one job's failure must not stop the others; it is retried next tick
            log.exception("scheduled job %s failed", j.name)
            continue
        if run is not None:
            runs.append(run)
    return runs
