"""Offers are made in a worker process beside the serving one; what it announces leaves from the serving process (Art. 66)."""

import asyncio
import os
import pickle
import signal
import time
from concurrent.futures.process import BrokenProcessPool

import pytest

from dispatch import errors
from dispatch.events import announcements
from dispatch.rides import offer_workers


def announce_twice(group):
    """Runs in the worker: two announcements, as a committed ride and its offer make."""
    announcements.post(group, {"type": "offer", "n": 1})
    announcements.post(group, {"type": "ride_update", "n": 2})
    return os.getpid()


def refuse():
    raise errors.DispatchError("offer_gone", "Esta oferta não está mais disponível.")


def die():
    os._exit(3)


def streets_loaded():
    """Runs in the worker: whether the street index is already in memory."""
    from zones.gazetteer import default_gazetteer

    return default_gazetteer.cache_info().currsize


def divide(a, b):
    return a / b


def announce_later(group, seconds):
    """Runs in the worker: a commit that announces after its caller has gone away."""
    time.sleep(seconds)  # a duration, not a wait: the call must outlast its caller
    announcements.post(group, {"type": "ride_update", "n": 1})
    return os.getpid()


async def _until(condition, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)


@pytest.fixture
def worker(settings, monkeypatch):
    settings.DISPATCH_OFFER_PROCESSES = 1
    posted = []
    monkeypatch.setattr(announcements, "post", lambda group, message: posted.append((group, message)))
    yield posted
    offer_workers.stop()


@pytest.mark.article("Art. 66")
def test_the_worker_announces_through_the_serving_process_in_order(worker):
    pid = asyncio.run(offer_workers.run(announce_twice, "cab.7"))
    assert pid != os.getpid()
    assert worker == [("cab.7", {"type": "offer", "n": 1}), ("cab.7", {"type": "ride_update", "n": 2})]


@pytest.mark.article("Art. 66")
def test_a_refusal_in_the_worker_reaches_the_client_as_the_same_refusal(worker):
    with pytest.raises(errors.DispatchError) as refused:
        asyncio.run(offer_workers.run(refuse))
    assert (refused.value.code, refused.value.message) == ("offer_gone", "Esta oferta não está mais disponível.")
    assert worker == []


def test_a_dead_worker_is_replaced_at_the_next_call(worker):
    async def scenario():
        with pytest.raises(BrokenProcessPool):
            await offer_workers.run(die)
        return await offer_workers.run(announce_twice, "g")

    assert asyncio.run(scenario()) != os.getpid()


def test_a_worker_killed_while_idle_fails_no_call(worker):
    async def scenario():
        first = await offer_workers.run(os.getpid)
        os.kill(first, signal.SIGKILL)
        await _until(lambda: not offer_workers._pool.workers[0].process.is_alive())
        return first, await offer_workers.run(announce_twice, "cab.7")

    first, second = asyncio.run(scenario())
    assert second not in (first, os.getpid())
    assert worker == [("cab.7", {"type": "offer", "n": 1}), ("cab.7", {"type": "ride_update", "n": 2})]


@pytest.mark.article("Art. 66")
def test_a_call_whose_caller_went_away_still_announces_what_it_committed(worker):
    """A passenger who closes the page while the offer is being written: the cab still gets its offer."""

    async def scenario():
        await offer_workers.run(os.getpid)  # the worker loaded
        caller = asyncio.create_task(offer_workers.run(announce_later, "cab.7", 0.3))
        await _until(lambda: offer_workers._pool.idle.qsize() == 0)  # the worker has the call
        caller.cancel()
        await _until(lambda: worker)
        assert caller.cancelled()
        return await offer_workers.run(announce_twice, "cab.8")  # the worker is free again

    asyncio.run(scenario())
    assert worker == [("cab.7", {"type": "ride_update", "n": 1}),
                      ("cab.8", {"type": "offer", "n": 1}), ("cab.8", {"type": "ride_update", "n": 2})]


def test_an_unexpected_error_in_the_worker_carries_the_workers_traceback(worker):
    with pytest.raises(ZeroDivisionError) as raised:
        asyncio.run(offer_workers.run(divide, 1, 0))
    assert any("in the offering worker" in note and "divide" in note for note in raised.value.__notes__)


def test_dispatch_errors_survive_pickling():
    error = pickle.loads(pickle.dumps(errors.DispatchError("cab_busy", "Este táxi já tem uma corrida em andamento.")))
    assert (error.code, error.message) == ("cab_busy", "Este táxi já tem uma corrida em andamento.")


def test_a_refusal_of_the_law_core_survives_pickling_with_its_reasons_and_field():
    from backend.api_errors import LawViolation
    from taxilaw.decision import Decision, Reason

    refused = LawViolation(Decision.refuse(Reason("Art. 43", "meter_unreadable", "Taxímetro ilegível: {why}", {"why": "lacre"})),
                           field="meter_total")
    error = pickle.loads(pickle.dumps(refused))
    assert (error.detail, error.field, error.reasons) == (refused.detail, "meter_total", refused.reasons)
    assert error.payload() == refused.payload()


def test_a_worker_has_the_street_index_loaded_before_its_first_call(worker):
    """The first offer of a new worker names the pickup's street without loading the streets while its passenger
    waits (docs/dispatch-benchmark.md, "Cold workers")."""
    assert asyncio.run(offer_workers.run(streets_loaded)) == 1
