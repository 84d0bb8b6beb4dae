"""Art. 1, §2, §3 and §6: the weekly split between auxiliary and permit holder."""

from datetime import date, datetime, timedelta, timezone
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taxilaw.split import (
    SplitAgreement, auxiliary_may_be_charged, split_gross, split_week, validate_agreement, week_bounds,
    week_start, weekly_splits,
)

SP = ZoneInfo("America/Sao_Paulo")


@pytest.mark.article("Art. 1, §3")
def test_default_split_is_25_75():
    assert split_gross(Decimal("1000.00")) == (Decimal("250.00"), Decimal("750.00"))


@pytest.mark.article("Art. 1, §3")
def test_odd_centavo():
    # 25% of 0,02 = 0,005 -> half-up: the auxiliary gets the odd centavo
    assert split_gross(Decimal("0.02")) == (Decimal("0.01"), Decimal("0.01"))
    assert split_gross(Decimal("0.01")) == (Decimal("0.00"), Decimal("0.01"))  # 0,0025 -> 0
    assert split_gross(Decimal("0.03")) == (Decimal("0.01"), Decimal("0.02"))  # 0,0075 -> 0,01
    assert split_gross(Decimal("100.01")) == (Decimal("25.00"), Decimal("75.01"))


@pytest.mark.article("Art. 1, §3")
def test_split_refuses_bad_amounts():
    with pytest.raises(ValueError):
        split_gross(Decimal("-1.00"))
    with pytest.raises(ValueError):
        split_gross(Decimal("1.001"))
    with pytest.raises(ValueError):
        split_gross(Decimal("1.00"), Decimal("101"))


@pytest.mark.article("Art. 1, §3")
@given(st.integers(min_value=0, max_value=10**9), st.decimals(min_value=0, max_value=100, places=2))
def test_parts_always_sum_to_gross(cents, pct):
    gross = Decimal(cents) / 100
    aux, holder = split_gross(gross, pct)
    assert aux + holder == gross
    assert aux >= 0 and holder >= 0
    assert abs(aux - gross * pct / 100) <= Decimal("0.005")


@pytest.mark.article("Art. 1, §6")
def test_written_contract_with_two_witnesses():
    c = SplitAgreement("contract", Decimal("40"), witnesses=2, reference="contrato 1")
    assert validate_agreement(c)
    assert split_gross(Decimal("500.00"), c.percent) == (Decimal("200.00"), Decimal("300.00"))
    assert validate_agreement(SplitAgreement("contract", Decimal("40"), witnesses=1)).codes == (
        "split_contract_witnesses",)
    assert "split_bad_percent" in validate_agreement(SplitAgreement("contract", Decimal("140"), witnesses=2)).codes
    assert validate_agreement(SplitAgreement("ctps")).codes == ("split_ctps_employment",)
    # a "law" agreement ignores any percent given
    assert SplitAgreement("law", Decimal("40")).percent == Decimal("25")


@pytest.mark.article("Art. 1, §2")
def test_permit_holder_expenses_never_charged_to_auxiliary():
    for expense in ("fuel", "plates", "licensing", "vehicle_wear"):
        d = auxiliary_may_be_charged(expense)
        assert not d and d.articles == ("Art. 1, §2",)
    assert auxiliary_may_be_charged("traffic_fine_of_the_auxiliary")


@pytest.mark.article("Art. 1, §3")
def test_week_bounds_monday_to_sunday_local():
    start, end = week_bounds(datetime(2026, 3, 8, 23, 59, tzinfo=SP))  # Sunday night
    assert start == datetime(2026, 3, 2, tzinfo=SP) and end == datetime(2026, 3, 9, tzinfo=SP)
    # Monday 01:00 UTC is still Sunday 22:00 in Muriaé
    assert week_start(datetime(2026, 3, 9, 1, tzinfo=timezone.utc)) == date(2026, 3, 2)
    assert week_start(datetime(2026, 3, 9, 0, 0, tzinfo=SP)) == date(2026, 3, 9)
    assert week_start(date(2026, 3, 4)) == date(2026, 3, 2)


@pytest.mark.article("Art. 1, §3")
def test_split_is_per_week_of_summed_gross():
    fares = [
        (datetime(2026, 3, 2, 8, tzinfo=SP), Decimal("0.01")),
        (datetime(2026, 3, 3, 8, tzinfo=SP), Decimal("0.01")),  # per fare 0,00 each; per week 0,01 (0,005 half-up)
        (datetime(2026, 3, 9, 8, tzinfo=SP), Decimal("10.00")),
    ]
    weeks = weekly_splits(fares)
    assert [(w.week_start, w.gross, w.auxiliary, w.permit_holder, w.fares) for w in weeks] == [
        (date(2026, 3, 2), Decimal("0.02"), Decimal("0.01"), Decimal("0.01"), 2),
        (date(2026, 3, 9), Decimal("10.00"), Decimal("2.50"), Decimal("7.50"), 1),
    ]
    assert weeks[0].week_end == date(2026, 3, 8) and weeks[0].articles == ("Art. 1, §3",)
    with pytest.raises(ValueError):
        weekly_splits(fares, SplitAgreement("ctps"))
    w = split_week(Decimal("99.99"), date(2026, 3, 4), SplitAgreement("contract", Decimal("30"), witnesses=2))
    assert w.auxiliary + w.permit_holder == Decimal("99.99") and "Art. 1, §6" in w.articles
