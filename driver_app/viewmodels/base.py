from __future__ import annotations

from typing import Callable


class Observable:
    """``vm.subscribe(callback)``; the view-model calls ``self.changed()`` after each state change."""

    def __init__(self) -> None:
        self._subscribers: list[Callable[[object], None]] = []

    def subscribe(self, callback: Callable[[object], None]) -> None:
        self._subscribers.append(callback)

    def changed(self) -> None:
        for cb in list(self._subscribers):
            cb(self)
