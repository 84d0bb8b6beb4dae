"""Network calls off the UI thread: a blocking call runs on a worker, its result comes back on the UI thread.

``Background(post, executor)``: ``post`` runs a callable on the UI thread (Kivy: ``Clock.schedule_once``),
``executor`` runs the blocking call (a small thread pool on the phone).  Without ``post`` (tests, scripts, the
demo's in-memory fakes) everything runs at once, in order, on the caller's thread; tests that want to see the
loading state pass an executor that holds the calls until told to run them.
"""

from __future__ import annotations

from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any, Callable, Optional

Post = Callable[[Callable[[], None]], None]


class InlineExecutor:
    """Runs each call at once on the caller's thread."""

    def submit(self, fn: Callable[[], Any]) -> None:
        fn()


class Background:
    def __init__(self, post: Optional[Post] = None, executor: Optional[Executor | InlineExecutor] = None):
        self.post: Post = post if post is not None else (lambda fn: fn())
        if executor is None:
            executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="net") if post is not None else InlineExecutor()
        self.executor = executor

    def run(self, call: Callable[[], Any], done: Callable[[Any], None], failed: Callable[[Exception], None]) -> None:
        """``call()`` on a worker; then ``done(result)`` or ``failed(error)`` on the UI thread."""

        def work() -> None:
            try:
                result = call()
            except Exception as exc:  # handed to the UI thread: a view-model says it (offline, refused)
                error = exc  # ``exc`` is unbound once the except block ends; the posted callback runs later
                self.post(lambda: failed(error))
                return
            self.post(lambda: done(result))

        self.executor.submit(work)
