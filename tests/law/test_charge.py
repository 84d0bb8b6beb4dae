"""What a held fare may be charged: nothing until DIMUTRAN decides (Art. 43; Art. 45, §5)."""

import pytest

from taxilaw.settlement import check_charge


@pytest.mark.article("Art. 43", "Art. 45, §5")
def test_a_held_fare_may_not_be_charged_and_a_released_one_may():
    assert check_charge(False)
    refused = check_charge(True)
    assert not refused and refused.codes == ("payment_fare_held",)
    assert set(refused.articles) == {"Art. 43", "Art. 45, §5"}
    assert "em revisão pela DIMUTRAN" in refused.reasons[0].message and "não pode ser cobrado" in refused.reasons[0].message
