"""The acts on a decreed tariff and on a trip's trace the server re-runs (Art. 42-45).

A decreed tariff in force is immutable: a new decree adjusts it (Art. 44); one not yet in force is corrected only
to take effect after today, and revoked only without the correction tables authorized for it (Art. 45, §3). A trace
the server re-runs carries aware instants and a start, on a day with meter limits and a tariff in force (Art. 43,
Art. 45). Nothing here imports Django.
"""

from __future__ import annotations

from datetime import date
from typing import Optional

from .decision import Decision, refused
from .i18n import gettext_noop as _


def tariff_not_in_force(effective_from: date, today: date) -> Decision:
    """A decree that took effect is neither altered nor deleted: the adjustment is a new decree (Art. 44)."""
    if effective_from <= today:
        return refused(
            "Art. 44", "tariff_in_force_immutable",
            _("A tarifa vigente desde {since} já está em vigor e não pode ser alterada nem excluída: "
              "o reajuste é feito por novo decreto."),
            since=effective_from,
        )
    return Decision.allow("Art. 44")


def may_amend_to(effective_from: date, today: date) -> Decision:
    """A decree not yet in force is corrected only to take effect after today (Art. 44)."""
    if effective_from <= today:
        return refused("Art. 44", "tariff_in_force_immutable",
                       _("Uma tarifa só pode ser corrigida para entrar em vigor depois de hoje ({today})."), today=today)
    return Decision.allow("Art. 44")


def may_revoke(has_correction_tables: bool) -> Decision:
    """A decree with correction tables authorized for it (Art. 45, §3) loses them first."""
    if has_correction_tables:
        return refused("Art. 45, §3", "tariff_has_correction_tables",
                       _("A tarifa tem tabelas de correção autorizadas; exclua-as antes."))
    return Decision.allow("Art. 45, §3")


def trace_instant_aware(aware: bool) -> Decision:
    """Every instant of a trace the server re-runs names its time zone (Art. 43: the meter counts real time)."""
    if not aware:
        return refused("Art. 43", "trace_naive_time", _("Toda data e hora do trajeto deve indicar o fuso horário."))
    return Decision.allow("Art. 43")


def trace_has_start(has_fixes: bool, started_at: Optional[object]) -> Decision:
    """A trip starts somewhere: a first fix or a start instant (Art. 43)."""
    if started_at is None and not has_fixes:
        return refused("Art. 43", "trace_empty", _("O trajeto está vazio e o início não foi informado."))
    return Decision.allow("Art. 43")


def meter_limits_in_force(found: bool, day: date) -> Decision:
    """The meter's dated limits (trip length, fixes) are in force on the trip's day (Art. 43)."""
    if not found:
        return refused("Art. 43", "trip_before_parameters",
                       _("Não há limites do taxímetro em vigor em {day}; confira a data do início."), day=day)
    return Decision.allow("Art. 43")


def tariff_found(found: bool, day: date) -> Decision:
    """A trip is charged by a decreed tariff in force on its day (Art. 45)."""
    if not found:
        return refused("Art. 45", "tariff_missing", _("Nenhuma tarifa decretada está em vigor em {day}."), day=day)
    return Decision.allow("Art. 45")


def trace_readable(error: Optional[str]) -> Decision:
    """The meter re-runs the trace without error (Art. 43)."""
    if error is not None:
        return refused("Art. 43", "trace_invalid", _("Trajeto inválido: {error}."), error=error)
    return Decision.allow("Art. 43")
