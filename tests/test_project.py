"""Project-level checks: the schema, the compose file, the generated law table, the demo data."""

import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.django_db
def test_openapi_schema_and_docs_are_served(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200 and b"/api/permits/" in schema.content
    assert client.get("/api/docs/").status_code == 200


def test_docker_compose_file_is_valid():
    compose = Path(sys.executable).parent / "docker-compose"
    result = subprocess.run([str(compose), "config", "-q"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    services = subprocess.run([str(compose), "config", "--services"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    assert {"postgres", "redis", "migrate", "web"} <= set(services)


def test_law_table_is_up_to_date():
    sys.path.insert(0, str(ROOT / "tools"))
    from law_table import render

    assert (ROOT / "docs" / "law-table.md").read_text(encoding="utf-8") == render(), "run `make law-table`"


@pytest.mark.django_db
@pytest.mark.article("Art. 41")
def test_demo_fleet_fits_the_cap_and_has_irregular_cabs():
    from django.utils import timezone

    from backend.parameters.selectors import current_parameters
    from backend.registry.compliance import may_work
    from backend.registry.models import Permit
    from taxilaw.contests import fleet_cap

    call_command("seed_demo", verbosity=0)
    call_command("seed_demo", verbosity=0)  # idempotent
    active = Permit.objects.filter(status="active").select_related("holder")
    assert 90 <= active.count() <= fleet_cap(current_parameters(), timezone.localdate())
    refused = {code for p in active for code in may_work(p.holder, p).codes}
    assert {"alvara_expired", "inspection_failed", "inspection_overdue", "permit_suspended", "vehicle_too_old"} <= refused


@pytest.mark.django_db
def test_messages_are_portuguese_by_default_and_english_on_request(client):
    portuguese = client.post("/api/passengers/", {"name": "x", "phone": "1"})
    english = client.post("/api/passengers/", {"name": "x", "phone": "1"}, HTTP_ACCEPT_LANGUAGE="en")
    assert portuguese.status_code == english.status_code == 400
    assert "Informe o telefone" in portuguese.json()["phone"][0]
    assert "Enter the phone number" in english.json()["phone"][0]
