"""What the holder of a cab whose taxímetro awaits its aferição is told (Art. 47, §2)."""

from __future__ import annotations

from datetime import date
from typing import Sequence

from taxilaw import taximeters as law
from taxilaw.decision import Reason
from taxilaw.i18n import gettext_noop as _
from taxilaw.tariffs import NoTariffInForce, Tariff, tariff_in_force

_DUE = _("O taxímetro do veículo {plate} deve ser aferido pelo INMETRO para a tarifa em vigor desde {since} até {until} "
         "(Art. 47, §2).")
_UNREGISTERED = _("O veículo {plate} não tem taxímetro aferido pelo INMETRO registrado: sem ele o táxi não cobra corridas "
                  "(Art. 47, §1).")


def aferition_notice(tariffs: Sequence[Tariff], last_aferition_on: date | None, on: date, grace_days: int,
                     plate: str) -> tuple[str, Reason] | None:
    """``(key, reason)`` of the notice due today, or None when the taxímetro is afered for the tariff in force."""
    due = law.aferition_due(tariffs, last_aferition_on, on, grace_days)
    if due is None:
        return None
    try:
        current = tariff_in_force(tariffs, on)
    except NoTariffInForce:  # pragma: no cover - aferition_due answers None then
        return None
    if last_aferition_on is None:
        return f"none:{current.effective_from}", Reason("Art. 47, §1", "taximeter_not_afered", _UNREGISTERED, {"plate": plate})
    return (f"{current.effective_from}",
            Reason("Art. 47, §2", "taximeter_aferition_due", _DUE, {"plate": plate, "since": current.effective_from, "until": due}))
