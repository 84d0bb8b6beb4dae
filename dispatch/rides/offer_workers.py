"""Where offers are made: a worker process beside each serving process.

Choosing a cab and writing the ride with its offer is mostly Python around several database round trips. In the
Daphne process that work shares the GIL with the event loop, which serves thousands of position frames a second, and
requests waited behind it (docs/dispatch-benchmark.md, "Measurements by module"). In a worker process it runs on
another core. The worker announces nothing itself: what its commits announce comes back with the result and leaves
through this process's outbox, in commit order, so the in-memory and the Redis layers behave alike.

``DISPATCH_OFFER_PROCESSES = 0`` runs the same calls on threads of the serving process (the
in-process tests use it: a worker could not see their test database). A worker that dies loses no
ride: its transaction is rolled back, or committed and then found by the snapshots and the sweeper.
"""

from __future__ import annotations

import asyncio
import ctypes
import functools
import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections

from dispatch.events import announcements
from dispatch.ops import latency_trace

# Threads of their own, each with its own database connection: an offer never waits behind other
# rides' trip steps on Channels' one database thread.
_threads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="dispatch-offers")
_pool: ProcessPoolExecutor | None = None


def start() -> None:
    """Start the workers now, so the first request does not wait for Django to load in them."""
    if settings.DISPATCH_OFFER_PROCESSES:
        _workers().submit(os.getpid)


def _stop_with_the_server() -> None:
    """Under Daphne (Twisted), stop the workers when the server is asked to stop.

    Otherwise the interpreter's exit waits for the pool: for a worker still loading Django (seconds on a
    busy machine) and for the call it was given, so a SIGTERM'd Daphne lingered until killed
    (``docker compose stop`` waits 10 s too).
    """
    if "twisted.internet.reactor" in sys.modules:
        from twisted.internet import reactor

        reactor.addSystemEventTrigger("before", "shutdown", stop)


def stop() -> None:
    """End the workers now: a call under way is lost as if its worker died (its transaction rolls back)."""
    global _pool
    if _pool is None:
        return
    for child in multiprocessing.active_children():  # this process's only children are the pool's workers
        child.terminate()
    _pool.shutdown(wait=False, cancel_futures=True)
    _pool = None


async def run(func, *args, **kwargs):
    """``func(*args, **kwargs)`` (a module-level service) in a worker process, or on an offer thread."""
    if not settings.DISPATCH_OFFER_PROCESSES:
        return await database_sync_to_async(func, thread_sensitive=False, executor=_threads)(*args, **kwargs)
    try:
        result, announced, span = await asyncio.get_running_loop().run_in_executor(
            _workers(), functools.partial(_in_worker, func, args, kwargs)
        )
    except BrokenProcessPool:
        _forget_workers()  # the next call starts new ones
        raise
    latency_trace.worker_span.set(span)
    for group, message in announced:
        announcements.post(group, message)
    return result


def _workers() -> ProcessPoolExecutor:
    global _pool
    if _pool is None:
        _stop_with_the_server()
        _pool = ProcessPoolExecutor(
            max_workers=settings.DISPATCH_OFFER_PROCESSES,
            mp_context=multiprocessing.get_context("spawn"),  # not fork: the serving process has threads and sockets
            initializer=_start_worker,
            initargs=(os.getpid(),),
        )
    return _pool


def _forget_workers() -> None:
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
    _pool = None


# --- in the worker process ------------------------------------------------------------------------


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _start_worker(parent: int) -> None:
    _die_with(parent)  # first: Django takes seconds to load, and the parent may be killed meanwhile
    import django

    django.setup()


def _die_with(parent: int) -> None:
    """A worker whose serving process was killed (SIGKILL leaves it no time to stop them) dies too.

    On Linux the kernel kills it (``prctl(PR_SET_PDEATHSIG)``, one system call through ctypes: the packages that
    wrap prctl are unmaintained or need a compiler), even while it is stuck in a statement holding the
    interpreter lock; elsewhere a thread watches ``os.getppid()``. With its workers gone, multiprocessing's
    ``resource_tracker`` reads the end of its pipe and exits too (docs/operations.md).
    """
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # the parent died before the request: no signal will come
            os._exit(0)
        return
    threading.Thread(target=_exit_with, args=(parent,), daemon=True, name="exit-with-parent").start()


def _exit_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1)
    os._exit(0)


def _in_worker(func, args, kwargs):
    started = time.perf_counter()
    announced = announcements.collect()
    close_old_connections()
    try:
        return func(*args, **kwargs), announced, (started, time.perf_counter())
    finally:
        close_old_connections()
