"""Issue #17, item 7: every network call of the session off the UI thread, with a visible state (loading,
offline, retry), its answer applied on the UI thread -- the session without a window."""

import threading
import time

from driver_app.background import Background
from driver_app.clients import FakeTariffs
from driver_app.session import build_session
from driver_app.viewmodels import DriverState
from driver_app.ws import UiQueue
from taxilaw.tariffs import MURIAE_DEMO_TARIFF

from .test_ranks import HeldExecutor, UiPosts

SERVER_TARIFF = dict(MURIAE_DEMO_TARIFF.to_dict(), effective_from="2026-02-01", bandeirada="6.00",
                     decree="Decreto 1/2026")


def held_session(tmp_path, clock):
    """The demo's fakes behind a held executor: nothing answers until the test runs the jobs."""
    executor, ui = HeldExecutor(), UiPosts()
    s = build_session(tmp_path / "app", demo=True, clock=clock, background=Background(ui, executor))
    s.tariffs = FakeTariffs(tariff=SERVER_TARIFF)
    return s, executor, ui


def answer(executor, ui):
    executor.run_all()
    ui.drain()


def logged_in(tmp_path, clock):
    s, executor, ui = held_session(tmp_path, clock)
    s.login.login("demo", "demo", then=s.after_login)
    assert s.login.busy and s.login.button_text == "Entrando…"
    executor.run_all()
    ui.drain()  # logged in on the UI thread: after_login asks for everything
    return s, executor, ui


def test_after_login_connects_at_once_and_a_slow_me_delays_neither_the_tariff_nor_the_payments(tmp_path, clock):
    s, executor, ui = logged_in(tmp_path, clock)
    assert s.dispatch.token == "tok-demo"  # the socket connected with the token, without waiting for anything
    assert s.cards.loading and s.cards.status_text == "Carregando os cartões…"
    assert s.meter.tariff_loading and s.meter.tariff_text == "Carregando a tarifa em vigor…"
    assert not s.meter.can_start and s.start_trip() is False  # not on the tariff held before the server's
    me_job, *others = executor.jobs  # /api/me/, the tariff, the Pix terms: asked together
    assert len(others) == 2
    executor.jobs = others
    answer(executor, ui)  # /api/me/ still on its way
    assert s.meter.tariff_text.startswith("Bandeirada R$ 6,00") and s.meter.can_start
    assert s.payment.terms["key"] == "+5532999991234"
    assert s.cards.loading and s.cards.plate == "" and s.split.this_week is None
    executor.jobs = [me_job]
    answer(executor, ui)  # the cards, then the split (it needs the role)
    assert not s.cards.loading and s.cards.plate == "GXY-4B21" and s.cards.status_text == ""
    assert s.split.loading and s.split.role == "auxiliar"
    answer(executor, ui)
    assert s.split.this_week.gross == "R$ 412,60"


def test_offline_the_cards_are_the_saved_copy_with_its_date_and_the_driver_retries(tmp_path, clock):
    s, executor, ui = logged_in(tmp_path, clock)
    answer(executor, ui)
    answer(executor, ui)  # the split
    registry = s.extras["registry"]
    registry.online = False
    clock.advance(7200)
    s.load_me()  # the app restarted offline, or "Tentar de novo"
    assert s.cards.status_text == "Carregando os cartões…" and not s.cards.can_retry
    answer(executor, ui)
    assert s.cards.plate == "GXY-4B21"  # the copy saved at the login
    assert s.cards.status_text == "Sem conexão: dados salvos em 04/03/2026 às 10:00" and s.cards.can_retry
    assert s.flag.allowed  # the saved compliance
    registry.online = True
    s.load_me()
    answer(executor, ui)
    assert s.cards.status_text == "" and not s.cards.can_retry


def test_offline_without_a_saved_copy_says_so(tmp_path, clock):
    s, executor, ui = logged_in(tmp_path, clock)
    s.extras["registry"].online = False
    answer(executor, ui)
    assert s.cards.status_text == "Sem conexão: nenhum cartão salvo neste aparelho." and s.cards.can_retry
    assert not s.flag.allowed and s.flag.reason == "Impedido: Sem permissão vinculada."


