"""Two Daphne processes on Redis count one client's login attempts together: the rate is the city's, not each
process's (issue 14: guessing is bounded however many processes serve)."""

import os
import urllib.error
import urllib.request

import pytest

from .conftest import Platform

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="several processes share counts only through Redis; CI's second run has it"),
]
RATE = 4


@pytest.fixture
def two_processes(tmp_path):
    p = Platform(tmp_path)
    p.env.update(LOGIN_RATE=f"{RATE}/min", AXES_FAILURE_LIMIT="100")  # the throttle, not the lockout, answers
    try:
        p.prepare()
        p.start(2)
        yield p
    finally:
        p.stop()


def _login(port: int, n: int) -> int:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/auth/token/", method="POST",
                                     data=f'{{"username": "ninguem{n}", "password": "errada"}}'.encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as refused:
        return refused.code


def test_login_attempts_through_two_processes_share_one_rate(two_processes):
    first, second = two_processes.ports
    statuses = [_login(first if n % 2 == 0 else second, n) for n in range(RATE + 2)]
    assert all(s in (400, 401) for s in statuses[:RATE]), statuses  # wrong passwords, answered
    assert statuses[RATE:] == [429, 429], statuses  # each process alone would still allow these
