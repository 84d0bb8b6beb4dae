"""Art. 1, §3-§6: who collected each fare, the shares of the week's gross and the one transfer that settles it."""

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taxilaw.settlement import (
    METHOD_CARD,
    METHOD_CASH,
    METHOD_PIX,
    METHOD_UNRECORDED,
    PARTY_AUXILIARY,
    PARTY_HOLDER,
    PIX_TO_HOLDER,
    Payment,
    check_payment,
    payment_collector,
    settle,
    settle_week,
)
from taxilaw.split import SplitAgreement

CONTRACT_40 = SplitAgreement("contract", Decimal("40"), witnesses=2)
CTPS = SplitAgreement("ctps")


@pytest.mark.article("Art. 1, §3")
def test_issue_example_auxiliary_collected_everything():
    # The auxiliary collected R$ 1.000,00: he keeps R$ 250,00 and owes the holder R$ 750,00.
    s = settle_week([Payment(Decimal("600.00"), METHOD_CASH, PARTY_AUXILIARY),
                     Payment(Decimal("400.00"), METHOD_PIX, PARTY_AUXILIARY)])
    assert (s.auxiliary_share, s.holder_share) == (Decimal("250.00"), Decimal("750.00"))
    assert (s.payer, s.payee, s.amount) == (PARTY_AUXILIARY, PARTY_HOLDER, Decimal("750.00"))
    assert s.received(PARTY_AUXILIARY, METHOD_CASH) == Decimal("600.00")
    assert s.received(PARTY_AUXILIARY, METHOD_PIX) == Decimal("400.00")


@pytest.mark.article("Art. 1, §3")
def test_pix_to_the_holder_reverses_the_transfer():
    s = settle_week([Payment(Decimal("100.00"), METHOD_CASH, PARTY_AUXILIARY),
                     Payment(Decimal("900.00"), METHOD_PIX, PARTY_HOLDER)])
    assert (s.payer, s.payee, s.amount) == (PARTY_HOLDER, PARTY_AUXILIARY, Decimal("150.00"))
    assert s.collected == ((PARTY_AUXILIARY, METHOD_CASH, Decimal("100.00")),
                           (PARTY_HOLDER, METHOD_PIX, Decimal("900.00")))


@pytest.mark.article("Art. 1, §3")
def test_nothing_to_transfer_when_each_received_their_share():
    s = settle_week([Payment(Decimal("25.00"), METHOD_CASH, PARTY_AUXILIARY),
                     Payment(Decimal("75.00"), METHOD_CARD, PARTY_HOLDER)])
    assert (s.payer, s.payee, s.amount) == (None, None, Decimal("0"))


@pytest.mark.article("Art. 1, §6")
def test_contract_and_ctps():
    pays = [Payment(Decimal("10.06"), METHOD_CASH, PARTY_AUXILIARY)]
    s = settle_week(pays, CONTRACT_40)
    assert (s.auxiliary_share, s.amount, s.payer) == (Decimal("4.02"), Decimal("6.04"), PARTY_AUXILIARY)
    s = settle_week(pays, CTPS)  # an employee hands over everything he received
    assert (s.auxiliary_share, s.amount, s.payer) == (Decimal("0.00"), Decimal("10.06"), PARTY_AUXILIARY)


@pytest.mark.article("Art. 1, §3")
def test_collector_of_each_method():
    assert payment_collector(METHOD_CASH, driver_is_holder=False, pix_receiver=PIX_TO_HOLDER) == PARTY_AUXILIARY
    assert payment_collector(METHOD_PIX, driver_is_holder=False) == PARTY_AUXILIARY
    assert payment_collector(METHOD_PIX, driver_is_holder=False, pix_receiver=PIX_TO_HOLDER) == PARTY_HOLDER
    assert payment_collector(METHOD_CARD, driver_is_holder=False, card_machine="holder") == PARTY_HOLDER
    assert payment_collector(METHOD_UNRECORDED, driver_is_holder=False) == PARTY_AUXILIARY
    assert payment_collector(METHOD_CASH, driver_is_holder=True) == PARTY_HOLDER


