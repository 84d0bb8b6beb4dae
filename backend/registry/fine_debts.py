"""Whether a person owes a fine: the renewal asks (Art. 5, V), enforcement answers.

Fines belong to enforcement, which sits above the registry (an auto names a registry person and permit), so the
registry holds only this hook and enforcement registers its answer in ``EnforcementConfig.ready``. An unanswered
question is an error, never "no debt": a renewal must not be granted because the wiring was forgotten.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from django.core.exceptions import ImproperlyConfigured

if TYPE_CHECKING:
    from .models import Person

_answer: Callable[[Person], bool] | None = None


def answered_by(owes: Callable[[Person], bool]) -> None:
    """Register ``owes(person)``: True when the person has a fine unpaid (enforcement's ready)."""
    global _answer  # noqa: PLW0603 (one answer per process, set once at start-up)
    _answer = owes


def owes_fines(person: Person) -> bool:
    if _answer is None:
        raise ImproperlyConfigured("No app answers whether a person owes fines (backend.enforcement registers it).")
    return _answer(person)
