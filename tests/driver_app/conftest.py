import io
from datetime import datetime

import pytest

from driver_app.clients import FakeClock
from driver_app.storage import JsonStore
from taxilaw.flags import MURIAE_TZ


class HttpResponse(io.BytesIO):
    """What a faked ``urllib.request.urlopen`` returns: a body usable in a ``with``."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@pytest.fixture
def clock():
    # Wednesday 4 March 2026, 10:00 in Muriaé: a working day, Bandeira I
    return FakeClock(datetime(2026, 3, 4, 10, 0, tzinfo=MURIAE_TZ))


@pytest.fixture
def store(tmp_path):
    return JsonStore(tmp_path / "app")
