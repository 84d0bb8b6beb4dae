"""The taxímetro a cab carries, its INMETRO aferição and the tariff it may charge (Art. 45, §3-§5, Art. 47).

Art. 47, §1-§2: INMETRO afers the taxímetros, "obrigatoriamente, quando da
alteração das tarifas". Art. 45, §3-§4: in the period after a decree that
precedes the aferição (at most 30 days), correction tables authorized by the
Mayor convert what the not-yet-afered meter shows into the decreed amount;
outside that case the passenger pays what the meter registers (§5).

Reading (docs/readings-tariffs.md): a taxímetro is afered *for* the tariff in
force on its aferição date. On a day ``on``:

* afered for the tariff in force: the meter runs that tariff, the fare is its
  reading (§5);
* afered for the tariff just before it, within the aferição grace counted from
  the new tariff's effective date (dated parameter ``taximeter_aferition_grace_days``,
  30 by Art. 45, §4): the meter keeps running the tariff it was afered for
  (Art. 47, §3: nobody alters it without INMETRO) and the fare is the reading,
  converted by the correction table in force if the Mayor authorized one (§3);
* otherwise (never afered, afered for an older tariff, or the grace over): the
  cab may not charge (Art. 47, §2), so it may not work.

Nothing here imports Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Iterable, Optional, Sequence

from .decision import Decision, Reason, refused
from .i18n import gettext_noop as _
from .tariffs import CorrectionTable, NoTariffInForce, Tariff, correction_applies, tariff_in_force


@dataclass(frozen=True)
class MeterRegime:
    """What a cab's meter charges on a day: ``tariff`` is what the meter runs (the one it was afered for),
    ``correction`` the table that converts its reading, if any; ``decision`` refuses when it may not charge."""

    decision: Decision
    tariff: Optional[Tariff] = None
    correction: Optional[CorrectionTable] = None

    def fare_due(self, meter_total: Decimal) -> Decimal:
        """What the passenger pays for a meter reading (Art. 45, §3 and §5)."""
        if self.correction is None:
            return meter_total
        return self.correction.apply(meter_total)


def afered_for(tariffs: Sequence[Tariff], afered_on: date) -> Optional[Tariff]:
    """The tariff a taxímetro afered on ``afered_on`` was gauged for: the one in force that day (Art. 47, §2)."""
    try:
        return tariff_in_force(tariffs, afered_on)
    except NoTariffInForce:
        return None


def meter_regime(
    tariffs: Sequence[Tariff],
    correction_tables: Iterable[CorrectionTable],
    last_aferition_on: Optional[date],
    on: date,
    grace_days: int,
) -> MeterRegime:
    """The tariff a cab's taxímetro charges on ``on`` and the correction of its reading
    (Art. 45, §3, Art. 45, §4, Art. 45, §5, Art. 47, §2); refused when it may not charge."""
    try:
        current = tariff_in_force(tariffs, on)
    except NoTariffInForce:
        return MeterRegime(Decision.refuse(Reason(
            "Art. 45", "tariff_missing", _("Nenhuma tarifa decretada está em vigor em {day}."), {"day": on})))
    if last_aferition_on is None or last_aferition_on > on:
        return MeterRegime(Decision.refuse(Reason(
            "Art. 47, §1", "taximeter_not_afered",
            _("O taxímetro do veículo não tem aferição do INMETRO registrada (Art. 47, §1)."), {})))
    gauged = afered_for(tariffs, last_aferition_on)
    if gauged == current:
        return MeterRegime(Decision.allow("Art. 45, §5", "Art. 47, §2"), current)
    earlier = [t for t in tariffs if t.effective_from < current.effective_from]
    previous = max(earlier, key=lambda t: t.effective_from) if earlier else None
    grace_until = current.effective_from + timedelta(days=int(grace_days) - 1)
    if gauged is None or gauged != previous or on > grace_until:
        return MeterRegime(Decision.refuse(Reason(
            "Art. 47, §2", "taximeter_aferition_overdue",
            _("O taxímetro não foi aferido para a tarifa em vigor desde {since} ({decree}); a aferição era obrigatória até {until} (Art. 47, §2)."),
            {"since": current.effective_from, "decree": current.decree, "until": grace_until},
        )))
    for table in correction_tables:
        if table.tariff == current and correction_applies(table, on):
            return MeterRegime(Decision.allow("Art. 45, §3", "Art. 45, §4", "Art. 47, §2"), gauged, table)
    return MeterRegime(Decision.allow("Art. 45, §5", "Art. 47, §2"), gauged)


def aferition_due(
    tariffs: Sequence[Tariff], last_aferition_on: Optional[date], on: date, grace_days: int,
) -> Optional[date]:
    """The last day to afer the taxímetro for the tariff in force, or None when it is afered for it
    (Art. 47, §2: "obrigatoriamente, quando da alteração das tarifas")."""
    try:
        current = tariff_in_force(tariffs, on)
    except NoTariffInForce:
        return None
    if last_aferition_on is not None and last_aferition_on <= on and afered_for(tariffs, last_aferition_on) == current:
        return None
    return current.effective_from + timedelta(days=int(grace_days) - 1)


def may_record_aferition(afered_on: date, certificate: str, seal: str, installed_on: date,
                         removed_on: Optional[date], today: date) -> Decision:
    """An INMETRO aferição of an installed taxímetro: certificate and seal (lacre) named, dated on a day the
    meter was installed, not in the future (Art. 47, §1, Art. 47, §3)."""
    reasons = []
    if not (certificate or "").strip():
        reasons.append(Reason("Art. 47, §1", "aferition_without_certificate",
                              _("Informe o certificado de aferição do INMETRO."), {}))
    if not (seal or "").strip():
        reasons.append(Reason("Art. 47, §3", "aferition_without_seal",
                              _("Informe o lacre aplicado pelo INMETRO na aferição."), {}))
    if afered_on > today:
        reasons.append(Reason("Art. 47, §1", "aferition_in_future",
                              _("A aferição não pode ter data futura ({on})."), {"on": afered_on}))
    if afered_on < installed_on or (removed_on is not None and afered_on > removed_on):
        reasons.append(Reason("Art. 47, §3", "aferition_meter_not_installed",
                              _("Na data da aferição ({on}) o taxímetro não estava instalado no veículo."), {"on": afered_on}))
    if reasons:
        return Decision.refuse(*reasons)
    return Decision.allow("Art. 47, §1", "Art. 47, §3")


def may_install(already_installed: bool, serial_taken: bool, make: str, serial: str) -> tuple[Decision, Decision]:
    """One taxímetro per cab (Art. 47, §3), one register entry per device (Art. 47): the cab's answer, the device's."""
    cab = (refused("Art. 47, §3", "taximeter_already_installed",
                   _("O veículo já tem um taxímetro instalado; registre antes a retirada autorizada pelo INMETRO."))
           if already_installed else Decision.allow("Art. 47, §3"))
    device = (refused("Art. 47", "taximeter_serial_taken", _("Já há um taxímetro {make} com o número de série {serial}."),
                      make=make, serial=serial)
              if serial_taken else Decision.allow("Art. 47"))
    return cab, device


def may_remove(inmetro_permission: str, already_removed: bool, installed_on: date, removed_on: date) -> tuple[Decision, Decision]:
    """A taxímetro leaves the cab only with INMETRO's permission (Art. 47, §3), once, not before it was installed:
    the permission's answer, the date's."""
    permission = (refused("Art. 47, §3", "taximeter_removal_without_permission",
                          _("Sem permissão do INMETRO o taxímetro não pode ser retirado do veículo."))
                  if not (inmetro_permission or "").strip() else Decision.allow("Art. 47, §3"))
    day = (refused("Art. 47, §3", "taximeter_removal_date", _("Data de retirada inválida para este taxímetro."))
           if already_removed or removed_on < installed_on else Decision.allow("Art. 47, §3"))
    return permission, day
