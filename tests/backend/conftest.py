"""Fixtures for the registry: people with valid documents, API clients for each role."""

import threading
from datetime import timedelta
from itertools import count

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient
from validate_docbr import CNH, CPF, RENAVAM

from backend.registry.models import Inspection
from backend.registry.services import auxiliaries, people, permits, taximeters, vehicles
from dispatch.rides import offer_workers
from dispatch.transport import background_tick, connection_batches
from taxilaw.inspection_items import approved_vistoria

_serial = count(1)


def _drain(executor, timeout: float = 20.0) -> None:
    """Wait until every thread of ``executor`` has finished what it was given: one barrier task per thread."""
    workers = executor._max_workers
    barrier = threading.Barrier(workers + 1, timeout=timeout)
    for _ in range(workers):
        executor.submit(barrier.wait)
    try:
        barrier.wait()
    except threading.BrokenBarrierError:
        pass  # still busy after the timeout: the database teardown reports what it meets


@pytest.fixture(autouse=True)
def _dispatch_threads_done():
    """Dispatch's own threads (the tick, the connections' batches, the offers) finish their database work before the
    test's database is flushed: a batch still in its transaction deadlocked a transactional test's TRUNCATE."""
    yield
    for executor in (background_tick._worker, connection_batches._threads, offer_workers._threads):
        _drain(executor)


@pytest.fixture
def today():
    from django.utils import timezone

    return timezone.localdate()


@pytest.fixture
def make_person(db):
    def make(user=None, **extra):
        n = next(_serial)
        return people.register_person(full_name=f"Motorista {n}", cpf=CPF().generate(), cnh=CNH().generate(), user=user, **extra)

    return make


def vehicle_data(model_year, **extra):
    n = next(_serial)
    data = dict(
        plate=f"RQA{n % 10}{chr(65 + n // 1000 % 26)}{n // 10 % 100:02d}", renavam=RENAVAM().generate(), make="Fiat", model="Cronos",
        model_year=model_year, manufacture_year=model_year, colour="branco",
    )
    data.update(extra)
    return data


@pytest.fixture
def working_cab(make_person, today):
    """An active permit with its alvará, a passed inspection, a taxi and the holder's CMT."""

    def make(holder=None, number=None, signed_on=None):
        holder = holder or make_person()
        signed_on = signed_on or today - timedelta(days=30)
        permit = permits.grant_permit(
            person=holder, number=number or f"TX-{next(_serial):04d}", result_published_on=signed_on - timedelta(days=5), on=signed_on
        )
        permits.sign_term(permit=permit, signed_on=signed_on)
        vehicle = vehicles.register_vehicle(permit=permit, on=signed_on, **vehicle_data(today.year - 1))
        vehicles.record_inspection(vehicle=vehicle, inspected_on=signed_on, result=Inspection.Result.PASSED, seal_number="S-1", **approved_vistoria())
        taximeters.equip_afered(vehicle, installed_on=signed_on, serial=f"TM-{vehicle.pk}")
        auxiliaries.issue_cmt(person=holder, number=f"CMT-{next(_serial)}", issued_on=signed_on, expires_on=signed_on + timedelta(days=1000))
        permit.refresh_from_db()
        return permit

    return make


def _client(user=None):
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def dimutran(db):
    user = get_user_model().objects.create_user("fiscal", password="x", is_staff=True)
    return _client(user)


@pytest.fixture
def user_for(db):
    def make(person):
        user = get_user_model().objects.create_user(f"u{person.pk}", password="x")
        person.user = user
        person.save(update_fields=["user"])
        return _client(user)

    return make


@pytest.fixture
def anonymous():
    return _client()
