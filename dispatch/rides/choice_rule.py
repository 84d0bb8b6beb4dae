"""The dispatcher's rule of choice, pure: which rank's queue serves a pickup, the order the candidates are offered in,
and the first the registry allows (Art. 22, Art. 66).

Django-free so that one rule serves the live dispatcher (``dispatch.rides.choosing``, over the database) and the
simulation that measures its quality (``benchmarks/dispatch_quality.py``, in memory).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Protocol, TypeVar

from taxilaw.geodesy import distance_m

RANK_RADIUS_M = 250  # a pickup this close to a rank is served from the rank's queue first


class Place(Protocol):
    lat: float
    lon: float


R = TypeVar("R", bound=Place)
C = TypeVar("C")
K = TypeVar("K", bound=Hashable)


def rank_for_pickup(lat: float, lon: float, ranks: Iterable[R]) -> R | None:
    """The rank in operation nearest the pickup, if within RANK_RADIUS_M: its queue is offered the ride first."""
    nearest, best = None, RANK_RADIUS_M
    for rank in ranks:
        d = distance_m(lat, lon, rank.lat, rank.lon)
        if d <= best:
            nearest, best = rank, d
    return nearest


def queue_order(checked_in: Sequence[K], free: Mapping[K, C]) -> list[tuple[int, C]]:
    """The free cabs of a rank's queue, first come first served (``checked_in`` in order of arrival), each with its
    place in the queue (from 1, counting every cab checked in, free or not)."""
    return [(position, free[key]) for position, key in enumerate(checked_in, start=1) if key in free]


def candidate_order(queue: Sequence[C], nearest: Iterable[C], key: Callable[[C], Hashable]) -> list[C]:
    """The rank queue first, then the nearest free cabs not already in it."""
    in_queue = {key(c) for c in queue}
    return [*queue, *(c for c in nearest if key(c) not in in_queue)]


def first_allowed(candidates: Iterable[C], decide: Callable[[C], object]) -> tuple[C | None, list]:
    """The first candidate whose ``decide`` (the registry's answer now) allows it, and the answers asked, in order:
    candidates after the chosen one are not asked."""
    answers = []
    for candidate in candidates:
        answer = decide(candidate)
        answers.append(answer)
        if answer:
            return candidate, answers
    return None, answers