@pytest.mark.article("Art. 43")
def test_check_payment_refusals():
    assert check_payment(METHOD_PIX, Decimal("12.00"))
    assert check_payment(METHOD_CASH, None)
    assert check_payment("cheque", Decimal("1.00")).codes == ("payment_unknown_method",)
    assert check_payment(METHOD_PIX, Decimal("0.00")).codes == ("payment_no_fare",)
    assert check_payment(METHOD_PIX, Decimal("5.00"), receiver_has_key=False).codes == ("payment_no_pix_key",)
    assert check_payment(METHOD_CARD, Decimal("5.00"), card_machine="bank").codes == ("payment_bad_card_machine",)
    assert "Pix" in check_payment(METHOD_PIX, Decimal("0")).reasons[0].message


@pytest.mark.article("Art. 1, §3")
def test_shares_must_match_the_fares():
    with pytest.raises(ValueError):
        settle([Payment(Decimal("10.00"), METHOD_CASH, PARTY_AUXILIARY)], Decimal("2.50"), Decimal("7.49"))
    with pytest.raises(ValueError):
        settle([Payment(Decimal("1.001"), METHOD_CASH, PARTY_AUXILIARY)], Decimal("0"), Decimal("1.001"))


cents = st.integers(min_value=0, max_value=2_000_000).map(lambda c: Decimal(c) / 100)
payments = st.lists(st.builds(Payment, cents, st.sampled_from([METHOD_CASH, METHOD_PIX, METHOD_CARD, METHOD_UNRECORDED]),
                              st.sampled_from([PARTY_AUXILIARY, PARTY_HOLDER])), max_size=60)
agreements = st.one_of(
    st.just(SplitAgreement()), st.just(CTPS),
    st.integers(min_value=1, max_value=99).map(lambda p: SplitAgreement("contract", Decimal(p), witnesses=2)))


@pytest.mark.article("Art. 1, §3", "Art. 1, §6")
@settings(deadline=None)  # checks values, not speed: a loaded CI machine must not fail it
@given(payments, agreements)
def test_settlement_is_owed_minus_collected_to_the_centavo(pays, agreement):
    s = settle_week(pays, agreement)
    gross = sum((p.fare for p in pays), Decimal("0.00"))
    assert s.gross == gross and s.auxiliary_share + s.holder_share == gross
    by_method = sum((a for _p, _m, a in s.collected), Decimal("0.00"))
    assert by_method == gross == s.received(PARTY_AUXILIARY) + s.received(PARTY_HOLDER)
    assert s.amount >= 0 and s.amount == s.amount.quantize(Decimal("0.01"))
    # after the transfer each partner holds exactly their share
    for party in (PARTY_AUXILIARY, PARTY_HOLDER):
        after = s.received(party) - (s.amount if s.payer == party else 0) + (s.amount if s.payee == party else 0)
        assert after == s.share(party)
    assert s.balance(PARTY_AUXILIARY) == -s.balance(PARTY_HOLDER)
    assert s.amount == abs(s.balance(PARTY_AUXILIARY))
    assert (s.payer is None) == (s.amount == 0)


@pytest.mark.article("Art. 43")
def test_art_43_a_payment_is_recorded_once_for_a_completed_own_ride_not_yet_counted():
    from taxilaw.settlement import payment_not_recorded, ride_not_counted, ride_payable

    assert ride_payable(True, True) and payment_not_recorded(False) and ride_not_counted(False)
    assert ride_payable(False, False).codes == ("payment_ride_not_found",)
    assert ride_payable(True, False).codes == ("payment_ride_not_completed",)
    assert payment_not_recorded(True).codes == ("payment_already_recorded",)
    assert ride_not_counted(True).codes == ("payment_week_closed",)
