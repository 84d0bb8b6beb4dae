"""Render every screen of the demo and save PNGs plus a manifest of what is visible.

``python -m driver_app.screenshots OUT_DIR`` (needs a display: Xvfb or a real
one).  The script drives a deterministic demo -- a fixed clock, the replayed
trace around Muriaé's centre, the in-memory fakes -- and writes
``OUT_DIR/<shot>.png`` and ``OUT_DIR/manifest.json`` with, per shot, the
texts of the visible labels and the pixel at the centre of the flag box.
Used by tests/driver_app/test_screenshots.py in a subprocess.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_METRICS_DENSITY", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

WIDTH, HEIGHT = 480, 900


# Complexity kept: a linear script taking one screenshot per screen; splitting it would only move the list.
def main(out_dir: str) -> int:  # noqa: C901
    from kivy.config import Config

    Config.set("graphics", "width", str(WIDTH))
    Config.set("graphics", "height", str(HEIGHT))
    Config.set("graphics", "resizable", "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")

    from kivy.clock import Clock
    from kivy.metrics import dp
    from kivy.uix.button import Button
    from kivy.uix.label import Label

    from taxilaw.flags import MURIAE_TZ
    from taxiwire import outbound

    from .quiet import quiet_kivy

    quiet_kivy()
    from .app import DriverApp
    from .clients import FakeClock
    from .screenshots_extra import steps as extra_steps
    from .session import build_session, demo_offer
    from .sound import KivySound

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    # Wednesday 4 March 2026, 21:50 in Muriaé: Bandeira I now, Bandeira II from 22:00 (Art. 45, I-II)
    clock = FakeClock(datetime(2026, 3, 4, 21, 50, tzinfo=MURIAE_TZ))
    home = Path(tempfile.mkdtemp(prefix="driver-shots-"))
    sound = KivySound(vibrate=None)  # the bundled WAV through SoundLoader (silent where Xvfb has no sound card)
    session = build_session(home, demo=True, clock=clock, sound=sound)
    app = DriverApp(session, tick_s=0)
    manifest: dict = {}

    def shown(w) -> bool:
        root = app.root
        while w is not None:
            if w.opacity <= 0:
                return False
            if w is root:
                return True
            w = w.parent
        return False

    def visible_texts(widget) -> list[str]:
        texts = []
        for w in widget.walk(restrict=True):
            if isinstance(w, Label) and w.text and shown(w):
                texts.append(w.text)
        return texts

    def shot(name: str) -> None:
        root = app.root
        screen = app.sm.current_screen
        path = out / f"{name}.png"
        root.export_to_png(str(path))
        texts = visible_texts(screen) + visible_texts(root.ids.nav)
        entry = {"png": path.name, "screen": screen.name, "texts": texts,
                 "night": bool(app.night), "size": [int(root.width), int(root.height)]}
        buttons = {}
        for w in screen.walk(restrict=True):
            if isinstance(w, Button) and w.text and shown(w):
                bx, by = w.to_window(w.x + dp(6), w.center_y)
                buttons[w.text] = [int(bx), int(root.height - by)]
        entry["buttons"] = buttons
        entry["disabled"] = [w.text for w in screen.walk(restrict=True)
                             if isinstance(w, Button) and w.text and shown(w) and w.disabled]
        box = screen.ids.get("flag_box")
        if box is not None:
            cx, cy = box.to_window(box.center_x, box.y + box.height * 0.15)
            entry["flag_pixel"] = [int(cx), int(root.height - cy)]
            entry["flag_label"] = box.text
            entry["display_state"] = (session.meter.flag_state if screen.name == "meter"
                                      else session.flag.display_state)
        manifest[name] = entry

    class HeldCalls(list):
        """Keeps the network calls until the script lets them run: the screens' waiting states."""

        def submit(self, fn):
            self.append(fn)

    def script():
        yield
        shot("login")
        form = app.sm.get_screen("login").ids
        form.username.text, form.password.text = "demo", "demo"
        registry = session.extras["registry"]
        registry.online = False
        app.do_login("demo", "demo")
        yield
        shot("login_offline")
        registry.online = True
        inline, session.background.executor = session.background.executor, HeldCalls()
        app.do_login("demo", "demo")  # the driver tries again
        yield
        shot("login_busy")
        held, session.background.executor = session.background.executor, inline
        for call in held:
            call()  # the token: logged in, the cards
        yield
        shot("cards")
        app.toggle_full_screen()
        yield
        shot("cards_fullscreen")
        app.toggle_full_screen()
        registry.online = False
        clock.advance(60)
        app.cards_reload()  # offline: the copy saved at the login
        yield
        shot("cards_offline")
        registry.online = True
        app.cards_reload()
        app.go("flag")
        yield
        shot("flag_fora_de_servico")
        app.flag_free()
        yield
        shot("flag_livre")
        statements = session.extras["statements"]
        this_week = [w for w in statements.weeks if w["week_start"] == "2026-03-02"]
        saved = list(statements.weeks)
        statements.weeks[:] = [w for w in statements.weeks if w not in this_week]  # no ride this week yet
        app.go("split")
        session.split.load(session.today(), session.cards.role)
        yield
        shot("split_empty")
        statements.weeks[:] = saved
        session.tick()  # free: the GPS starts
        session.tick()  # its first fix: the rank screen asks for the ranks around it
        app.go("ranks")
        yield
        shot("ranks_visitor_refused")
        app.rank_check_in(4)
        session.dispatch.push(outbound.RANK_CHECKED_IN(rank_id=4, rank="Praça João Pinheiro", queue_position=2,
                                                       visitor=False))
        session.extras["ranks"].answer["checked_in"] = {"rank_id": 4, "rank": "Praça João Pinheiro",
                                                        "queue_position": 2, "visitor": False}
        session.ranks.load()
        session.dispatch.push(demo_offer(clock, seconds=20, offer_id=7, ride_id=3))
        clock.advance(5)
        app.refresh()  # the offer takes over the rank screen
        yield
        shot("offer")
        manifest["offer"]["took_over"] = session.navigator.before_offer
        app.offer_accept()  # -> a caminho, the ride screen
        session.dispatch.push(outbound.OFFER_ACCEPTED(ride_id=3))
        app.refresh()
        yield
        shot("ride_accepted")
        app.go("flag")
        yield
        shot("flag_a_caminho")
        app.go("ride")
        app.ride_action("arriving")
        session.dispatch.push(outbound.RIDE_UPDATED(ride={
            "id": 3, "status": "arriving", "no_show_at": (clock() + timedelta(minutes=5)).isoformat()}))
        clock.advance(90)
        app.ride_action("cancel")  # the list of reasons; the no-show waits for the central's time
        yield
        shot("ride_cancel_reasons")
        app.ride_action("back")
        session.extras["trips"].online = False  # the trip will wait in the queue
        clock.advance(30)
        app.go("ride")
        app.ride_action("on_board")  # the meter starts for the ride, 21:52:05
        for _ in range(240):
            clock.advance(1)
            session.gps.step()
        app.refresh()
        yield
        shot("meter_bandeira_1")
        app.go("flag")
        yield
        shot("flag_bandeira_1")
        for _ in range(400):  # past 22:00 -> Bandeira II (22:00–06:00)
            clock.advance(1)
            session.gps.step()
        app.set_theme(True)
        app.go("meter")
        yield
        shot("meter_bandeira_2_night")
        app.go("flag")
        yield
        shot("flag_bandeira_2_night")
        clock.advance(10)
        app.go("meter")
        app.meter_toggle()  # stop: offline, so queued; the payment screen opens
        app.go("meter")
        yield
        shot("meter_ended_offline_night")
        app.set_theme(False)
        app.go("payment")
        app.pay("pix")  # the payment screen opened when the trip ended: the passenger pays by Pix
        yield
        shot("payment_pix")
        manifest["payment_pix"]["copia_e_cola"] = app.sm.current_screen.ids.payload.text.replace("\n", "")
        manifest["payment_pix"]["pix"] = session.payment.pix_payload
        app.payment_done()
        week = next(w for w in statements.weeks if w["week_start"] == "2026-03-02")
        week["rides"] = [  # the server's lines for the week so far, one with a meter disagreement (Art. 43)
            {"completed_at": "2026-03-02T14:20:00-03:00", "fare": "18.80", "origin": "dispatched",
             "server_total": "18.80", "meter_disagreement": False},
            {"completed_at": "2026-03-03T09:05:00-03:00", "fare": "12.40", "origin": "rank",
             "server_total": "12.40", "meter_disagreement": False},
            {"completed_at": "2026-03-04T19:41:00-03:00", "fare": "23.10", "origin": "street",
             "server_total": "25.70", "meter_disagreement": True}] + week.get("rides", [])
        week["auxiliary_part"], week["holder_part"] = "103.15", "309.45"  # the server's statement of the week
        app.go("split")
        session.split.load(session.today(), session.cards.role)
        yield
        shot("split")
        yield from extra_steps(app, session, shot, manifest)
        manifest["_sound"] = {"requests": sound.requests, "played": sound.played, "loaded": sound.loaded}
        manifest["_state"] = {"queue": len(session.meter.queue), "fare": session.meter.total_text,
                              "sent": session.dispatch.sent}
        (out / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=1), encoding="utf-8")

    steps = script()

    def run(_dt):
        try:
            next(steps)
        except StopIteration:
            app.stop()
            return False
        except BaseException:
            import traceback

            text = traceback.format_exc()
            (out / "error.txt").write_text(text, encoding="utf-8")
            sys.__stderr__.write(text)
            sys.__stderr__.flush()
            os._exit(3)
        return True

    def on_start():
        Clock.schedule_interval(run, 0.2)

    app.on_start = on_start
    app.run()
    return 0 if (out / "manifest.json").exists() else 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "test-artifacts/driver_app"))
