import json

from driver_app.clients import DEMO_ME, FakeRegistry
from driver_app.viewmodels import LoginViewModel

from .conftest import HttpResponse


def test_login_keeps_token_in_app_dir(store):
    registry = FakeRegistry({"ana": "s3nha"})
    vm = LoginViewModel(store, registry)
    assert not vm.logged_in
    assert vm.login("ana", "s3nha")
    saved = json.loads((store.app_dir / "token.json").read_text())
    assert saved == {"token": "tok-ana", "username": "ana"}
    again = LoginViewModel(store, registry)  # app restarted
    assert again.logged_in and again.token == "tok-ana" and again.username == "ana"
    again.logout()
    assert not (store.app_dir / "token.json").exists()
    assert not LoginViewModel(store, registry).logged_in


def test_login_errors_in_portuguese(store):
    registry = FakeRegistry({"ana": "s3nha"})
    vm = LoginViewModel(store, registry)
    assert not vm.login("", "")
    assert vm.error == "Informe usuário e senha."
    assert not vm.login("ana", "errada")
    assert vm.error == "Usuário ou senha inválidos."
    registry.online = False
    assert not vm.login("ana", "s3nha")
    assert vm.error.startswith("Sem conexão")
    assert not vm.logged_in


def test_fetch_me_caches_for_offline_and_logs_out_on_expired_token(store):
    registry = FakeRegistry({"ana": "x"}, me=DEMO_ME)
    vm = LoginViewModel(store, registry)
    vm.login("ana", "x")
    assert vm.fetch_me()["cvi"]["plate"] == "GXY-4B21"
    registry.online = False
    assert vm.fetch_me()["cvi"]["plate"] == "GXY-4B21"  # cached copy
    registry.online = True
    registry.tokens.clear()  # token revoked on the server
    assert vm.fetch_me() is None
    assert not vm.logged_in
    assert vm.error == "Sessão expirada. Entre novamente."


def test_http_client_talks_to_the_registry_api(monkeypatch):
    """The real client posts JSON to /api/auth/token/ and sends ``Authorization: Token``."""
    import urllib.request

    from driver_app.clients import HttpRegistryClient

    seen = []

    def fake_urlopen(req, timeout):
        seen.append((req.get_method(), req.full_url, req.get_header("Authorization"), req.data))
        body = {"token": "abc"} if req.full_url.endswith("/auth/token/") else DEMO_ME
        return HttpResponse(json.dumps(body).encode())

    monkeypatch.setattr(urllib.request, "urlopen", fake_urlopen)
    client = HttpRegistryClient("http://127.0.0.1:8000/")
    assert client.login("ana", "x") == "abc"
    assert client.me("abc")["cmt"]["number"] == "CMT-0042"
    assert seen[0][:2] == ("POST", "http://127.0.0.1:8000/api/auth/token/")
    assert json.loads(seen[0][3]) == {"username": "ana", "password": "x"}
    assert seen[1][:3] == ("GET", "http://127.0.0.1:8000/api/me/", "Token abc")


def test_http_client_maps_errors():
    import pytest

    from driver_app.clients import HttpRegistryClient, NetworkError

    with pytest.raises(NetworkError):
        HttpRegistryClient("http://127.0.0.1:9", timeout=2).login("a", "b")
