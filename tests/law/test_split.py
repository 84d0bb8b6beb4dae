"""Art. 1, §2, §3 and §6: the weekly split between auxiliary and permit holder."""

from datetime import date, datetime, timezone
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taxilaw.split import (
    REGIME_DATUM,
    SplitAgreement,
    auxiliary_may_be_charged,
    check_regime,
    split_by_agreement,
    split_gross,
    split_late_rides,
    split_week,
    validate_agreement,
    week_bounds,
    week_start,
    weekly_splits,
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


@pytest.mark.article("Art. 1, §6")
def test_contract_percent_is_strictly_between_0_and_100():
    for pct in ("0", "100", "-1", "100.01"):
        assert validate_agreement(SplitAgreement("contract", Decimal(pct), witnesses=2)).codes == ("split_bad_percent",)
    for pct in ("0.01", "99.99", "50"):
        assert validate_agreement(SplitAgreement("contract", Decimal(pct), witnesses=2))


@pytest.mark.article("Art. 1, §6")
def test_contract_witnesses_are_two_distinct_people():
    ok = SplitAgreement("contract", Decimal("30"), witness_names=("Ana Souza", "Bruno Lima"))
    assert ok.witness_count == 2 and validate_agreement(ok)
    same = SplitAgreement("contract", Decimal("30"), witness_names=("Ana Souza", "  ana   SOUZA "))
    assert validate_agreement(same).codes == ("split_contract_witnesses",)
    assert validate_agreement(SplitAgreement("contract", Decimal("30"), witness_names=("Ana Souza", ""))).codes == (
        "split_contract_witnesses",)


@pytest.mark.article("Art. 1, §3", "Art. 1, §6")
def test_check_regime_requires_the_data_of_each_regime():
    assert check_regime("law")
    assert check_regime("law").articles == ("Art. 1, §3",)
    assert check_regime("contract", auxiliary_percent=Decimal("30"), signed_on=date(2026, 1, 10),
                        witnesses=("Ana Souza", "Bruno Lima")).articles == ("Art. 1, §6",)
    assert check_regime("ctps", ctps_number="1234567", ctps_series="0012-MG")

    missing = check_regime("contract")
    assert set(missing.codes) == {"regime_percent_missing", "regime_contract_date_missing",
                                  "regime_witness_1_missing", "regime_witness_2_missing"}
    assert {REGIME_DATUM[c] for c in missing.codes} == {"auxiliary_percent", "signed_on", "witness_1", "witness_2"}
    assert check_regime("contract", auxiliary_percent=Decimal("100"), signed_on=date(2026, 1, 10),
                        witnesses=("Ana", "Bruno")).codes == ("split_bad_percent",)
    assert check_regime("contract", auxiliary_percent=Decimal("0"), signed_on=date(2026, 1, 10),
                        witnesses=("Ana", "Bruno")).codes == ("split_bad_percent",)
    twice = check_regime("contract", auxiliary_percent=Decimal("30"), signed_on=date(2026, 1, 10),
                         witnesses=("Ana Souza", "ANA  souza"))
    assert twice.codes == ("regime_witnesses_not_distinct",) and REGIME_DATUM[twice.codes[0]] == "witness_2"
    assert "diferentes" in twice.reasons[0].message

    assert set(check_regime("ctps").codes) == {"regime_ctps_number_missing", "regime_ctps_series_missing"}
    # the data of another regime is refused rather than silently ignored
    assert check_regime("law", auxiliary_percent=Decimal("30")).codes == ("regime_percent_without_contract",)
    assert check_regime("law", witnesses=("Ana", "")).codes == ("regime_contract_data_without_contract",)
    assert check_regime("ctps", ctps_number="1", ctps_series="2", auxiliary_percent=Decimal("30")).codes == (
        "regime_percent_without_contract",)
    assert check_regime("contract", auxiliary_percent=Decimal("30"), signed_on=date(2026, 1, 10),
                        witnesses=("Ana", "Bruno"), ctps_number="1").codes == ("regime_ctps_data_without_ctps",)
    assert check_regime("partnership").codes == ("split_unknown_kind",)


@pytest.mark.article("Art. 1, §3", "Art. 1, §6")
def test_split_by_agreement_takes_the_agreed_share_and_ctps_has_none():
    assert split_by_agreement(Decimal("100.00")) == (Decimal("25.00"), Decimal("75.00"))
    contract = SplitAgreement("contract", Decimal("33.33"), witness_names=("Ana", "Bruno"))
    assert split_by_agreement(Decimal("100.00"), contract) == (Decimal("33.33"), Decimal("66.67"))
    assert split_by_agreement(Decimal("0.03"), contract) == (Decimal("0.01"), Decimal("0.02"))  # 0,009999 -> 0,01
    ctps = SplitAgreement("ctps", ctps_number="1234567", ctps_series="0012-MG")
    assert not ctps.splits and ctps.percent == Decimal("0")
    assert split_by_agreement(Decimal("412.60"), ctps) == (Decimal("0.00"), Decimal("412.60"))
    with pytest.raises(ValueError):
        split_by_agreement(Decimal("10.00"), SplitAgreement("contract", Decimal("30"), witnesses=1))


@pytest.mark.article("Art. 1, §6")
@given(st.integers(min_value=0, max_value=10**9), st.decimals(min_value=Decimal("0.01"), max_value=Decimal("99.99"), places=2))
def test_agreed_share_always_sums_to_the_cent(cents, pct):
    gross = Decimal(cents) / 100
    aux, holder = split_by_agreement(gross, SplitAgreement("contract", pct, witness_names=("Ana", "Bruno")))
    assert aux + holder == gross and aux >= 0 and holder >= 0
    assert abs(aux - gross * pct / 100) <= Decimal("0.005")


@pytest.mark.article("Art. 1, §3")
def test_late_rides_complete_the_weeks_single_split():
    # closed: 10,06 -> 2,52 / 7,54; a late 10,06 makes the week 20,12 -> 5,03 / 15,09 (not 2,52 + 2,52)
    assert split_late_rides(Decimal("10.06"), Decimal("10.06")) == (Decimal("2.51"), Decimal("7.55"))
    assert split_late_rides(Decimal("0.00"), Decimal("10.06")) == split_gross(Decimal("10.06"))
    assert split_late_rides(Decimal("0.01"), Decimal("0.01")) == (Decimal("0.01"), Decimal("0.00"))
    assert split_late_rides(Decimal("100.00"), Decimal("0.00")) == (Decimal("0.00"), Decimal("0.00"))
    assert split_late_rides(Decimal("50.00"), Decimal("10.00"), Decimal("40")) == (Decimal("4.00"), Decimal("6.00"))
    with pytest.raises(ValueError):
        split_late_rides(Decimal("1.00"), Decimal("-1.00"))


@pytest.mark.article("Art. 1, §3")
@given(st.integers(min_value=0, max_value=10**8), st.lists(st.integers(min_value=0, max_value=10**6), max_size=5),
       st.decimals(min_value=0, max_value=100, places=2))
def test_late_adjustments_add_up_to_one_split_of_the_whole_week(settled_cents, late_batches, pct):
    settled = Decimal(settled_cents) / 100
    aux, holder = split_gross(settled, pct)
    for cents in late_batches:
        late = Decimal(cents) / 100
        a, h = split_late_rides(settled, late, pct)
        assert a + h == late and a >= 0 and h >= 0
        settled, aux, holder = settled + late, aux + a, holder + h
    assert (aux, holder) == split_gross(settled, pct)


@pytest.mark.article("Art. 1, §3")
def test_art_1_par_3_a_week_is_closed_from_its_monday_once_it_ended_and_only_once():
    from taxilaw.split import week_closable, week_not_closed

    assert week_closable(date(2026, 11, 30), True)
    assert week_closable(date(2026, 12, 1), True).codes == ("statement_not_monday",)
    assert week_closable(date(2026, 11, 30), False).codes == ("statement_week_open",)
    assert week_not_closed(False, date(2026, 11, 30))
    closed = week_not_closed(True, date(2026, 11, 30))
    assert closed.codes == ("statement_week_closed",) and "30/11/2026" in closed.reasons[0].message
