"""Counting of terms: working days (Art. 10, §1), day/month/year terms."""

from datetime import date

import pytest

from taxilaw.calendar import (
    add_months,
    add_working_days,
    add_years,
    day_term_end,
    is_working_day,
    next_working_day,
    quarter_end,
)


@pytest.mark.article("Art. 10, §1")
def test_art_10_par_1_working_days_skip_weekend_and_national_holiday():
    # Thu 16 April 2026; Tiradentes (Tue 21) is a national holiday.
    assert add_working_days(date(2026, 4, 16), 5) == date(2026, 4, 24)
    # Friday summons: the count starts Monday.
    assert add_working_days(date(2026, 3, 6), 5) == date(2026, 3, 13)
    assert add_working_days(date(2026, 3, 6), 0) == date(2026, 3, 6)


@pytest.mark.article("Art. 10, §1")
def test_art_10_par_1_municipal_holidays_are_excluded():
    assert add_working_days(date(2026, 4, 16), 5, holidays={date(2026, 4, 22)}) == date(2026, 4, 27)


@pytest.mark.article("Art. 10, §1")
def test_art_10_par_1_is_working_day():
    assert is_working_day(date(2026, 4, 20))
    assert not is_working_day(date(2026, 4, 21))  # Tiradentes
    assert not is_working_day(date(2026, 4, 18))  # Saturday
    assert not is_working_day(date(2026, 12, 25))
    assert not is_working_day(date(2026, 8, 15), {date(2026, 8, 15)})
    with pytest.raises(ValueError):
        add_working_days(date(2026, 4, 16), -1)


@pytest.mark.article("Art. 3, §1")
def test_day_term_runs_to_next_working_day():
    assert day_term_end(date(2026, 3, 2), 30) == date(2026, 4, 1)
    # 4 April 2026 is a Saturday (and 3 April Good Friday): runs to Monday 6.
    assert day_term_end(date(2026, 3, 5), 30) == date(2026, 4, 6)
    assert next_working_day(date(2026, 4, 3)) == date(2026, 4, 6)


@pytest.mark.article("Art. 4")
def test_year_and_month_terms():
    assert add_years(date(2026, 3, 10), 1) == date(2027, 3, 10)
    assert add_years(date(2024, 2, 29), 1) == date(2025, 3, 1)
    assert add_months(date(2026, 1, 31), 1) == date(2026, 3, 1)
    assert add_months(date(2026, 12, 31), 1) == date(2027, 1, 31)
    assert add_months(date(2026, 11, 30), 3) == date(2027, 3, 1)
    assert add_months(date(2026, 10, 15), 3) == date(2027, 1, 15)


@pytest.mark.article("Art. 1, §5")
def test_quarter_end():
    assert quarter_end(date(2026, 2, 10)) == date(2026, 3, 31)
    assert quarter_end(date(2026, 6, 30)) == date(2026, 6, 30)
    assert quarter_end(date(2026, 11, 1)) == date(2026, 12, 31)
