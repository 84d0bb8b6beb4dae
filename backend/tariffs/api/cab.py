"""The driver's own cab in ``/api/tariffs/current/``: what its taxímetro charges (Art. 45, §3-§5, Art. 47).

The answer needs the registry (the permit the driver drives, its cab, the meter's aferição), which sits above
tariffs (a taxímetro is afered for a tariff decree), so the registry registers it here in ``RegistryConfig.ready``
(``backend.registry.api.cab_taximeter``) and the tariffs' view asks through this hook.
"""

from __future__ import annotations

from datetime import datetime
from typing import Callable

from django.core.exceptions import ImproperlyConfigured

_answer: Callable[[object, datetime], dict | None] | None = None


def answered_by(answer: Callable[[object, datetime], dict | None]) -> None:
    """Register ``answer(user, at)``: None unless the user drives a cab, else its meter's regime (the registry)."""
    global _answer  # noqa: PLW0603 (one answer per process, set once at start-up)
    _answer = answer


def cab_taximeter_answer(user, at: datetime) -> dict | None:
    if _answer is None:
        raise ImproperlyConfigured("No app answers for the driver's cab (backend.registry registers it).")
    return _answer(user, at)
