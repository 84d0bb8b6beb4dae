from datetime import date

import pytest

from driver_app.clients import FakeStatements
from driver_app.viewmodels import SplitViewModel

from .conftest import HttpResponse

TODAY = date(2026, 3, 4)  # week of Monday 2 March


def statements(**agreement):
    s = FakeStatements(weeks=[
        {"week_start": "2026-03-02", "gross": "412.60", "fares": 19},
        {"week_start": "2026-02-23", "gross": "1234.50", "fares": 61},
        {"week_start": "2026-02-16", "gross": "0.02", "fares": 1},
    ])
    if agreement:
        s.agreement = agreement
    return s


@pytest.mark.article("Art. 1, §3")
def test_this_and_past_weeks_split_25_75():
    vm = SplitViewModel(statements())
    vm.load(TODAY, "auxiliar")
    w = vm.this_week
    assert w.title == "Esta semana" and w.period == "02/03/2026 a 08/03/2026" and w.fares == 19
    assert (w.gross, w.auxiliary, w.permit_holder) == ("R$ 412,60", "R$ 103,15", "R$ 309,45")
    assert [p.title for p in vm.past_weeks] == ["Semana de 23/02/2026", "Semana de 16/02/2026"]
    # 1 234,50 x 25% = 308,625: the half centavo goes to the auxiliary
    assert (vm.past_weeks[0].auxiliary, vm.past_weeks[0].permit_holder) == ("R$ 308,63", "R$ 925,87")
    assert (vm.past_weeks[1].auxiliary, vm.past_weeks[1].permit_holder) == ("R$ 0,01", "R$ 0,01")
    assert vm.my_part_label == "Sua parte (auxiliar)" and vm.my_part == "R$ 103,15"
    assert vm.agreement_text == "Lei: auxiliar 25%, permissionário 75% (Art. 1, §3)"
    assert "Art. 1, §2" in vm.note


@pytest.mark.article("Art. 1, §3")
def test_week_without_fares_and_permit_holder_view():
    vm = SplitViewModel(FakeStatements(weeks=[]))
    vm.load(TODAY, "permissionario")
    assert vm.this_week.gross == "R$ 0,00" and vm.past_weeks == []
    assert vm.my_part_label == "Sua parte (permissionário)" and vm.my_part == "R$ 0,00"


@pytest.mark.article("Art. 1, §6")
def test_written_contract_and_ctps():
    vm = SplitViewModel(statements(kind="contract", auxiliary_percent="30", witnesses=2))
    vm.load(TODAY, "auxiliar")
    assert vm.this_week.auxiliary == "R$ 123,78" and vm.this_week.permit_holder == "R$ 288,82"
    assert vm.agreement_text == "Contrato escrito: auxiliar 30% (Art. 1, §6)"
    vm = SplitViewModel(statements(kind="ctps"))
    vm.load(TODAY, "auxiliar")
    assert vm.no_split and vm.this_week.auxiliary == "R$ 0,00"
    assert vm.agreement_text == "Auxiliar com CTPS: não há partilha (Art. 1, §6)"


def test_offline_statement():
    s = statements()
    s.online = False
    vm = SplitViewModel(s)
    vm.load(TODAY, "auxiliar")
    assert vm.error == "Sem conexão: extrato indisponível." and vm.this_week is None


def test_own_driving_has_no_split():
    vm = SplitViewModel(statements(kind="own", auxiliary_percent="0"))
    vm.load(TODAY, "permissionario")
    assert vm.no_split and vm.agreement_text == "Condução do próprio permissionário: sem partilha"
    assert vm.my_part == "R$ 412,60" and vm.this_week.auxiliary == "R$ 0,00"


