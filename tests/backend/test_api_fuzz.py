"""schemathesis over the whole REST API (issue 14): with a staff, a driver and a passenger token, every
operation answers generated (valid and invalid) input without a server error, in the documented shape.

Bounded and deterministic: a few derandomized examples per operation and role (generation only: the
explicit phase would add schemathesis' coverage sweep, hundreds of cases), no example database.
"""

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error, response_schema_conformance

from backend.trips.models import Passenger

EXAMPLES = 2


@pytest.fixture
def wsgi_in_test_transaction(db):
    """The WSGI handler would close the test's connection after every request (Django's test client avoids it too)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def tokens(working_cab, make_person, django_user_model):
    staff = django_user_model.objects.create_user("fiscal", password="x", is_staff=True)
    holder = django_user_model.objects.create_user("permissionario", password="x")
    working_cab(holder=make_person(user=holder))
    passenger = Passenger.objects.create(name="Ana", phone="32999991234")
    return {
        "staff": f"Token {Token.objects.create(user=staff).key}",
        "driver": f"Token {Token.objects.create(user=holder).key}",
        "passenger": f"Passenger {passenger.token}",
    }


schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


@schema.parametrize()
@settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
          phases=[Phase.generate], suppress_health_check=list(HealthCheck))  # no explicit phase: no coverage sweep
def test_no_server_error_and_documented_responses(case, tokens, wsgi_in_test_transaction):
    for role in ("staff", "driver", "passenger"):
        case.call_and_validate(headers={"Authorization": tokens[role]}, checks=[not_a_server_error, response_schema_conformance])
