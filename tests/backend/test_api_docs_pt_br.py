"""The OpenAPI document in pt-BR for those who integrate with the municipality (backend.api.docs_pt_br): every operation
has a pt-BR summary and every tag a pt-BR description."""

import re

import pytest
from drf_spectacular.generators import SchemaGenerator

pytestmark = pytest.mark.django_db
# Words an English summary would have and a Portuguese one would not.
ENGLISH = re.compile(r"\b(the|of|and|a list|list|create|retrieve|update|delete|destroy|get|set|for|with|by)\b", re.I)
PORTUGUESE = re.compile(r"[ãõçáéíóúâêô]|\b(o|a|os|as|de|da|do|um|uma|e|em)\b", re.I)


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    with django_db_blocker.unblock():
        return SchemaGenerator().get_schema(request=None, public=True)


def _operations(schema):
    for path, item in schema["paths"].items():
        for method in ("get", "post", "put", "patch", "delete"):
            if method in item:
                yield f"{method.upper()} {path}", item[method]


def test_every_operation_has_a_portuguese_summary(schema):
    operations = dict(_operations(schema))
    assert len(operations) > 150
    missing = [name for name, op in operations.items() if not op.get("summary")]
    english = [f"{name}: {op['summary']}" for name, op in operations.items()
               if op.get("summary") and (ENGLISH.search(op["summary"]) or not PORTUGUESE.search(op["summary"]))]
    assert not missing and not english, {"missing": missing, "English": english}


def test_every_tag_used_has_a_portuguese_description(schema):
    described = {t["name"]: t["description"] for t in schema.get("tags", [])}
    used = {tag for _, op in _operations(schema) for tag in op.get("tags", [])}
    assert used <= set(described), used - set(described)
    english = {name: text for name, text in described.items() if ENGLISH.search(text)}
    assert not english, english


def test_the_docs_page_answers(client):
    assert client.get("/api/docs/").status_code == 200
