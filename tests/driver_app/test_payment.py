"""The payment screen's logic without a window: the method recorded once, offline queue, the Pix QR of the fare.

The fare the BR Code carries is the meter's total (Art. 43); who receives it follows the authorization's term.
"""

import io
from decimal import Decimal

import pytest
import zxingcpp
from PIL import Image

from driver_app.background import Background
from driver_app.clients import FakePayments
from driver_app.storage import JsonStore
from driver_app.viewmodels import PaymentViewModel
from taxilaw import pix

from .test_ranks import HeldExecutor, UiPosts


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


def test_a_cyrillic_receiver_is_shown_as_typed_and_transliterated_in_the_br_code(store):
    vm, _ = make(store, FakePayments({"key": "+5532999991234", "receiver": "Иван Петров", "city": "MURIAE",
                                      "receiver_is_holder": False}))
    vm.begin(Decimal("10.00"), "trip-1", ride_id=7)
    vm.choose("pix")
    assert vm.receiver_text == "Pix para Иван Петров" and pix.parse(vm.pix_payload)["59"] == "Ivan Petrov"
    [decoded] = zxingcpp.read_barcodes(Image.open(io.BytesIO(vm.qr_png())).convert("L"))
    assert decoded.text == vm.pix_payload


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
    again.flush()
    assert payments.recorded[90]["method"] == "cash" and not again.queue


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


def held(store, payments):
    executor, ui = HeldExecutor(), UiPosts()
    return PaymentViewModel(store, payments, token=lambda: "tok", background=Background(ui, executor)), executor, ui


def test_the_terms_are_read_off_the_ui_thread_and_kept_for_offline(store, tmp_path):
    payments = FakePayments()
    vm, executor, ui = held(store, payments)
    vm.load_terms()
    assert vm.terms == {} and len(executor.jobs) == 1
    executor.run_all()
    assert vm.terms == {}  # the answer waits for the UI thread
    ui.drain()
    assert vm.terms["key"] == "+5532999991234" and store.load("pix_terms") == vm.terms
    payments.online = False
    again, executor, ui = held(JsonStore(tmp_path / "app"), payments)  # restarted offline: the saved terms
    again.load_terms()
    executor.run_all()
    ui.drain()
    assert again.terms["key"] == "+5532999991234"


def test_one_payment_in_flight_at_a_time_with_enviando_then_the_next(store):
    payments = FakePayments()
    vm, executor, ui = held(store, payments)
    for trip, ride in (("t1", 11), ("t2", 12)):
        vm.on_trip_confirmed({"trip_id": trip, "ride_id": ride}, None)
        vm.begin(Decimal("10.00"), trip, ride_id=ride)
        vm.choose("cash")  # each choice flushes
    vm.flush()  # and the dispatch socket's reconnection, too
    assert len(executor.jobs) == 1 and vm.queue_text == "Enviando o pagamento à central… (+1 na fila)"
    executor.run_all()
    assert payments.recorded == {11: {"method": "cash", "card_machine": "driver"}} and len(vm.queue) == 2
    ui.drain()  # the answer on the UI thread: the first leaves the queue, the second is sent
    assert [e["ride_id"] for e in vm.queue] == [12] and len(executor.jobs) == 1
    assert vm.queue_text == "Enviando o pagamento à central…"
    executor.run_all()
    ui.drain()
    assert set(payments.recorded) == {11, 12} and vm.queue == [] and vm.queue_text == ""
    assert store.load("payment_queue") == []


def test_offline_the_payment_waits_and_the_next_flush_sends_it(store):
    payments = FakePayments()
    payments.online = False
    vm, executor, ui = held(store, payments)
    vm.on_trip_confirmed({"trip_id": "t1", "ride_id": 11}, None)
    vm.begin(Decimal("10.00"), "t1", ride_id=11)
    vm.choose("card")
    executor.run_all()
    ui.drain()
    assert vm.sending is None and vm.queue_text == "1 pagamento(s) aguardando envio à central" and not executor.jobs
    payments.online = True
    vm.flush()  # the connection came back
    executor.run_all()
    ui.drain()
    assert payments.recorded[11]["method"] == "card" and vm.queue == []


def test_a_refusal_is_shown_and_the_entry_leaves_the_queue(store):
    from driver_app.clients import RejectedError

    class Refusing(FakePayments):
        def record(self, token, ride_id, method, card_machine="driver"):
            raise RejectedError("method_not_allowed", "Forma de pagamento não aceita nesta corrida.")

    vm, executor, ui = held(store, Refusing())
    vm.on_trip_confirmed({"trip_id": "t1", "ride_id": 11}, None)
    vm.begin(Decimal("10.00"), "t1", ride_id=11)
    vm.choose("cash")
    executor.run_all()
    ui.drain()
    assert vm.message == "Forma de pagamento não aceita nesta corrida." and vm.queue == []
