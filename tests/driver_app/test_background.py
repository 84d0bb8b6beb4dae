"""Network calls and GPS callbacks reach the view-models only on the UI thread."""

import threading

from driver_app.background import Background
from driver_app.gps import PlyerGps

from .test_ranks import UiPosts


def test_a_call_runs_on_a_worker_and_its_result_waits_for_the_ui_thread():
    ui, seen = UiPosts(), []
    background = Background(ui)  # the real pool
    started = threading.Event()

    def call():
        started.set()
        return threading.current_thread().name

    background.run(call, lambda name: seen.append(("done", name, threading.current_thread().name)), seen.append)
    background.executor.shutdown(wait=True)
    assert started.is_set() and seen == []  # nothing applied off the UI thread
    ui.drain()
    assert seen == [("done", seen[0][1], threading.current_thread().name)] and seen[0][1].startswith("net")


def test_a_failure_is_handed_to_the_ui_thread_too():
    ui, errors = UiPosts(), []
    background = Background(ui)
    background.run(lambda: 1 / 0, lambda _r: None, errors.append)
    background.executor.shutdown(wait=True)
    assert errors == []
    ui.drain()
    assert isinstance(errors[0], ZeroDivisionError)


def test_the_phones_gps_callback_is_posted_to_the_ui_thread(clock):
    ui, fixes = UiPosts(), []
    gps = PlyerGps(clock, post=ui)
    gps.on_fix = fixes.append  # as start() sets it (start itself needs plyer)
    gps._on_location(lat=-21.13, lon=-42.36, accuracy=6.0)  # what plyer calls, on Android's thread
    assert fixes == [] and len(ui) == 1
    ui.drain()
    assert (fixes[0].lat, fixes[0].lon, fixes[0].accuracy_m) == (-21.13, -42.36, 6.0)
