"""A fare the central holds for DIMUTRAN's review is not charged by the app (Art. 43; taxilaw.settlement.check_charge)."""

from decimal import Decimal

import pytest

from driver_app.clients import FakePayments
from driver_app.socket_trips import ride_result
from driver_app.viewmodels import PaymentViewModel
from driver_app.viewmodels.payment import REVIEW_TEXT

HELD = [{"article": "Art. 43", "code": "fare_held",
         "message": "O total do taxímetro (R$ 4999.99) passa de 3 vezes o recálculo do servidor (R$ 8.90) mais a "
                    "tolerância; a corrida fica retida para conferência da DIMUTRAN e só entra no extrato depois."}]


@pytest.mark.article("Art. 43")
def test_a_held_fare_withdraws_the_qr_records_nothing_and_refuses_a_method(store):
    payments = FakePayments()
    vm = PaymentViewModel(store, payments, token=lambda: "tok")
    vm.load_terms()
    vm.begin(Decimal("4999.99"), "trip-1", ride_id=41)
    vm.choose("pix")  # chosen before the central's answer: the QR shows
    assert vm.pix_payload and len(vm.queue) == 1
    answer = ride_result({"type": "ride_updated", "ride": {"id": 41}, "fare_held": HELD}, None).answer
    vm.on_trip_confirmed({"trip_id": "trip-1", "ride_id": 41}, answer)
    assert not payments.recorded and not vm.queue and not vm.pix_payload and not vm.qr_png()
    assert vm.method_text == REVIEW_TEXT and not vm.pending and "DIMUTRAN" in vm.message
    vm.choose("cash")
    assert vm.method is None and not vm.queue and "em revisão" in vm.message
    vm.done()
    vm.begin(Decimal("12.00"), "trip-2", ride_id=42)  # the next trip is charged as usual
    vm.choose("cash")
    vm.on_trip_confirmed({"trip_id": "trip-2", "ride_id": 42}, {"type": "ride_updated", "ride": {"id": 42}})
    assert payments.recorded == {42: {"method": "cash", "card_machine": "driver"}}
