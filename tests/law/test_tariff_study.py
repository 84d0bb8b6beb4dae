"""Art. 42: the tariff study, with the 12% cap of its parágrafo único."""

from datetime import date
from decimal import Decimal

import pytest

from taxilaw.tariff_study import (
    COST_ITEMS,
    CostItem,
    StandardVehicle,
    capital_remuneration_cap_month,
    capital_remuneration_decision,
    study,
)

VEHICLE = StandardVehicle("sedã 1.6 flex (demo)", Decimal("90000"), Decimal("5000"),
                          paid_km_ratio=Decimal("0.60"), average_trip_km=Decimal("4"))


def items(j=Decimal("900")):
    return [
        CostItem("a", Decimal("0.04"), "km"),
        CostItem("b", Decimal("1000")),
        CostItem("c", Decimal("0.55"), "km"),
        CostItem("d", Decimal("150")),
        CostItem("e", Decimal("250")),
        CostItem("f", Decimal("0")),
        CostItem("g", Decimal("80")),
        CostItem("h", Decimal("100")),
        CostItem("i", Decimal("20")),
        CostItem("j", j),
        CostItem("l", Decimal("150")),
    ]


@pytest.mark.article("Art. 42")
def test_items_are_a_to_l():
    assert list(COST_ITEMS) == list("abcdefghijl")


@pytest.mark.article("Art. 42, § único")
def test_capital_cap_is_12_percent_a_year():
    assert capital_remuneration_cap_month(VEHICLE) == Decimal("900.00")
    assert capital_remuneration_decision(Decimal("900.00"), VEHICLE)
    d = capital_remuneration_decision(Decimal("900.01"), VEHICLE)
    assert not d and d.codes == ("capital_remuneration_over_cap",) and d.articles == ("Art. 42, § único",)


@pytest.mark.article("Art. 42")
def test_study_cost_per_km_and_proposal():
    s = study(items(), VEHICLE, effective_from=date(2026, 7, 1))
    # monthly: 1000+150+250+0+80+100+20+900+150 = 2650 / 5000 = 0.53; per km: 0.04 + 0.55
    assert s.cost_per_km == Decimal("1.1200")
    assert s.cost_per_paid_km == Decimal("1.8667")
    assert not s.capital_capped and s.decision
    p = s.proposed
    assert p.bandeirada == Decimal("1.87")  # 1.8667 x 4 x 25%
    assert p.price_km_b1 == Decimal("1.40")
    assert p.price_km_b2 == Decimal("1.68")
    assert p.price_hour_waiting == Decimal("6.72")
    assert p.validate()
    assert "Bandeirada proposta" in s.report()


@pytest.mark.article("Art. 42, § único")
def test_study_caps_capital_remuneration():
    capped = study(items(j=Decimal("2000")), VEHICLE, effective_from=date(2026, 7, 1))
    at_cap = study(items(j=Decimal("900")), VEHICLE, effective_from=date(2026, 7, 1))
    assert capped.capital_capped
    assert capped.cost_per_km == at_cap.cost_per_km
    assert [w.code for w in capped.warnings] == ["capital_remuneration_over_cap"]
    assert any("acima do teto" in line.label for line in capped.lines)


@pytest.mark.article("Art. 42")
def test_study_refuses_bad_input():
    with pytest.raises(ValueError):
        study(items() + [CostItem("a", Decimal("1"))], VEHICLE, effective_from=date(2026, 7, 1))
    with pytest.raises(ValueError):
        study([CostItem("k", Decimal("1"))], VEHICLE, effective_from=date(2026, 7, 1))
    with pytest.raises(ValueError):
        study(items(), StandardVehicle("x", Decimal("0"), Decimal("5000")), effective_from=date(2026, 7, 1))
