"""Where offers are made: worker processes beside each serving process.

Choosing a cab and writing the ride with its offer is mostly Python around several database round trips. In the
Daphne process that work shares the GIL with the event loop, which serves thousands of position frames a second, and
requests waited behind it (docs/dispatch-benchmark.md, "Measurements by module"). In a worker process it runs on
another core. The worker announces nothing itself: what its commits announce comes back with the result and leaves
through this process's outbox, in commit order, so the in-memory and the Redis layers behave alike.

Each worker is a process with a socket of its own to the event loop: the loop writes the call to it and reads the
answer from it like any other socket (asyncio streams), one call at a time per worker. ``ProcessPoolExecutor``
passed each call through two threads of the serving process (its manager and its queue's feeder) and each answer
through one; on a busy machine each of those threads waited for a core and for the GIL, which added 11-14 ms to the offer's p99
(docs/dispatch-benchmark.md, "Fewer hand-overs").

``DISPATCH_OFFER_PROCESSES = 0`` runs the same calls on threads of the serving process (the in-process tests use
it: a worker could not see their test database). A worker that dies loses no ride: its transaction is rolled back,
or committed and then found by the snapshots and the sweeper; the call it was making raises ``BrokenProcessPool``
and a new worker takes its place.
"""

from __future__ import annotations

import asyncio
import ctypes
import multiprocessing
import os
import pickle
import signal
import socket
import struct
import sys
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections

from dispatch.events import announcements
from dispatch.ops import latency_trace

# Threads of their own, each with its own database connection: an offer never waits behind other
# rides' trip steps on Channels' one database thread.
_threads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="dispatch-offers")
_HEADER = struct.Struct("!i")  # multiprocessing.connection's framing: the worker's Connection reads and writes it


