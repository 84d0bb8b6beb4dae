"""An implausible meter total is held for DIMUTRAN's review, never silently counted (Art. 43)."""

from decimal import Decimal

import pytest

from taxilaw.meter_check import fare_hold
from taxilaw.parameters import default_parameters

RATIO, TOL = Decimal("2"), Decimal("0.50")


@pytest.mark.article("Art. 43")
@pytest.mark.parametrize(("phone", "held"), [
    ("5.50", False), ("11.50", False), ("11.51", True), ("99999999.99", True), ("0.00", False), ("1.00", False),
])
def test_a_total_beyond_the_bound_of_the_servers_figure_is_held(phone, held):
    decision = fare_hold(Decimal(phone), Decimal("5.50"), ratio=RATIO, tolerance=TOL)
    assert decision.allowed is (not held)
    if held:
        [reason] = decision.reasons
        assert reason.code == "fare_held" and reason.params["server"] == "5.50"


@pytest.mark.article("Art. 43")
def test_the_hold_ratio_is_a_dated_parameter():
    assert default_parameters().as_of("meter_hold_ratio", __import__("datetime").date(2026, 12, 1)) == Decimal("2")
