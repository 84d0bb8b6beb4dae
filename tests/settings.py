"""The test suite's settings: the development ones, asked for explicitly (the defaults are production's).

Subprocesses the tests start (Daphne, manage.py) inherit the variable.
"""

import os

os.environ.setdefault("DJANGO_DEBUG", "1")

from backend.settings import *  # noqa: E402, F403
