"""The wiring of the view-models (no window): demo session, restart mid-trip."""

from decimal import Decimal

from driver_app.session import build_session, demo_offer


def test_demo_session_end_to_end(tmp_path, clock):
    s = build_session(tmp_path / "app", demo=True, clock=clock)
    assert not s.login.logged_in
    s.login.login("demo", "demo")
    assert s.login.logged_in
    s.after_login()
    assert s.cards.plate == "GXY-4B21"
    assert s.cards.warning_texts == ["CMT vence em 16 dias (20/03/2026)"]
    assert s.dispatch.token == "tok-demo"
    assert s.split.this_week.gross == "R$ 412,60"
    assert s.flag.go_free()
    s.dispatch.push(demo_offer(clock))
    assert s.offer.accept() and s.flag.label == "A caminho"
    s.start_trip()
    for _ in range(100):
        clock.advance(1)
        s.gps.step()
    assert s.flag.label == "Bandeira I" and s.meter.running
    fare = s.meter.last.total
    s.stop_trip()
    assert s.flag.label == "Livre"
    assert s.extras["trips"].uploaded[0]["total"] == str(s.meter.last.total)
    # the fake statements received the fare: this week's gross grew
    assert s.split.this_week.split.gross == Decimal("412.60") + fare
    assert s.split.this_week.fares == 20


def test_restart_mid_trip_resumes_on_the_meter(tmp_path, clock):
    s = build_session(tmp_path / "app", demo=True, clock=clock)
    s.login.login("demo", "demo")
    s.after_login()
    s.flag.go_free()
    s.start_trip()
    for _ in range(60):
        clock.advance(1)
        s.gps.step()
    s.meter.save()  # on_pause / on_stop
    total = s.meter.total_text
    s2 = build_session(tmp_path / "app", demo=True, clock=clock)
    assert s2.login.logged_in  # token kept on the device
    s2.after_login()
    assert s2.meter.running and s2.meter.total_text == total
    assert s2.flag.label == "Bandeira I"
