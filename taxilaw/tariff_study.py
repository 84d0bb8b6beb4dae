"""The tariff study of Art. 42 (archived by the competent body, Art. 44).

Art. 42: the bandeirada and the kilometre are tariffed from the expenses, the
vehicle's depreciation and the capital remuneration, items a) to l); its
parágrafo único caps the capital remuneration (item j) at 12% a year of the
value of the standard vehicle (Art. 1, IX).  :func:`study` turns the cost items
into a cost per km and a proposed tariff, returning every computation line
for a printable report.  Methodology and its parameters: docs/readings-tariffs.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Iterable, Mapping

from .decision import Decision, Reason, refused
from .i18n import gettext_noop as _
from .tariffs import Tariff

CENT = Decimal("0.01")

#: Art. 42, items a) to l) (the law skips "k").
COST_ITEMS: Mapping[str, str] = {
    "a": _("pneus e câmaras"),
    "b": _("depreciação do veículo"),
    "c": _("combustível"),
    "d": _("óleo, lubrificação e lavagem"),
    "e": _("peças e acessórios"),
    "f": _("auxiliares do permissionário"),
    "g": _("licenciamento"),
    "h": _("outras despesas administrativas"),
    "i": _("seguro obrigatório"),
    "j": _("remuneração do capital"),
    "l": _("taxas e impostos"),
}

#: Art. 42, § único: "não poderá exceder a 12% ao ano do valor do veículo padrão".
CAPITAL_REMUNERATION_CAP_YEAR = Decimal("0.12")


def _d(value) -> Decimal:
    return value if isinstance(value, Decimal) else Decimal(str(value))


@dataclass(frozen=True)
class StandardVehicle:
    """The standard vehicle (Art. 1, IX): hypothetical, representative of the fleet.

    ``value`` in BRL; ``km_per_month`` run in total; ``paid_km_ratio`` the
    share of those km run with a passenger; ``average_trip_km`` the average
    paid trip.
    """

    description: str
    value: Decimal
    km_per_month: Decimal
    paid_km_ratio: Decimal = Decimal("0.60")
    average_trip_km: Decimal = Decimal("4")

    def __post_init__(self) -> None:
        for name in ("value", "km_per_month", "paid_km_ratio", "average_trip_km"):
            object.__setattr__(self, name, _d(getattr(self, name)))


@dataclass(frozen=True)
class CostItem:
    """One item of Art. 42 (``item`` is the letter), per ``"month"`` or per ``"km"``."""

    item: str
    amount: Decimal
    basis: str = "month"
    note: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "amount", _d(self.amount))


@dataclass(frozen=True)
class StudyLine:
    """A printable line: what, how much, the unit, the article."""

    label: str
    value: Decimal
    unit: str
    article: str = "Art. 42"


@dataclass(frozen=True)
class TariffStudy:
    """Result of :func:`study` (Art. 42): cost per km, proposal, report lines."""

    cost_per_km: Decimal
    cost_per_paid_km: Decimal
    proposed: Tariff
    lines: tuple[StudyLine, ...]
    decision: Decision
    warnings: tuple[Reason, ...] = field(default_factory=tuple)
    capital_capped: bool = False

    def report(self) -> str:
        """Plain-text report (pt-BR labels)."""
        width = max(len(line.label) for line in self.lines)
        return "\n".join(f"{line.label:<{width}}  {line.value:>14}  {line.unit:<12} {line.article}"
                         for line in self.lines)


def capital_remuneration_cap_month(vehicle: StandardVehicle) -> Decimal:
    """Monthly cap of item j: 12% a year of the standard vehicle's value / 12 (Art. 42, § único)."""
    return (vehicle.value * CAPITAL_REMUNERATION_CAP_YEAR / 12).quantize(CENT, rounding=ROUND_HALF_UP)


def capital_remuneration_decision(monthly_amount: Decimal, vehicle: StandardVehicle) -> Decision:
    """Item j within 12% a year of the standard vehicle's value? (Art. 42, § único)."""
    cap = capital_remuneration_cap_month(vehicle)
    if _d(monthly_amount) > cap:
        return Decision.refuse(Reason(
            "Art. 42, § único", "capital_remuneration_over_cap",
            _("A remuneração do capital (R$ {amount}/mês) excede 12% ao ano do valor do veículo padrão (R$ {cap}/mês)."),
            {"amount": str(_d(monthly_amount)), "cap": str(cap)}))
    return Decision.allow("Art. 42, § único")


