"""The test suite's settings: the development ones, asked for explicitly (the defaults are production's).

Subprocesses the tests start (Daphne, manage.py) inherit the variable.
"""

import os

os.environ.setdefault("DJANGO_DEBUG", "1")

from backend.settings import *  # noqa: E402, F403

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # The test database is a file (one per test process): an in-memory one shares its cache between connections,
    # where a lock held by the background tick's connection fails a consumer's at once ("table is locked")
    # instead of waiting for it.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}  # noqa: F405
