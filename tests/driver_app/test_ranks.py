"""The rank screen's logic (RanksViewModel): the server's answer shown, loading / offline / retry off the UI
thread, check in and out on the dispatch socket."""

import pytest

from driver_app.background import Background
from driver_app.clients import FakeDispatch, FakeRanks
from driver_app.session import demo_ranks
from driver_app.viewmodels import RanksViewModel


class HeldExecutor:
    """Keeps the calls until the test runs them: what the UI shows meanwhile can be asserted."""

    def __init__(self):
        self.jobs = []

    def submit(self, fn):
        self.jobs.append(fn)

    def run_all(self):
        jobs, self.jobs = self.jobs, []
        for job in jobs:
            job()


class UiPosts(list):
    """The UI thread's queue: callbacks posted by the workers, run by ``drain``."""

    def __call__(self, fn):
        self.append(fn)

    def drain(self):
        while self:
            self.pop(0)()


def setup(position=(-21.1297, -42.3648)):
    executor, ui, dispatch, ranks = HeldExecutor(), UiPosts(), FakeDispatch(), FakeRanks(demo_ranks())
    vm = RanksViewModel(ranks, dispatch, lambda: position, token=lambda: "tok", background=Background(ui, executor))
    dispatch.connect("tok", vm.on_message)
    return vm, executor, ui, dispatch, ranks


@pytest.mark.article("Art. 27, §3", "Art. 22, I", "Art. 9, V")
def test_the_list_loads_off_the_ui_thread_and_shows_each_answer():
    vm, executor, ui, _dispatch, ranks = setup()
    vm.load()
    assert vm.loading and vm.status_text == "Carregando os pontos…" and vm.rows == []
    assert ranks.asked == []  # nothing ran on the UI thread
    executor.run_all()
    assert ranks.asked == [(-21.1297, -42.3648)] and vm.loading  # answered on the worker, not yet applied
    ui.drain()
    assert not vm.loading and vm.status_text == "" and vm.here_text == "Fora de ponto"
    titular, refused = vm.rows[0], vm.rows[1]
    assert (titular.title, titular.allowed, titular.verdict) == ("Praça João Pinheiro · 120 m", True,
                                                                  "Titular deste ponto: pode parar")
    assert not refused.allowed and refused.verdict.startswith("Não pode parar: O ponto já tem 4 veículos titulares")
    assert refused.detail == "privativo (Art. 22, I) · 6 titulares · até 2 de outros pontos · 4 na fila"
    assert vm.rows[3].title == "Hospital São Paulo · 1,2 km" and "a até 200 m" in vm.rows[3].verdict
    assert [r.allowed for r in vm.rows] == [True, False, False, False]


def test_offline_says_so_and_retry_loads_again():
    vm, executor, ui, _dispatch, ranks = setup()
    ranks.online = False
    vm.load()
    executor.run_all(), ui.drain()
    assert vm.status_text == "Sem conexão com o servidor: lista de pontos indisponível." and not vm.loading
    ranks.online = True
    vm.load()  # "Tentar de novo"
    executor.run_all(), ui.drain()
    assert vm.status_text == "" and len(vm.rows) == 4


def test_without_a_gps_fix_the_screen_waits_for_it():
    vm, executor, _ui, _dispatch, ranks = setup(position=None)
    vm.load()
    assert executor.jobs == [] and "posição do GPS" in vm.status_text


@pytest.mark.article("Art. 22", "Art. 27, §3")
def test_check_in_and_out_go_on_the_socket_and_the_answers_reload_the_queues():
    vm, executor, ui, dispatch, ranks = setup()
    assert vm.check_in(4)
    assert dispatch.sent[-1] == {"type": "rank_check_in", "rank_id": 4} and vm.pending == "check_in"
    assert not vm.check_in(1)  # one at a time
    ranks.answer["checked_in"] = {"rank_id": 4, "rank": "Praça João Pinheiro", "queue_position": 2, "visitor": False}
    dispatch.push({"type": "rank_checked_in", "rank_id": 4, "rank": "Praça João Pinheiro", "queue_position": 2,
                   "visitor": False})
    assert vm.pending == "" and vm.message == "Chegada registrada: Praça João Pinheiro, 2º na fila."
    executor.run_all(), ui.drain()  # the list read again
    assert vm.here_text == "No ponto Praça João Pinheiro: 2º na fila" and vm.rows[0].here
    assert vm.rows[0].verdict == "Você está neste ponto"
    assert vm.check_out() and dispatch.sent[-1] == {"type": "rank_check_out"}
    dispatch.push({"type": "rank_checked_out"})
    assert vm.checked_in is None and vm.message == "Saída do ponto registrada."


@pytest.mark.article("Art. 9, V")
def test_a_refused_check_in_says_why_and_frees_the_button():
    vm, _executor, _ui, dispatch, _ranks = setup()
    vm.check_in(1)
    dispatch.push({"type": "error", "code": "law", "message": "O táxi está a 320 m do ponto; a chegada só é "
                                                              "registrada a até 200 m dele (Art. 9, V)."})
    assert vm.pending == "" and vm.message.startswith("Recusado: O táxi está a 320 m do ponto")
    dispatch.online = False
    assert not vm.check_in(1) and vm.message == "Sem conexão com a central: tente de novo."