def test_offline_the_tariff_line_shows_loading_then_the_last_tariff_received(tmp_path, clock):
    s, executor, ui = logged_in(tmp_path, clock)
    answer(executor, ui)  # the server's tariff, saved
    s.tariffs.online = False
    s.load_tariff()
    assert s.meter.tariff_text == "Carregando a tarifa em vigor…"
    answer(executor, ui)
    assert "Bandeirada R$ 6,00" in s.meter.tariff_text and "Sem conexão: última tarifa recebida" in s.meter.tariff_text


def test_an_expired_token_logs_out_and_the_login_screen_comes_once_the_trip_has_ended(tmp_path, clock):
    s, executor, ui = logged_in(tmp_path, clock)
    answer(executor, ui)
    answer(executor, ui)
    s.flag.go_free()
    assert s.start_trip()
    s.extras["registry"].tokens.clear()  # revoked on the server
    s.load_me()
    answer(executor, ui)
    assert not s.login.logged_in and s.login.error == "Sessão expirada. Entre novamente."
    assert s.dispatch.listener is None  # the socket closed
    assert s.flag.state == DriverState.OCUPADO  # the passenger aboard is driven to the end
    assert s.navigator.screen_for("meter", False, "", s.meter.running, logged_in=s.login.logged_in) is None
    s.stop_trip()
    assert s.flag.state == DriverState.FORA_DE_SERVICO  # logged out: not free for the next passenger
    assert s.navigator.screen_for("meter", False, "", s.meter.running, logged_in=s.login.logged_in) == "login"


def test_logout_revokes_the_token_on_the_server_off_the_ui_thread(tmp_path, clock):
    s, executor, ui = logged_in(tmp_path, clock)
    answer(executor, ui)
    registry = s.extras["registry"]
    s.flag.go_free()
    s.logout()
    assert not s.login.logged_in and s.flag.state == DriverState.FORA_DE_SERVICO and s.dispatch.listener is None
    assert "tok-demo" in registry.tokens
    answer(executor, ui)
    assert registry.tokens == {}


class Recorder:
    """A client whose every call records the calling thread."""

    def __init__(self, inner, calls):
        self._inner, self._calls = inner, calls

    def __getattr__(self, name):
        attr = getattr(self._inner, name)
        if not callable(attr):
            return attr

        def call(*args, **kwargs):
            self._calls.append((name, threading.get_ident()))
            return attr(*args, **kwargs)

        return call


def settle(ui, condition, what, timeout=10.0):
    """Run the UI thread's queue until ``condition()``."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        ui.wait(0.05)
        ui.drain()


def test_the_ui_thread_never_calls_a_client(tmp_path, clock):
    ui, calls = UiQueue(), []
    s = build_session(tmp_path / "app", demo=True, clock=clock, post=ui, background=Background(ui))  # a real pool
    s.login.registry = Recorder(s.login.registry, calls)
    s.tariffs = Recorder(FakeTariffs(tariff=SERVER_TARIFF), calls)
    s.payment.payments = Recorder(s.payment.payments, calls)
    s.split.statements = Recorder(s.split.statements, calls)
    s.ranks.ranks = Recorder(s.ranks.ranks, calls)
    s.meter.trips = Recorder(s.meter.trips, calls)  # only a blocking upload: on a worker too
    s.login.login("demo", "demo", then=s.after_login)
    settle(ui, lambda: s.login.logged_in and s.cards.loaded and s.split.this_week and not s.meter.tariff_loading
           and s.payment.terms, "after_login")
    s.flag.go_free()
    s.tick()
    s.tick()  # a GPS fix
    s.ranks.load()
    settle(ui, lambda: s.ranks.rows, "the ranks")
    assert s.start_trip()
    for _ in range(30):
        clock.advance(1)
        s.gps.step()
    trip_id = s.meter.trip_id
    s.stop_trip()
    settle(ui, lambda: not s.meter.queue, "the trip uploaded")
    s.payment.choose("cash")
    s.payment.on_trip_confirmed({"trip_id": trip_id}, {"ride_id": 90})  # the central numbered the street trip
    settle(ui, lambda: not s.payment.queue, "the payment sent")
    s.logout()
    settle(ui, lambda: any(name == "logout" for name, _ in calls), "the logout")
    s.background.executor.shutdown(wait=True)
    ui.drain()
    assert {name for name, _ in calls} == {"login", "me", "current", "pix_terms", "weekly", "near", "upload", "record",
                                           "logout"}
    ui_thread = threading.get_ident()
    assert [name for name, ident in calls if ident == ui_thread] == []
