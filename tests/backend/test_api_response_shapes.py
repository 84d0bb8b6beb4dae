"""The documented response shapes of the operations schemathesis found answering otherwise (issue 27: 38 cases in
5 operations): an auto without a defence or a decision (``null``), the infractor's record (an object), a rank's
titulars and observations (lists on GET), the public GeoJSON (``application/geo+json``).

The fuzz test (tests/backend/test_api_fuzz.py) rarely names an existing object with its few examples; here each
operation answers about real objects and schemathesis' ``response_schema_conformance`` checks the answer against
the OpenAPI schema, content type included.
"""

from datetime import timedelta

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from rest_framework.authtoken.models import Token
from schemathesis.checks import content_type_conformance, response_schema_conformance

from .enforcement_helpers import draw_up
from .ranks_helpers import at, make_rank
from .test_api_fuzz import wsgi_in_test_transaction  # noqa: F401 (fixture)

schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


@pytest.fixture
def world(dimutran, working_cab, today, django_user_model):
    permit = working_cab()
    auto = draw_up(dimutran, permit, ["seal_removed"], (today - timedelta(days=3)).isoformat(), delivered_on=False)
    rank = make_rank(dimutran, "Hospital")
    assert dimutran.post(f"/api/ranks/{rank['id']}/titulars/", {"permit": permit.pk, "since": today.isoformat()},
                         format="json").status_code == 201
    day = today - timedelta(days=2)
    assert dimutran.post(f"/api/ranks/{rank['id']}/observations/", {
        "start": at(day, 8).isoformat(), "end": at(day, 11).isoformat(), "empty": True}, format="json").status_code == 201
    staff = django_user_model.objects.get(username="fiscal")
    return {"auto": auto["id"], "person": permit.holder_id, "rank": rank["id"],
            "auth": f"Token {Token.objects.get_or_create(user=staff)[0].key}"}


@pytest.mark.parametrize("path,ids", [
    ("/api/autos/{id}/", {"id": "auto"}),
    ("/api/infractor-records/{person_id}/", {"person_id": "person"}),
    ("/api/ranks/{id}/titulars/", {"id": "rank"}),
    ("/api/ranks/{id}/observations/", {"id": "rank"}),
    ("/api/geo/ranks.geojson", {}),
    ("/api/geo/boundary.geojson", {}),
    ("/api/geo/central-zone.geojson", {}),
])
def test_the_answer_is_the_documented_shape(path, ids, world, wsgi_in_test_transaction):  # noqa: F811
    case = schema[path]["GET"].Case(path_parameters={name: world[key] for name, key in ids.items()})
    response = case.call(headers={"Authorization": world["auth"]})
    assert response.status_code == 200, response.text
    case.validate_response(response, checks=[response_schema_conformance, content_type_conformance])
