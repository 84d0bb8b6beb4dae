from decimal import Decimal

from driver_app.formatting import hms, mmss
from taxilaw.brazil import br_date, brl
from taxilaw.brazil import km_truncated as km


def test_brl_brazilian_format():
    assert brl(Decimal("12.34")) == "R$ 12,34"
    assert brl("5.5") == "R$ 5,50"
    assert brl(Decimal("1234.5")) == "R$ 1.234,50"
    assert brl(Decimal("1234567.891")) == "R$ 1.234.567,89"  # to the centavo
    assert brl(0) == "R$ 0,00"


def test_km_and_times():
    assert km(3210) == "3,2 km"
    assert km(3299.9) == "3,2 km"
    assert km(0) == "0,0 km"
    assert km(12_050) == "12,0 km"
    assert hms(250) == "00:04:10"
    assert hms(3 * 3600 + 61.9) == "03:01:01"
    assert mmss(14.2) == "0:15"
    assert mmss(0) == "0:00"
    assert br_date("2026-12-31") == "31/12/2026"
    assert br_date(None) == ""
