"""``python -m driver_app [--api URL] [--demo] [--home DIR] [--trace FILE] [--night]``."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m driver_app", description="Táxi Muriaé – app do motorista")
    parser.add_argument("--api", default=os.environ.get("MURIAE_API", "http://127.0.0.1:8000"), help="base URL of the backend")
    parser.add_argument("--demo", action="store_true", help="fakes for every service and a replayed GPS trace")
    parser.add_argument("--home", default=None, help="app directory (token, meter state, sync queue)")
    parser.add_argument("--trace", default=None, help="JSON trace to replay instead of the demo loop")
    parser.add_argument("--night", action="store_true", help="start with the night theme")
    args = parser.parse_args(argv)
    os.environ.setdefault("KIVY_NO_ARGS", "1")  # Kivy must not parse our options

    from .gps import load_trace
    from .session import build_session, default_app_dir

    home = Path(args.home) if args.home else default_app_dir() / ("demo" if args.demo else "app")
    trace = load_trace(args.trace) if args.trace else None
    def on_ui_thread(fn):  # the dispatch socket's callbacks and the answers to finished trips run on Kivy's thread
        from kivy.clock import Clock

        Clock.schedule_once(lambda _dt: fn(), 0)

    from .sound import KivySound

    session = build_session(home, api=None if args.demo else args.api, demo=args.demo, trace=trace,
                            post=on_ui_thread, sound=KivySound())
    if args.demo and not session.login.logged_in:
        session.login.login("demo", "demo")

    from .quiet import quiet_kivy

    quiet_kivy()  # no CRITICAL about X11's cut buffer (driver_app/quiet.py)
    from .app import DriverApp

    app = DriverApp(session)
    if args.night:
        app.set_theme(True)
    app.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
