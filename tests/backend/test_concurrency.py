"""Two DIMUTRAN clerks granting a permit to the same person at once: exactly one wins (Art. 2, § único)."""

import threading
from datetime import date

import pytest
from django.db import connection, connections
from validate_docbr import CNH, CPF

from backend.api_errors import LawViolation
from backend.registry.models import Permit
from backend.registry.services import people, permits


@pytest.mark.django_db(transaction=True)
@pytest.mark.article("Art. 2, § único")
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs row locks across connections (PostgreSQL); CI runs it there")
def test_concurrent_grants_to_one_person_leave_exactly_one_permit():
    person = people.register_person(full_name="Concorrente", cpf=CPF().generate(), cnh=CNH().generate())
    barrier = threading.Barrier(6)
    outcomes = []

    def grant(n):
        try:
            barrier.wait()
            permits.grant_permit(person=person, number=f"TX-C{n}", result_published_on=date(2026, 3, 2), on=date(2026, 3, 3))
            outcomes.append("granted")
        except LawViolation as refusal:
            outcomes.append(refusal.reasons[0]["article"])
        finally:
            connections.close_all()

    threads = [threading.Thread(target=grant, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["Art. 2, § único"] * 5 + ["granted"]
    assert Permit.objects.filter(holder=person).count() == 1
