"""taxilaw.brazil: every expected string below was written by hand, as a Brazilian writes it."""

from datetime import date, datetime
from decimal import Decimal

import pytest

from taxilaw import brazil


@pytest.mark.parametrize(("value", "text"), [
    (0, "R$ 0,00"),
    (Decimal("0.00"), "R$ 0,00"),
    (Decimal("-0.08"), "-R$ 0,08"),
    (-0.08, "-R$ 0,08"),
    (Decimal("-0.004"), "R$ 0,00"),  # rounds to zero: no "-R$ 0,00"
    (Decimal("0.005"), "R$ 0,01"),  # half-up to the centavo
    (Decimal("0.025"), "R$ 0,03"),  # half-up, not banker's rounding (which gives 0,02)
    (Decimal("2.675"), "R$ 2,68"),  # the float 2.675 would round to 2,67; a Decimal does not
    (Decimal("1234.565"), "R$ 1.234,57"),
    (Decimal("999.995"), "R$ 1.000,00"),
    (1000000, "R$ 1.000.000,00"),
    (Decimal("-1234.5"), "-R$ 1.234,50"),
    ("13.5", "R$ 13,50"),
    (None, ""),
])
def test_money(value, text):
    assert brazil.brl(value) == text


def test_plain_amount_has_no_thousands_dot_for_spreadsheets():
    assert brazil.plain_amount(Decimal("1234.5")) == "1234,50"
    assert brazil.plain_amount(Decimal("1000000")) == "1000000,00"
    assert brazil.plain_amount(Decimal("-0.08")) == "-0,08"
    assert brazil.plain_amount(0) == "0,00"


@pytest.mark.parametrize(("value", "places", "text"), [
    (Decimal("1234.5"), None, "1.234,5"),
    (1234.5, 2, "1.234,50"),
    (Decimal("0.1234"), None, "0,1234"),
    (12, 0, "12"),
    (Decimal("1234567.891"), 1, "1.234.567,9"),
    (Decimal("-0.04"), 1, "0,0"),  # never "-0,0"
    (Decimal("0.05"), 1, "0,1"),
    (None, 2, ""),
    ("abc", 2, "abc"),
])
def test_br_number(value, places, text):
    assert brazil.br_number(value, places) == text


def test_percent():
    assert brazil.percent(Decimal("0.125"), 1) == "12,5%"
    assert brazil.percent(0.5) == "50%"
    assert brazil.percent(0.125) == "13%"  # half-up
    assert brazil.percent(Decimal("0.3"), 0, signed=True) == "+30%"
    assert brazil.percent(Decimal("-0.03"), 0, signed=True) == "-3%"
    assert brazil.percent(None) == "—"


def test_distances():
    assert brazil.distance(0) == "0 m"
    assert brazil.distance(999.9) == "999 m"
    assert brazil.distance(1000) == "1,0 km"
    assert brazil.distance(1250) == "1,3 km"  # half-up
    assert brazil.distance(12345) == "12,3 km"
    assert brazil.km(12345) == "12,35"  # half-up, to two places
    assert brazil.km(1234567, 1) == "1.234,6"
    assert brazil.km_truncated(3299) == "3,2 km"  # the meter never runs ahead
    assert brazil.km_truncated(-5) == "0,0 km"


def test_documents():
    assert brazil.cpf("12345678909") == "123.456.789-09"
    assert brazil.cpf("123.456.789-09") == "123.456.789-09"
    assert brazil.cpf("123") == "123"
    assert brazil.cep("36880000") == "36880-000"
    assert brazil.cep("36880-000") == "36880-000"
    assert brazil.plate("abc1234") == "ABC-1234"
    assert brazil.plate("ABC-1234") == "ABC-1234"
    assert brazil.plate("abc1d23") == "ABC1D23"  # Mercosul: no dash
    assert brazil.plate("X1") == "X1"


def test_dates():
    assert brazil.br_date(date(2026, 12, 31)) == "31/12/2026"
    assert brazil.br_date(datetime(2026, 1, 2, 23, 59)) == "02/01/2026"
    assert brazil.br_date("2026-07-05T10:00:00-03:00") == "05/07/2026"
    assert brazil.br_date(None) == ""
    assert brazil.br_datetime(datetime(2026, 3, 4, 9, 5)) == "04/03/2026 09:05"
    assert brazil.br_datetime(None) == ""


@pytest.mark.parametrize(("typed", "e164", "shown", "mobile"), [
    ("(32) 99999-1234", "+5532999991234", "(32) 99999-1234", True),
    ("32999991234", "+5532999991234", "(32) 99999-1234", True),
    ("+55 32 99999-1234", "+5532999991234", "(32) 99999-1234", True),
    ("5532999991234", "+5532999991234", "(32) 99999-1234", True),
    ("032 99999-1234", "+5532999991234", "(32) 99999-1234", True),  # the long-distance 0
    ("(32) 3721-1234", "+553237211234", "(32) 3721-1234", False),  # a Muriaé landline
    ("3237211234", "+553237211234", "(32) 3721-1234", False),
    ("(11) 98888-7777", "+5511988887777", "(11) 98888-7777", True),
])
def test_phone_parsed_to_e164_and_shown_as_brazilians_write_it(typed, e164, shown, mobile):
    assert brazil.parse_phone(typed) == e164
    assert brazil.phone(e164) == shown
    assert brazil.is_mobile(e164) is mobile


@pytest.mark.parametrize("typed", [
    "",
    "1",
    "99999-1234",  # no DDD
    "3721-1234",  # no DDD
    "(00) 99999-1234",  # no such DDD
    "+1 202 555 0100",  # not Brazil
    "(32) 99999-12345",  # a digit too many
    "(32) 1234-5678",  # no plan starts with 1
])
def test_phone_refused_with_one_hint(typed):
    with pytest.raises(brazil.PhoneError) as refused:
        brazil.parse_phone(typed)
    assert str(refused.value) == "Informe o telefone com DDD, por exemplo (32) 99999-1234."


def test_phone_display_keeps_what_it_cannot_read_and_tail_matches_all_writings():
    assert brazil.phone("32999991234") == "(32) 99999-1234"  # digits stored before E.164
    assert brazil.phone("abc") == "abc"
    assert brazil.phone("") == ""
    tails = {brazil.phone_tail(v) for v in ("(32) 99999-1234", "+5532999991234", "999991234")}
    assert tails == {"99991234"}