# Complexity kept: the tariff study's cost items a) to j) of Art. 42, computed in the law's order.
def study(items: Iterable[CostItem], vehicle: StandardVehicle, *, effective_from: date,  # noqa: C901
          bandeirada_share: Decimal = Decimal("0.25"), b2_ratio: Decimal = Decimal("1.20"),
          waiting_equivalent_kmh: Decimal = Decimal("4.8"), reference: str = "") -> TariffStudy:
    """Cost per km and proposed tariff from items a)-l) (Art. 42, Art. 42, § único, Art. 44).

    1. each item per km (monthly items / ``km_per_month``);
    2. item j capped at 12% a year of the standard vehicle's value;
    3. cost per paid km = cost per km / ``paid_km_ratio``;
    4. revenue of an average trip = cost per paid km x ``average_trip_km``;
       the bandeirada is ``bandeirada_share`` of it and the Bandeira I km the
       rest divided by ``average_trip_km``;
    5. Bandeira II km = Bandeira I km x ``b2_ratio``; waiting hour = Bandeira I
       km x ``waiting_equivalent_kmh`` (the crossover speed).
    Prices are rounded half-up to the cent.
    """
    reasons: list[Reason] = []
    warnings: list[Reason] = []
    lines: list[StudyLine] = []
    by_item: dict[str, CostItem] = {}
    for it in items:
        if it.item not in COST_ITEMS:
            reasons.append(Reason("Art. 42", "study_unknown_item", _("Item de custo desconhecido: {item}."),
                                  {"item": it.item}))
        elif it.item in by_item:
            reasons.append(Reason("Art. 42", "study_duplicate_item", _("Item de custo repetido: {item}."),
                                  {"item": it.item}))
        elif it.basis not in ("month", "km") or it.amount < 0:
            reasons.append(Reason("Art. 42", "study_bad_item", _("Item {item}: valor ou base inválidos."),
                                  {"item": it.item}))
        else:
            by_item[it.item] = it
    if vehicle.value <= 0 or vehicle.km_per_month <= 0 or not (0 < vehicle.paid_km_ratio <= 1) \
            or vehicle.average_trip_km <= 0:
        reasons.append(Reason("Art. 1, IX", "study_bad_vehicle", _("Veículo padrão com dados inválidos."), {}))
    if reasons:
        raise ValueError("; ".join(r.message for r in reasons))

    km = vehicle.km_per_month
    lines.append(StudyLine(_("Veículo padrão: ") + vehicle.description, vehicle.value, "R$", "Art. 1, IX"))
    lines.append(StudyLine(_("Quilometragem mensal do veículo padrão"), km, "km/mês", "Art. 1, IX"))
    cap_month = capital_remuneration_cap_month(vehicle)
    capped = False
    total = Decimal(0)
    for letter, label in COST_ITEMS.items():
        found = by_item.get(letter)
        if found is None:
            lines.append(StudyLine(f"{letter}) {label} ({_('não informado')})", Decimal("0.0000"), "R$/km"))
            continue
        per_month = found.amount * km if found.basis == "km" else found.amount
        article = "Art. 42"
        if letter == "j":
            article = "Art. 42, § único"
            lines.append(StudyLine(_("j) teto: 12% a.a. do valor do veículo padrão"), cap_month, "R$/mês", article))
            if per_month > cap_month:
                warnings.extend(capital_remuneration_decision(per_month, vehicle).reasons)
                lines.append(StudyLine(_("j) informado (acima do teto, limitado)"), per_month.quantize(CENT), "R$/mês",
                                       article))
                per_month, capped = cap_month, True
        per_km = (per_month / km).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
        total += per_km
        lines.append(StudyLine(f"{letter}) {label}", per_km, "R$/km", article))
    cost_per_km = total
    cost_per_paid_km = (total / vehicle.paid_km_ratio).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
    trip_revenue = cost_per_paid_km * vehicle.average_trip_km
    share = _d(bandeirada_share)
    bandeirada = (trip_revenue * share).quantize(CENT, rounding=ROUND_HALF_UP)
    b1 = (trip_revenue * (1 - share) / vehicle.average_trip_km).quantize(CENT, rounding=ROUND_HALF_UP)
    b2 = (b1 * _d(b2_ratio)).quantize(CENT, rounding=ROUND_HALF_UP)
    hour = (b1 * _d(waiting_equivalent_kmh)).quantize(CENT, rounding=ROUND_HALF_UP)
    lines += [
        StudyLine(_("Custo por km rodado (itens a–l)"), cost_per_km, "R$/km"),
        StudyLine(_("Proporção de km com passageiro"), vehicle.paid_km_ratio, "", "Art. 42"),
        StudyLine(_("Custo por km com passageiro"), cost_per_paid_km, "R$/km"),
        StudyLine(_("Viagem média"), vehicle.average_trip_km, "km"),
        StudyLine(_("Receita necessária por viagem média"), trip_revenue.quantize(CENT, rounding=ROUND_HALF_UP), "R$"),
        StudyLine(_("Bandeirada proposta"), bandeirada, "R$", "Art. 1, VII"),
        StudyLine(_("Quilômetro proposto, Bandeira I"), b1, "R$/km", "Art. 45, I"),
        StudyLine(_("Quilômetro proposto, Bandeira II"), b2, "R$/km", "Art. 45, II"),
        StudyLine(_("Hora de espera proposta"), hour, "R$/h", "Art. 42"),
    ]
    proposed = Tariff(effective_from, bandeirada, b1, b2, hour,
                      reference or _("proposta do estudo tarifário (Art. 42) — aguarda decreto (Art. 44)"))
    articles = ["Art. 42", "Art. 42, § único", "Art. 44"]
    decision = Decision.all_of(Decision.allow(*articles), proposed.validate())
    return TariffStudy(cost_per_km, cost_per_paid_km, proposed, tuple(lines), decision, tuple(warnings), capped)


def cost_items_once(letters: Iterable[str]) -> Decision:
    """Each cost item of Art. 42 (a-l) appears once in a study."""
    seen = list(letters)
    if len(set(seen)) != len(seen):
        return refused("Art. 42", "study_item_repeated", _("Cada item de custo (a–l) só pode aparecer uma vez (Art. 42)."))
    return Decision.allow("Art. 42")


def study_failed(error: str) -> Decision:
    """A study whose figures cannot be computed is refused with the error (Art. 42)."""
    return refused("Art. 42", "study_invalid", _("Estudo tarifário inválido: {error}."), error=error)
