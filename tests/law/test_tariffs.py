"""Tariffs: validation (Art. 42, Art. 45), tariff in force, Art. 44 review alert,
Art. 45, §3-§4 correction tables."""

from dataclasses import replace
from datetime import date, datetime, timezone
from decimal import Decimal

import pytest

from taxilaw.tariffs import (
    MURIAE_DEMO_TARIFF,
    MURIAE_DEMO_TARIFF_VALUES,
    CorrectionTable,
    NoTariffInForce,
    Tariff,
    correction_applies,
    review_alert,
    review_due_on,
    tariff_in_force,
    validate_schedule,
    validate_tariff,
)

T = MURIAE_DEMO_TARIFF


def tariff(day, **kw):
    return replace(T, effective_from=day, decree=f"Decreto {day}", **kw)


@pytest.mark.article("Art. 45, I", "Art. 45, II")
def test_demo_tariff_is_muriae_published_values():
    assert T.price_km_b1 == Decimal("2.70")
    assert T.price_km_b2 == Decimal("3.25")
    assert T.price_hour_waiting == Decimal("13.00")
    assert T.bandeirada == Decimal("5.50")
    assert T.validate()
    assert Tariff.from_dict(MURIAE_DEMO_TARIFF_VALUES) == T
    assert Tariff.from_dict(T.to_dict()) == T


@pytest.mark.article("Art. 42", "Art. 1, VII")
@pytest.mark.parametrize("field", ["bandeirada", "price_km_b1", "price_km_b2", "price_hour_waiting"])
@pytest.mark.parametrize("value", ["0", "-1.00"])
def test_zero_or_negative_price_refused(field, value):
    d = validate_tariff(replace(T, **{field: Decimal(value)}))
    assert not d
    assert "tariff_price_not_positive" in d.codes
    assert d.reasons[0].article.startswith("Art.")


@pytest.mark.article("Art. 42")
def test_price_not_in_cents_refused():
    assert "tariff_price_not_cents" in validate_tariff(replace(T, price_km_b1=Decimal("2.705"))).codes


@pytest.mark.article("Art. 44")
def test_tariff_without_decree_refused():
    d = validate_tariff(replace(T, decree=" "))
    assert d.codes == ("tariff_without_decree",) and d.articles == ("Art. 44",)


@pytest.mark.article("Art. 45, II")
def test_b2_cheaper_than_b1_refused():
    d = validate_tariff(replace(T, price_km_b2=Decimal("2.00")))
    assert "tariff_b2_below_b1" in d.codes
    assert validate_tariff(replace(T, price_km_b2=Decimal("2.00")), require_b2_not_below_b1=False)


@pytest.mark.article("Art. 45")
def test_crossover_speed():
    assert T.crossover_speed_kmh(1).quantize(Decimal("0.01")) == Decimal("4.81")
    assert T.crossover_speed_kmh(2) == Decimal("4")


@pytest.mark.article("Art. 44")
def test_tariff_in_force_picks_latest_effective():
    a, b = tariff(date(2025, 7, 1)), tariff(date(2026, 1, 1))
    assert tariff_in_force([b, a], date(2025, 12, 31)) is a
    assert tariff_in_force([b, a], date(2026, 1, 1)) is b
    # 2026-01-01 01:00 UTC is still 31 Dec in Muriaé
    assert tariff_in_force([a, b], datetime(2026, 1, 1, 1, tzinfo=timezone.utc)) is a
    with pytest.raises(NoTariffInForce):
        tariff_in_force([a, b], date(2025, 1, 1))


@pytest.mark.article("Art. 44")
def test_schedule_duplicate_dates_refused():
    a = tariff(date(2026, 1, 1))
    assert validate_schedule([a])
    assert "tariff_duplicate_date" in validate_schedule([a, replace(a, decree="outro")]).codes


@pytest.mark.article("Art. 44")
def test_review_alert_after_six_months():
    a = tariff(date(2026, 1, 31))
    assert review_due_on(a) == date(2026, 7, 31)
    assert review_alert([a], date(2026, 7, 31))
    d = review_alert([a], date(2026, 8, 1))
    assert not d and d.codes == ("tariff_review_overdue",) and d.articles == ("Art. 44",)
    # 31 Aug + 6 months: 31 Feb does not exist, the term ends on 1 March (CC art. 132, §3; taxilaw.calendar)
    assert review_due_on(tariff(date(2025, 8, 31))) == date(2026, 3, 1)
    assert review_alert([a], date(2025, 1, 1)).codes == ("tariff_missing",)


def table(new, start, end, **kw):
    args = dict(authorization="Autorização do Prefeito nº 1/2026", authorized_on=new.effective_from,
                valid_from=start, valid_until=end)
    args.update(kw)
    return CorrectionTable.between(T, new, **args)


@pytest.mark.article("Art. 45, §3", "Art. 45, §4")
def test_correction_table_30_days_allowed():
    new = tariff(date(2026, 7, 1), price_km_b1=Decimal("2.97"))
    tab = table(new, date(2026, 7, 1), date(2026, 7, 30))
    assert tab.days == 30 and tab.validate()
    assert tab.factor == Decimal("1.1000")
    assert tab.apply(Decimal("10.00")) == Decimal("11.00")
    assert tab.rows(Decimal("5.50"), Decimal("5.70"))[-1] == (Decimal("5.70"), Decimal("6.27"))


@pytest.mark.article("Art. 45, §4")
def test_correction_table_longer_than_30_days_refused():
    new = tariff(date(2026, 7, 1))
    d = table(new, date(2026, 7, 1), date(2026, 7, 31)).validate()
    assert not d and "correction_too_long" in d.codes and "Art. 45, §4" in d.articles
    # starting later does not extend the window beyond day 30 after the decree
    assert "correction_too_long" in table(new, date(2026, 7, 10), date(2026, 8, 5)).validate().codes


@pytest.mark.article("Art. 45, §3")
def test_correction_table_needs_prior_mayor_authorization_after_decree():
    new = tariff(date(2026, 7, 1))
    assert "correction_not_authorized" in table(new, date(2026, 7, 1), date(2026, 7, 10), authorization="").validate().codes
    assert "correction_authorization_late" in table(
        new, date(2026, 7, 1), date(2026, 7, 10), authorized_on=date(2026, 7, 2)).validate().codes
    assert "correction_before_decree" in table(new, date(2026, 6, 25), date(2026, 7, 10)).validate().codes


@pytest.mark.article("Art. 45, §5")
def test_correction_stops_when_meter_recalibrated():
    new = tariff(date(2026, 7, 1))
    tab = table(new, date(2026, 7, 1), date(2026, 7, 30))
    assert correction_applies(tab, date(2026, 7, 5))
    assert correction_applies(tab, date(2026, 7, 5), meter_calibrated_on=date(2026, 7, 4)).codes == (
        "correction_meter_calibrated",)
    assert correction_applies(tab, date(2026, 7, 31)).codes == ("correction_out_of_period",)
