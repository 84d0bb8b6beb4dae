import json
from datetime import timedelta

from driver_app.background import Background
from driver_app.clients import DEMO_ME, FakeRegistry
from driver_app.viewmodels import LoginViewModel, MeAnswer

from .conftest import HttpResponse
from .test_ranks import HeldExecutor, UiPosts


def test_login_keeps_token_in_app_dir(store):
    registry = FakeRegistry({"ana": "s3nha"})
    vm = LoginViewModel(store, registry)
    assert not vm.logged_in
    vm.login("ana", "s3nha")
    assert vm.logged_in
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
    vm.login("", "")
    assert vm.error == "Informe usuário e senha."
    vm.login("ana", "errada")
    assert vm.error == "Usuário ou senha inválidos." and not vm.logged_in
    registry.online = False
    vm.login("ana", "s3nha")
    assert vm.error == "Sem conexão com o servidor. Tente novamente."
    assert not vm.logged_in


def held(store, registry, clock=None):
    executor, ui = HeldExecutor(), UiPosts()
    vm = LoginViewModel(store, registry, Background(ui, executor), **({"clock": clock} if clock else {}))
    return vm, executor, ui


def test_the_login_runs_off_the_ui_thread_with_entrando_and_the_button_disabled(store):
    registry, entered = FakeRegistry({"ana": "s3nha"}), []
    vm, executor, ui = held(store, registry)
    vm.login("ana", "s3nha", then=lambda: entered.append(vm.token))
    assert vm.busy and vm.button_text == "Entrando…" and not vm.logged_in and registry.tokens == {}
    vm.login("ana", "s3nha")  # a second tap while busy sends nothing
    assert len(executor.jobs) == 1
    executor.run_all()  # the worker got the token: not applied until the UI thread runs it
    assert vm.busy and not vm.logged_in and entered == []
    ui.drain()
    assert vm.logged_in and not vm.busy and vm.button_text == "Entrar" and entered == ["tok-ana"]


def test_offline_the_login_says_so_and_the_driver_tries_again(store):
    registry = FakeRegistry({"ana": "s3nha"})
    registry.online = False
    vm, executor, ui = held(store, registry)
    vm.login("ana", "s3nha")
    executor.run_all()
    ui.drain()
    assert vm.error == "Sem conexão com o servidor. Tente novamente." and not vm.busy and not vm.logged_in
    registry.online = True
    vm.login("ana", "s3nha")  # the button is enabled again
    assert vm.error == "" and vm.busy
    executor.run_all()
    ui.drain()
    assert vm.logged_in and vm.error == ""


def test_fetch_me_caches_for_offline_with_its_time_and_logs_out_on_expired_token(store, clock):
    registry = FakeRegistry({"ana": "x"}, me=DEMO_ME)
    vm, executor, ui = held(store, registry, clock)
    vm.login("ana", "x")
    executor.run_all()
    ui.drain()
    answers = []
    vm.fetch_me(answers.append)
    assert answers == []  # asked off the UI thread
    executor.run_all()
    assert answers == []
    ui.drain()
    assert answers == [MeAnswer(DEMO_ME)]
    registry.online = False
    clock.advance(3600)
    vm.fetch_me(answers.append)
    executor.run_all()
    ui.drain()
    assert answers[-1] == MeAnswer(DEMO_ME, "Sem conexão", clock() - timedelta(hours=1))  # the copy, and when
    registry.online = True
    registry.tokens.clear()  # token revoked on the server
    vm.fetch_me(answers.append)
    executor.run_all()
    ui.drain()
    assert answers[-1] == MeAnswer(None) and not vm.logged_in
    assert vm.error == "Sessão expirada. Entre novamente." and store.load("me") is None


def test_an_answer_for_a_session_that_ended_meanwhile_is_dropped(store):
    registry = FakeRegistry({"ana": "x"}, me=DEMO_ME)
    vm, executor, ui = held(store, registry)
    vm.login("ana", "x")
    executor.run_all()
    ui.drain()
    answers = []
    vm.fetch_me(answers.append)
    vm.logout()
    executor.run_all()
    ui.drain()
    assert answers == [] and store.load("me") is None


def test_logout_forgets_the_token_at_once_and_revokes_it_on_the_server_off_the_ui_thread(store):
    registry = FakeRegistry({"ana": "x"})
    vm, executor, ui = held(store, registry)
    vm.login("ana", "x")
    executor.run_all()
    ui.drain()
    vm.logout()
    assert not vm.logged_in and "tok-ana" in registry.tokens  # not yet on the server
    executor.run_all()
    ui.drain()
    assert registry.tokens == {}
    vm.login("ana", "x")
    executor.run_all()
    ui.drain()
    registry.online = False  # best-effort: offline the token expires on the server by itself, nothing to tell
    vm.logout()
    executor.run_all()
    ui.drain()
    assert not vm.logged_in and vm.error == "" and "tok-ana" in registry.tokens


def test_http_client_talks_to_the_registry_api(monkeypatch):
    """The real client posts JSON to /api/auth/token/ and sends ``Authorization: Token`` (also to log out)."""
    import urllib.request

    from driver_app.clients import HttpRegistryClient

    seen = []

    def fake_urlopen(req, timeout):
        seen.append((req.get_method(), req.full_url, req.get_header("Authorization"), req.data))
        if req.full_url.endswith("/auth/logout/"):
            return HttpResponse(b"")  # 204
        body = {"token": "abc"} if req.full_url.endswith("/auth/token/") else DEMO_ME
        return HttpResponse(json.dumps(body).encode())

    monkeypatch.setattr(urllib.request, "urlopen", fake_urlopen)
    client = HttpRegistryClient("http://127.0.0.1:8000/")
    assert client.login("ana", "x") == "abc"
    assert client.me("abc")["cmt"]["number"] == "CMT-0042"
    assert seen[0][:2] == ("POST", "http://127.0.0.1:8000/api/auth/token/")
    assert json.loads(seen[0][3]) == {"username": "ana", "password": "x"}
    assert seen[1][:3] == ("GET", "http://127.0.0.1:8000/api/me/", "Token abc")
    assert client.logout("abc") is None
    assert seen[2][:3] == ("POST", "http://127.0.0.1:8000/api/auth/logout/", "Token abc")


def test_http_client_maps_errors():
    import pytest

    from driver_app.clients import HttpRegistryClient, NetworkError

    with pytest.raises(NetworkError):
        HttpRegistryClient("http://127.0.0.1:9", timeout=2).login("a", "b")