@pytest.mark.article("Art. 1, §3")
def test_http_statements_client_folds_the_statements_api(monkeypatch):
    """``/api/statements/current/`` + ``/api/statements/`` -> this week and past weeks."""
    import json
    import urllib.error
    import urllib.request

    from driver_app.clients import HttpRegistryClient, HttpStatementsClient

    def st(week, gross, rides, pct="25.00", agreement="law"):
        return {"week_start": week, "gross": gross, "rides": rides, "auxiliary_percent": pct,
                "agreement": agreement, "role": "auxiliar", "contract_reference": ""}

    answers = {
        "/api/statements/current/": {"week_start": "2026-03-02", "week_end": "2026-03-08",
                                     "statements": [st("2026-03-02", "100.00", 4), st("2026-03-02", "12.60", 1)]},
        "/api/statements/?limit=32": {"count": 2, "results": [st("2026-02-23", "1234.50", 61),
                                                              st("2026-02-16", "987.30", 48)]},
    }
    seen = []

    def fake_urlopen(req, timeout):
        path = req.full_url.removeprefix("http://api")
        seen.append((path, req.get_header("Authorization")))
        return HttpResponse(json.dumps(answers[path]).encode())

    monkeypatch.setattr(urllib.request, "urlopen", fake_urlopen)
    client = HttpStatementsClient(HttpRegistryClient("http://api"))
    vm = SplitViewModel(client, token=lambda: "tok")
    vm.load(TODAY, "auxiliar")
    assert all(auth == "Token tok" for _p, auth in seen)
    assert vm.this_week.gross == "R$ 112,60" and vm.this_week.fares == 5
    assert vm.this_week.auxiliary == "R$ 28,15" and vm.this_week.permit_holder == "R$ 84,45"
    assert [w.gross for w in vm.past_weeks] == ["R$ 1.234,50", "R$ 987,30"]

    def no_current(req, timeout):
        if req.full_url.endswith("/current/"):
            raise urllib.error.HTTPError(req.full_url, 404, "not found", {}, None)
        return fake_urlopen(req, timeout)

    monkeypatch.setattr(urllib.request, "urlopen", no_current)
    vm.load(TODAY, "auxiliar")
    assert vm.this_week.gross == "R$ 0,00" and len(vm.past_weeks) == 2


def _week_with_rides(**server):
    week = {"week_start": "2026-03-02", "gross": "44.30", "fares": 3, "rides": [
        {"completed_at": "2026-03-04T22:41:00+00:00", "fare": "23.10", "origin": "street", "server_total": "25.70",
         "meter_disagreement": True},
        {"completed_at": "2026-03-02T17:20:00+00:00", "fare": "8.80", "origin": "dispatched", "server_total": "8.80",
         "meter_disagreement": False},
        {"completed_at": "2026-03-03T12:05:00+00:00", "fare": "12.40", "origin": "rank", "server_total": None,
         "meter_disagreement": False}]}
    week.update(server)
    return FakeStatements(weeks=[week])


@pytest.mark.article("Art. 1, §3", "Art. 43")
def test_the_weeks_rides_in_time_order_with_origin_and_meter_disagreement():
    vm = SplitViewModel(_week_with_rides())
    vm.load(TODAY, "auxiliar")
    assert [(r.when, r.fare, r.origin) for r in vm.rides] == [
        ("seg 02/03 14:20", "R$ 8,80", "central"), ("ter 03/03 09:05", "R$ 12,40", "ponto"),
        ("qua 04/03 19:41", "R$ 23,10", "rua")]  # local times (America/Sao_Paulo)
    assert [r.disagreement for r in vm.rides] == ["", "", "Taxímetro divergente: servidor calculou R$ 25,70"]
    assert vm.empty_text == "" and vm.server_check == ""  # the fakes send no statement


@pytest.mark.article("Art. 1, §3")
def test_the_servers_statement_is_checked_to_the_centavo():
    # 44,30 x 25% = 11,075: the half centavo to the auxiliary (taxilaw.split), as the server's statement does
    vm = SplitViewModel(_week_with_rides(auxiliary_part="11.08", holder_part="33.22"))
    vm.load(TODAY, "auxiliar")
    assert (vm.this_week.auxiliary, vm.server_check) == ("R$ 11,08", "Confere com o extrato da central.")
    vm = SplitViewModel(_week_with_rides(auxiliary_part="11.07", holder_part="33.23"))
    vm.load(TODAY, "auxiliar")
    assert vm.server_check.startswith("Diferente do extrato da central: auxiliar R$ 11,07")


def test_loading_off_the_ui_thread_then_offline_then_retry():
    from driver_app.background import Background

    from .test_ranks import HeldExecutor, UiPosts

    executor, ui, statements = HeldExecutor(), UiPosts(), _week_with_rides()
    vm = SplitViewModel(statements, background=Background(ui, executor))
    vm.load(TODAY, "auxiliar")
    assert vm.loading and vm.status_text == "Carregando o extrato…" and vm.empty_text == ""
    statements.online = False
    executor.run_all(), ui.drain()
    assert not vm.loading and vm.status_text == "Sem conexão: extrato indisponível."
    statements.online = True
    vm.retry(TODAY)
    executor.run_all(), ui.drain()
    assert vm.status_text == "" and len(vm.rides) == 3


def test_an_empty_week_says_so():
    vm = SplitViewModel(FakeStatements(weeks=[]))
    vm.load(TODAY, "auxiliar")
    assert vm.rides == [] and vm.empty_text == "Nenhuma corrida nesta semana."
