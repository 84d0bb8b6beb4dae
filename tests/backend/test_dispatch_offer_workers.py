"""Offers are made in a worker process beside the serving one; what it announces leaves from the serving process (Art. 66)."""

import asyncio
import os
import pickle
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


@pytest.fixture
def worker(settings, monkeypatch):
    settings.DISPATCH_OFFER_PROCESSES = 1
    posted = []
    monkeypatch.setattr(announcements, "post", lambda group, message: posted.append((group, message)))
    yield posted
    offer_workers._forget_workers()


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
    with pytest.raises(BrokenProcessPool):
        asyncio.run(offer_workers.run(die))
    assert asyncio.run(offer_workers.run(announce_twice, "g")) != os.getpid()


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
