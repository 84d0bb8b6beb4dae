"""The week's rides with their payments (Art. 1, §3): an unpaid ride's payment recorded from the list after its
screen was missed, while the week is open (the server decides); the Partilha reloaded after every payment; a
permit holder's own rides listed, not split -- view-models without a window."""

import json
import urllib.error
import urllib.request
from datetime import date

import pytest

from driver_app.clients import FakeStatements, HttpRegistryClient, HttpStatementsClient, NetworkError
from driver_app.session import build_session
from driver_app.viewmodels import SplitViewModel
from taxilaw.split import week_start

from .conftest import HttpResponse

TODAY = date(2026, 3, 4)


def lines(*methods):
    return [{"ride": 50 + n, "completed_at": f"2026-03-0{2 + n}T15:00:00+00:00", "fare": fare, "origin": "dispatched",
             "method": method, "server_total": fare, "meter_disagreement": False}
            for n, (fare, method) in enumerate(methods)]


def demo(tmp_path, clock):
    s = build_session(tmp_path / "app", demo=True, clock=clock)
    s.login.login("demo", "demo")
    s.after_login()
    return s


@pytest.mark.article("Art. 1, §3")
def test_each_ride_shows_its_payment_and_only_an_unpaid_ride_of_the_open_week_may_be_paid():
    week = {"week_start": "2026-03-02", "gross": "30.00", "fares": 2,
            "rides": lines(("10.00", "card"), ("20.00", "unrecorded"))}
    vm = SplitViewModel(FakeStatements(weeks=[week]))
    vm.load(TODAY, "auxiliar")
    assert [(r.payment, r.payable) for r in vm.rides] == [("Pagamento: cartão", False),
                                                          ("Pagamento: não informado", True)]
    week["closed"] = True  # the week's statement was closed: its rides are settled
    vm.load(TODAY, "auxiliar")
    assert [r.payable for r in vm.rides] == [False, False]


@pytest.mark.article("Art. 1, §3")
def test_a_permit_holder_driving_his_own_cab_sees_his_rides_marked_not_split():
    week = {"week_start": "2026-03-02", "gross": "20.00", "fares": 1, "rides": lines(("20.00", "unrecorded"))}
    vm = SplitViewModel(FakeStatements(weeks=[week], agreement={"kind": "own", "auxiliary_percent": "0"}))
    vm.load(TODAY, "permissionario")
    assert vm.this_week.fares == 1 and vm.my_part == "R$ 20,00"
    [line] = vm.rides
    assert line.payment == "Pagamento: não informado · sem partilha" and line.payable


@pytest.mark.article("Art. 1, §3", "Art. 43")
def test_a_missed_payment_is_recorded_from_the_list_and_the_partilha_follows(tmp_path, clock):
    s = demo(tmp_path, clock)
    statements = s.extras["statements"]
    week = next(w for w in statements.weeks if w["week_start"] == week_start(clock()).isoformat())
    week["rides"] = lines(("12.40", "unrecorded"))
    s.split.load(s.today(), s.cards.role)
    assert s.pay_ride(50) and s.payment.pending and s.payment.fare_text == "R$ 12,40" and s.payment.reopened
    s.payment.choose("card")
    assert s.extras["payments"].recorded == {50: {"method": "card", "card_machine": "driver"}}
    [line] = s.split.rides  # reloaded after the payment: no "não informado" left
    assert line.payment == "Pagamento: cartão" and not line.payable
    assert s.split.received_text.endswith("cartão R$ 12,40")
    assert not s.pay_ride(50) and not s.pay_ride(999)  # paid, unknown: nothing to reopen


@pytest.mark.article("Art. 1, §3")
def test_the_server_refuses_a_ride_its_closed_statement_counted(tmp_path, clock):
    s = demo(tmp_path, clock)
    week = next(w for w in s.extras["statements"].weeks if w["week_start"] == week_start(clock()).isoformat())
    week["rides"] = lines(("12.40", "unrecorded"))
    s.split.load(s.today(), s.cards.role)
    s.extras["payments"].closed_rides.add(50)
    s.pay_ride(50)
    s.payment.choose("cash")
    assert s.payment.message.startswith("Esta corrida já foi contada num extrato fechado")
    assert s.payment.queue == []


@pytest.mark.article("Art. 1, §3")
def test_a_trip_paid_by_card_at_its_end_shows_in_the_partilha_at_once(tmp_path, clock):
    s = demo(tmp_path, clock)
    s.flag.go_free()
    s.start_trip()
    for _ in range(60):
        clock.advance(1)
        s.gps.step()
    s.stop_trip()  # the demo's central records it and numbers it (street trip)
    s.meter.sync()
    s.payment.choose("card")
    [paid] = [r for r in s.split.rides if r.payment == "Pagamento: cartão"]
    assert paid.fare == s.meter.total_text and "cartão" in s.split.received_text


def test_http_statements_client_says_a_server_error_instead_of_an_empty_week(monkeypatch):
    """Only a 404 means "no permit driven this week"; the closed weeks are the logged-in person's own."""
    current = {"week_start": "2026-03-02", "statements": [
        {"week_start": "2026-03-02", "gross": "20.00", "rides": 1, "driver": 7, "agreement": "own",
         "auxiliary_percent": "0", "ride_lines": lines(("20.00", "unrecorded"))}]}
    closed = {"results": [
        {"week_start": "2026-02-23", "gross": "50.00", "rides": 2, "driver": 7, "agreement": "own"},
        {"week_start": "2026-02-23", "gross": "99.00", "rides": 5, "driver": 8, "agreement": "law"}]}
    status = {"current": 200}

    def fake_urlopen(req, timeout):
        if req.full_url.endswith("/current/"):
            if status["current"] != 200:
                raise urllib.error.HTTPError(req.full_url, status["current"], "x", {}, None)
            return HttpResponse(json.dumps(current).encode())
        return HttpResponse(json.dumps(closed).encode())

    monkeypatch.setattr(urllib.request, "urlopen", fake_urlopen)
    client = HttpStatementsClient(HttpRegistryClient("http://api"))
    data = client.weekly("tok")
    assert [(w["week_start"], w["gross"], w["fares"]) for w in data["weeks"]] == [
        ("2026-03-02", "20.00", 1), ("2026-02-23", "50.00", 2)]  # his auxiliary's statement is not his week
    assert data["agreement"]["kind"] == "own" and data["weeks"][0]["rides"][0]["ride"] == 50
    status["current"] = 500
    with pytest.raises(Exception) as failed:
        client.weekly("tok")
    assert not isinstance(failed.value, NetworkError) and str(failed.value) == "500"
