"""How far from the pickup a cab has "arrived" (Art. 1, X; Art. 9, VII; taxilaw.arrival)."""

from datetime import date

import pytest

from taxilaw.arrival import at_pickup
from taxilaw.parameters import default_parameters


@pytest.mark.article("Art. 1, X", "Art. 9, VII")
def test_arrived_within_the_dated_radius_and_only_with_a_known_position():
    radius = default_parameters().as_of("arrival_radius_m", date(2026, 12, 4))
    assert radius == 500
    assert at_pickup(0.0, radius) and at_pickup(500.0, radius)
    far = at_pickup(3000.2, radius)
    assert far.codes == ("away_from_pickup",) and far.articles == ("Art. 1, X",)
    assert "3000 m do local de embarque" in far.reasons[0].message and "500 m" in far.reasons[0].message
    assert at_pickup(None, radius).codes == ("arrival_without_position",)
