"""The payment screen's logic without a window: the method recorded once, offline queue, the Pix QR of the fare.

The fare the BR Code carries is the meter's total (Art. 43); who receives it follows the authorization's term.
"""

import io
from decimal import Decimal

import pytest
import zxingcpp
from PIL import Image

from driver_app.clients import FakePayments
from driver_app.storage import JsonStore
from driver_app.viewmodels import PaymentViewModel
from taxilaw import pix


def make(store, payments=None):
    payments = payments or FakePayments()
    vm = PaymentViewModel(store, payments, token=lambda: "tok")
    vm.load_terms()
    return vm, payments


@pytest.mark.article("Art. 43")
def test_pix_shows_the_fare_on_the_receivers_key_and_the_qr_decodes(store):
    vm, payments = make(store)
    vm.begin(Decimal("23.40"), "trip-1", ride_id=41)  # a dispatched ride: its number is known
    assert vm.pending and vm.method_text == "Como o passageiro vai pagar?" and vm.fare_text == "R$ 23,40"
    vm.choose("pix")
    fields = pix.parse(vm.pix_payload)
    assert fields["54"] == "23.40" and pix.parse_fields(fields["26"])["01"] == "+5532999991234"
    assert pix.parse_fields(fields["62"]) == {"05": "CORRIDA41"}
    assert vm.receiver_text == "Pix para José da Silva Pereira" and vm.method_text == "Pagamento: Pix"
    [decoded] = zxingcpp.read_barcodes(Image.open(io.BytesIO(vm.qr_png())).convert("L"))
    assert decoded.text == vm.pix_payload
    assert not payments.recorded and len(vm.queue) == 1  # only a completed ride can be paid: wait for the central
    vm.on_trip_confirmed({"trip_id": "trip-1", "ride_id": 41}, None)  # ride_complete answered
    assert payments.recorded == {41: {"method": "pix", "card_machine": "driver"}} and not vm.queue


def test_holders_key_is_named(store):
    vm, _ = make(store, FakePayments({"key": "11222333000181", "receiver": "Maria Permissionária", "city": "MURIAE",
                                      "receiver_is_holder": True}))
    vm.begin(Decimal("10.00"), "trip-1", ride_id=7)
    vm.choose("pix")
    assert vm.receiver_text == "Pix para Maria Permissionária (permissionário)"


def test_a_street_trip_waits_for_its_number_and_offline_for_the_network(store, tmp_path):
    vm, payments = make(store)
    payments.online = False
    vm.begin(Decimal("15.00"), "trip-street")
    vm.choose("cash")
    assert len(vm.queue) == 1 and vm.queue_text == "1 pagamento(s) aguardando envio à central"
    vm.on_trip_confirmed({"trip_id": "trip-street", "ride_id": None}, {"type": "street_trip_recorded", "ride_id": 90})
    assert vm.queue[0]["ride_id"] == 90 and not payments.recorded  # still offline
    again = PaymentViewModel(JsonStore(tmp_path / "app"), payments, token=lambda: "tok")  # the app restarted
    payments.online = True
    assert again.flush() == 1 and payments.recorded[90]["method"] == "cash" and not again.queue


def test_refusals_are_shown_and_a_lost_answer_is_not_an_error(store):
    vm, payments = make(store)
    payments.recorded[5] = {"method": "cash"}  # sent before, the answer lost
    vm.on_trip_confirmed({"trip_id": "t5", "ride_id": 5}, None)  # recorded by the central before the choice
    vm.begin(Decimal("8.00"), "t5", ride_id=5)
    vm.choose("cash")
    assert vm.message == "" and not vm.queue
    vm.begin(Decimal("0.00"), "t6", ride_id=6)
    vm.choose("pix")
    assert vm.method is None and "sem valor" in vm.message


def test_pix_without_a_key_asks_for_another_method(store):
    vm, _ = make(store, FakePayments({"key": None, "receiver": "X", "city": "MURIAE", "receiver_is_holder": False}))
    vm.begin(Decimal("10.00"), "t", ride_id=1)
    vm.choose("pix")
    assert vm.pending and "Sem chave Pix" in vm.message
