"""The app's Pix key screen against the real payments API (live server, seeded demo): the key saved, refused in
the server's pt-BR words, removed, and the Pix terms following at once without a new login."""

import pytest
from django.core.management import call_command

from driver_app.clients import HttpRegistryClient, RejectedError
from driver_app.payment_clients import HttpPaymentsClient
from driver_app.viewmodels import PaymentViewModel
from driver_app.viewmodels.pixkey import PixKeyViewModel


@pytest.mark.django_db(transaction=True)
def test_the_pix_key_screen_against_the_live_api(live_server, store):
    call_command("seed_demo", verbosity=0)
    registry = HttpRegistryClient(live_server.url)
    token = registry.login("auxiliar", "taxi12345")
    payments = HttpPaymentsClient(registry)
    payment = PaymentViewModel(store, payments, token=lambda: token)
    payment.load_terms()
    pix = PixKeyViewModel(payments, token=lambda: token, on_changed=payment.load_terms)
    pix.load()
    assert pix.current is None and pix.current_text == "Nenhuma chave Pix cadastrada." and pix.message == ""  # a 404
    pix.choose_kind("phone")
    assert pix.save("(32) 98888-1234")
    assert pix.current["key"] == "+5532988881234" and pix.error == ""
    assert payment.terms["key"] == "+5532988881234"  # the same token: no new login
    with pytest.raises(RejectedError) as refused:  # what the screen never sends, the server refuses in pt-BR
        payments.save_key(token, "cpf", "529.982.247-26")
    assert refused.value.message == "CPF inválido: os dígitos verificadores não conferem."
    pix.remove()
    assert pix.current is None and payment.terms["key"] is None
    pix.load()
    assert pix.current is None and pix.message == ""
