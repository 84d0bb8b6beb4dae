"""The test suite's settings: the development ones, asked for explicitly (the defaults are production's).

Subprocesses the tests start (Daphne, manage.py) inherit the variable.
"""

import os
from urllib.parse import urlparse, urlunparse

os.environ.setdefault("DJANGO_DEBUG", "1")
# With REDIS_URL the rate limits count in Redis: each test run (and the processes it starts) counts in its own
# namespace, so a run within the hour of another is not throttled by it.
os.environ.setdefault("CACHE_KEY_PREFIX", f"test-{os.getpid()}")


def _redis_db_of_this_worker(url: str, worker: str) -> str:
    """pytest-xdist worker ``gwN`` uses Redis database base + N: workers sharing one would hear each other's groups
    (operators, cabs). Set in the environment, so the Daphne processes a worker starts share its database."""
    parsed = urlparse(url)
    base = int(parsed.path.strip("/") or 0)
    return urlunparse(parsed._replace(path=f"/{base + int(worker.removeprefix('gw'))}"))


if os.environ.get("REDIS_URL") and os.environ.get("PYTEST_XDIST_WORKER"):
    # From the URL the run was given (kept aside): a subprocess loading these settings again gets the same database.
    given = os.environ.setdefault("MURIAE_TESTS_REDIS_URL", os.environ["REDIS_URL"])
    os.environ["REDIS_URL"] = _redis_db_of_this_worker(given, os.environ["PYTEST_XDIST_WORKER"])

from config.settings import *  # noqa: E402, F403

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # The test database is a file (one per test process): an in-memory one shares its cache between connections,
    # where a lock held by the background tick's connection fails a consumer's at once ("table is locked")
    # instead of waiting for it.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}  # noqa: F405
