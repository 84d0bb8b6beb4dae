"""The driver's own Pix key from the app: checked as the server checks it (``taxilaw.pix.check_key``), saved,
changed and removed, and used at once by the payment screen (no new login) -- view-models without a window."""

import json
import urllib.error
import urllib.request
from decimal import Decimal

import pytest

from driver_app.background import Background
from driver_app.clients import FakePayments, HttpRegistryClient, RejectedError
from driver_app.payment_clients import HttpPaymentsClient
from driver_app.session import build_session
from taxilaw import pix

from .conftest import HttpResponse
from .test_ranks import HeldExecutor, UiPosts


def demo(tmp_path, clock):
    s = build_session(tmp_path / "app", demo=True, clock=clock)
    s.login.login("demo", "demo")
    s.after_login()
    return s


class CountingPayments(FakePayments):
    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.saves = []

    def save_key(self, token, kind, key):
        self.saves.append((kind, key))
        return super().save_key(token, kind, key)


@pytest.mark.parametrize("kind, typed", [("cpf", "529.982.247-26"), ("phone", "+55 32 89999-1234"),
                                         ("email", "joao@"), ("evp", "123"), ("cnpj", "11.222.333/0001-80")])
def test_an_invalid_key_is_refused_on_the_phone_in_the_servers_words_and_nothing_is_sent(tmp_path, clock, kind, typed):
    s = demo(tmp_path, clock)
    s.pix.payments = payments = CountingPayments()
    s.pix.load()
    s.pix.choose_kind(kind)
    assert s.pix.save(typed) is False
    assert s.pix.error == pix.check_key(kind, typed).decision.reasons[0].message and s.pix.error
    assert payments.saves == [] and s.pix.current == {"kind": "phone", "key": "+5532999991234"}


def test_a_new_key_is_saved_normalised_and_the_next_pix_uses_it_without_a_new_login(tmp_path, clock):
    s = demo(tmp_path, clock)
    s.pix.load()
    assert s.pix.current_text == "Chave atual: Celular +5532999991234"
    s.pix.choose_kind("cpf")
    assert s.pix.hint == "Ex.: 000.000.000-00"
    assert s.pix.save(" 529.982.247-25 ")
    assert s.pix.current == {"kind": "cpf", "key": "52998224725"} and s.pix.error == ""
    assert s.pix.message == "Chave Pix salva: CPF 52998224725. Vale já para a próxima corrida."
    assert s.payment.terms["key"] == "52998224725"  # the terms were asked again at once
    s.payment.begin(Decimal("18.40"), "trip-1", ride_id=9)
    s.payment.choose("pix")
    assert pix.parse_fields(pix.parse(s.payment.pix_payload)["26"])["01"] == "52998224725"


def test_removing_the_key_leaves_pix_out_of_the_next_payment(tmp_path, clock):
    s = demo(tmp_path, clock)
    s.pix.load()
    s.pix.remove()
    assert s.pix.current is None and s.pix.current_text == "Nenhuma chave Pix cadastrada."
    assert s.pix.message.startswith("Chave Pix removida.")
    s.payment.begin(Decimal("18.40"), "trip-1", ride_id=9)
    s.payment.choose("pix")
    assert s.payment.pending and "Sem chave Pix" in s.payment.message and "Chave Pix" in s.payment.message
    s.pix.remove()  # nothing to remove: nothing sent
    assert s.pix.current is None


def test_the_servers_refusal_and_no_network_are_said_and_the_key_in_force_stays(tmp_path, clock):
    class Refusing(FakePayments):
        def save_key(self, token, kind, key):
            self._up()
            raise RejectedError("pix_key_receiver", "Nome do recebedor inválido para o Pix.")

    s = demo(tmp_path, clock)
    s.pix.payments = Refusing()
    s.pix.load()
    s.pix.save("+55 32 98888-1234")
    assert s.pix.error == "Nome do recebedor inválido para o Pix." and s.pix.current["key"] == "+5532999991234"
    s.pix.payments.online = False
    s.pix.save("+55 32 98888-1234")
    assert s.pix.message == "Sem conexão com o servidor: a chave não foi alterada. Tente de novo." and not s.pix.busy


def test_the_key_is_sent_off_the_ui_thread_and_the_form_waits(tmp_path, clock):
    from driver_app.viewmodels.pixkey import PixKeyViewModel

    executor, ui, refreshed = HeldExecutor(), UiPosts(), []
    vm = PixKeyViewModel(FakePayments(), token=lambda: "tok", background=Background(ui, executor),
                         on_changed=lambda: refreshed.append(True))
    vm.save("+55 32 98888-1234")
    assert vm.busy and vm.message == "Enviando à central…" and refreshed == []
    executor.run_all(), ui.drain()
    assert not vm.busy and vm.current["key"] == "+5532988881234" and refreshed == [True]


def test_http_client_speaks_the_pix_key_api(monkeypatch):
    seen = []

    def fake_urlopen(req, timeout):
        seen.append((req.get_method(), req.full_url, req.data and json.loads(req.data)))
        if req.get_method() == "GET":
            raise urllib.error.HTTPError(req.full_url, 404, "not found", {}, None)
        if req.get_method() == "PUT" and json.loads(req.data)["key"] == "bad":
            body = json.dumps({"detail": "Chave aleatória inválida.", "reasons": [{"code": "pix_key_evp_format"}]})
            raise urllib.error.HTTPError(req.full_url, 400, "bad", {}, HttpResponse(body.encode()))
        if req.get_method() == "DELETE":
            return HttpResponse(b"")
        return HttpResponse(json.dumps({"kind": "cpf", "key": "52998224725"}).encode())

    monkeypatch.setattr(urllib.request, "urlopen", fake_urlopen)
    client = HttpPaymentsClient(HttpRegistryClient("http://api"))
    assert client.my_key("tok") is None
    assert client.save_key("tok", "cpf", "52998224725") == {"kind": "cpf", "key": "52998224725"}
    with pytest.raises(RejectedError) as refused:
        client.save_key("tok", "evp", "bad")
    assert (refused.value.code, refused.value.message) == ("pix_key_evp_format", "Chave aleatória inválida.")
    client.remove_key("tok")
    assert [(m, u.removeprefix("http://api")) for m, u, _b in seen] == [
        ("GET", "/api/me/pix-key/"), ("PUT", "/api/me/pix-key/"), ("PUT", "/api/me/pix-key/"),
        ("DELETE", "/api/me/pix-key/")]


def test_a_key_changed_elsewhere_counts_from_the_next_trips_payment(tmp_path, clock):
    """The admin or the web changed the key: the terms are asked again when a trip ends, not only at login."""
    s = demo(tmp_path, clock)
    s.extras["payments"].save_key("tok", "email", "Joao@Example.com")
    assert s.payment.terms["key"] == "+5532999991234"  # cached since the login
    s.flag.go_free()
    s.start_trip()
    for _ in range(30):
        clock.advance(1)
        s.gps.step()
    s.stop_trip()
    s.payment.choose("pix")
    assert pix.parse_fields(pix.parse(s.payment.pix_payload)["26"])["01"] == "joao@example.com"
