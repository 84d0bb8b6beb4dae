from datetime import datetime, timedelta

import pytest

from taxilaw.flags import MURIAE_TZ
from driver_app.storage import JsonStore


class FakeClock:
    def __init__(self, start: datetime):
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock():
    # Wednesday 4 March 2026, 10:00 in Muriaé: a working day, Bandeira I
    return FakeClock(datetime(2026, 3, 4, 10, 0, tzinfo=MURIAE_TZ))


@pytest.fixture
def store(tmp_path):
    return JsonStore(tmp_path / "app")