class _Worker:
    """One worker process and this process's end of its socket."""

    def __init__(self, process: multiprocessing.Process, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.process, self.reader, self.writer = process, reader, writer

    async def call(self, payload: bytes) -> tuple:
        self.writer.write(_HEADER.pack(len(payload)) + payload)
        await self.writer.drain()
        (size,) = _HEADER.unpack(await self.reader.readexactly(_HEADER.size))
        return pickle.loads(await self.reader.readexactly(size))  # noqa: S301 - our own child's answer, on a socket pair

    def end(self) -> None:
        try:
            self.writer.close()
        except RuntimeError:  # its event loop has closed (a test's): the socket goes with the process
            pass
        if self.process.is_alive():
            self.process.terminate()


class _Pool:
    """``size`` workers on one event loop, started at once; a call waits for an idle one."""

    def __init__(self, size: int):
        self.loop = asyncio.get_running_loop()
        self.workers: list[_Worker] = []
        self.calls: set[asyncio.Task] = set()  # under way: kept here, the event loop holds tasks only weakly
        self.idle: asyncio.Queue[_Worker | None] = asyncio.Queue()
        for _ in range(size):
            self.idle.put_nowait(None)  # a place for a worker: the next call on it starts one
        for _ in range(size):  # a first call each, so the first request does not wait for Django to load in them
            self.submit(pickle.dumps((os.getpid, (), {})))

    def submit(self, payload: bytes) -> asyncio.Task:
        """:meth:`call` as a task of its own: finished even if whoever awaits it goes away."""
        task = self.loop.create_task(self.call(payload))
        self.calls.add(task)
        task.add_done_callback(self.calls.discard)
        return task

    async def call(self, payload: bytes) -> tuple:
        """Make a call on an idle worker and post what its commits announced; ``(outcome, value, (started, ended,
        back))``: when the worker started and ended it, when its answer was read here (``latency_trace``)."""
        worker = await self.idle.get()
        while worker is not None and not worker.process.is_alive():  # died while idle: no call needs to fail for it
            self._forget(worker)
            worker = await self.idle.get()
        if worker is None:
            try:
                worker = await self._start_worker()
            except BaseException:
                self.idle.put_nowait(None)
                raise
        try:
            outcome, value, announced, (started, ended) = await worker.call(payload)
        except (ConnectionError, asyncio.IncompleteReadError) as exc:  # the worker died
            self._forget(worker)
            raise BrokenProcessPool("an offering worker ended during the call") from exc
        except BaseException:  # the loop is stopping: the answer, if any, would be read by the next call
            self._forget(worker)
            raise
        back = time.perf_counter()
        self.idle.put_nowait(worker)
        for group, message in announced:  # committed: posted even when the call raised after its commit
            announcements.post(group, message)
        return outcome, value, (started, ended, back)

    async def _start_worker(self) -> _Worker:
        ours, theirs = socket.socketpair()
        process = multiprocessing.get_context("spawn").Process(  # not fork: the serving process has threads and sockets
            target=_serve, args=(os.getpid(), theirs), name="dispatch-offer-worker", daemon=True
        )
        process.start()
        theirs.close()
        reader, writer = await asyncio.open_connection(sock=ours)
        worker = _Worker(process, reader, writer)
        self.workers.append(worker)
        return worker

    def _forget(self, worker: _Worker) -> None:
        worker.end()
        if worker in self.workers:
            self.workers.remove(worker)
        self.idle.put_nowait(None)  # its place, for a new worker

    def end(self) -> None:
        for worker in self.workers:
            worker.end()
        self.workers = []


_pool: _Pool | None = None


def start() -> None:
    """Start the workers now (on the running event loop), so the first request does not wait for Django to load in them."""
    if settings.DISPATCH_OFFER_PROCESSES:
        _pool_here()


def _stop_with_the_server() -> None:
    """Under Daphne (Twisted), stop the workers when the server is asked to stop.

    Otherwise the interpreter's exit waits for them: for a worker still loading Django (seconds on a
    busy machine) and for the call it was given, so a SIGTERM'd Daphne lingered until killed
    (``docker compose stop`` waits 10 s too).
    """
    if "twisted.internet.reactor" in sys.modules:
        from twisted.internet import reactor

        reactor.addSystemEventTrigger("before", "shutdown", stop)


def stop() -> None:
    """End the workers now: a call under way is lost as if its worker died (its transaction rolls back)."""
    global _pool
    if _pool is not None:
        _pool.end()
    _pool = None


async def run(func, *args, **kwargs):
    """``func(*args, **kwargs)`` (a module-level service) in a worker process, or on an offer thread."""
    if not settings.DISPATCH_OFFER_PROCESSES:
        return await database_sync_to_async(func, thread_sensitive=False, executor=_threads)(*args, **kwargs)
    # Shielded: a call sent is finished, and what it committed announced, even if its caller goes away meanwhile.
    outcome, value, span = await asyncio.shield(_pool_here().submit(pickle.dumps((func, args, kwargs))))
    latency_trace.worker_span.set(span)
    if outcome == "raised":
        raise value
    return value


def _pool_here() -> _Pool:
    """The workers of the running event loop (a test's new loop gets new ones)."""
    global _pool
    loop = asyncio.get_running_loop()
    if _pool is None or _pool.loop is not loop:
        if _pool is None:
            _stop_with_the_server()
        stop()
        _pool = _Pool(settings.DISPATCH_OFFER_PROCESSES)
    return _pool


# --- in the worker process ------------------------------------------------------------------------


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _serve(parent: int, sock: socket.socket) -> None:
    """Answer the serving process's calls, one at a time, until it closes the socket."""
    _die_with(parent)  # first: Django takes seconds to load, and the parent may be killed meanwhile
    conn = Connection(sock.detach())
    import django

    django.setup()
    _load_what_calls_need()
    while True:
        try:
            func, args, kwargs = pickle.loads(conn.recv_bytes())  # noqa: S301 - our parent's call, on a socket pair
        except EOFError:
            return
        conn.send_bytes(_answer(*_call(func, args, kwargs)))


def _load_what_calls_need() -> None:
    """Load before the first call what it would otherwise load while its passenger waits: the street index that
    names a pickup given without an address (0.15-0.25 s on a quiet machine, and the first offer of each of sixteen
    workers took 0.25-0.5 s with eight serving processes on two cores: docs/dispatch-benchmark.md, "Cold workers"),
    and the services' modules."""
    from dispatch.rides import driver_steps, offers, ride_steps  # noqa: F401
    from zones.gazetteer import default_gazetteer

    default_gazetteer()


def _call(func, args, kwargs) -> tuple:
    """``(outcome, value, announced, span)``: ``func``'s result or the exception it raised, what it announced."""
    started = time.perf_counter()
    announced = announcements.collect()
    close_old_connections()
    try:
        return "returned", func(*args, **kwargs), announced, (started, time.perf_counter())
    except Exception as exc:
        exc.add_note("in the offering worker:\n" + "".join(traceback.format_exception(exc)))  # logged by the serving process
        return "raised", exc, announced, (started, time.perf_counter())
    finally:
        close_old_connections()


def _answer(outcome: str, value, announced: list, span: tuple) -> bytes:
    try:
        return pickle.dumps((outcome, value, announced, span))
    except Exception as exc:  # a value that cannot cross: the call fails, what it committed is still announced
        failure = RuntimeError(f"the offering worker's {outcome} value could not be sent: {exc!r}")
        return pickle.dumps(("raised", failure, announced, span))


def _die_with(parent: int) -> None:
    """A worker whose serving process was killed (SIGKILL leaves it no time to stop them) dies too.

    On Linux the kernel kills it (``prctl(PR_SET_PDEATHSIG)``, one system call through ctypes: the packages that
    wrap prctl are unmaintained or need a compiler), even while it is stuck in a statement holding the
    interpreter lock; elsewhere a thread watches ``os.getppid()``.
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
