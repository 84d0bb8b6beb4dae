"""Project-level checks: the schema, the compose file, the generated law table, the demo data."""

import json
import os
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


def _compose(*args, secret: str | None = "a-long-random-secret"):
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SECRET_KEY"}
    if secret:
        env["DJANGO_SECRET_KEY"] = secret
    compose = Path(sys.executable).parent / "docker-compose"
    return subprocess.run([str(compose), *args], cwd=ROOT, capture_output=True, text=True, env=env)


def test_the_image_holds_every_package_the_platform_imports():
    """No Docker engine here to build it: the Dockerfile copies each root package of the import contract (the
    image starts ``config.asgi``, whose settings import every app)."""
    import tomllib

    roots = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["root_packages"]
    copied = {line.split()[1] for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("COPY ")}
    assert set(roots) <= copied


def test_docker_compose_file_is_valid():
    result = _compose("config", "-q")
    assert result.returncode == 0 and not result.stderr, result.stderr
    services = _compose("config", "--services").stdout.split()
    assert {"postgres", "redis", "migrate", "web", "scheduler"} <= set(services)


def test_production_compose_needs_a_secret_and_seeds_nothing():
    refused = _compose("config", "-q", secret=None)
    assert "required variable DJANGO_SECRET_KEY is missing" in refused.stderr
    config = services_of(_compose("config", "--format", "json").stdout)
    assert "demo-seed" not in config  # demo data only with the profile
    assert not any("seed_demo" in " ".join(service.get("command") or []) for service in config.values())
    assert config["web"]["environment"]["DJANGO_DEBUG"] == "0"
    demo = services_of(_compose("--profile", "demo", "config", "--format", "json").stdout)
    assert demo["demo-seed"]["command"] == ["python", "manage.py", "seed_demo"]


def test_compose_checks_the_health_of_the_web_replicas_and_the_scheduler():
    config = services_of(_compose("config", "--format", "json").stdout)
    web, scheduler = config["web"]["healthcheck"], config["scheduler"]["healthcheck"]
    assert "http://127.0.0.1:8000/readyz" in " ".join(web["test"])  # tests/e2e/test_operations.py runs this command
    assert scheduler["test"][-4:] == ["scheduler", "--check", "--interval", "30"]
    assert config["web"]["environment"]["LOG_FORMAT"] == "json"


def services_of(text: str) -> dict:
    return json.loads(text)["services"]


def test_settings_default_to_production():
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    refused = subprocess.run([sys.executable, "-c", "import django; django.setup()"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert refused.returncode != 0 and "DJANGO_SECRET_KEY must be set" in refused.stderr
    probe = "import django; django.setup(); from django.conf import settings as s; print(s.DEBUG, s.SESSION_COOKIE_SECURE, s.SECURE_HSTS_SECONDS)"
    env["DJANGO_SECRET_KEY"] = "x" * 50
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "True", "31536000"]


def test_law_table_is_up_to_date():
    sys.path.insert(0, str(ROOT / "tools"))
    from law_table import render

    assert (ROOT / "docs" / "law-table.md").read_text(encoding="utf-8") == render(), "run `make law-table`"


def test_law_table_expands_ranges_and_separates_rules_from_their_callers():
    sys.path.insert(0, str(ROOT / "tools"))
    from law_table import citations, render

    assert citations("Art. 20, I, a-e") == {f"Art. 20, I, {x}" for x in "abcde"}
    assert citations("Art. 21, I-III e Art. 28, § único") == {"Art. 21, I", "Art. 21, II", "Art. 21, III", "Art. 28, § único"}
    row = next(line for line in render().splitlines() if line.startswith("| Art. 62 |"))
    _article, rule, applied, _tests = (cell.strip() for cell in row.strip("|").split("|"))
    assert "taxilaw.due_process.may_deliver_copy" in rule and "backend." not in rule
    assert "backend.enforcement.services.autos.deliver_copy" in applied and "taxilaw." not in applied


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
@pytest.mark.article("Art. 22, I")
@pytest.mark.article("Art. 27, §3")
def test_demo_creates_muriaes_ranks_with_their_titulars():
    from backend.ranks.models import Rank, RankAssignment

    call_command("seed_demo", verbosity=0)
    ranks = {r.name: r for r in Rank.objects.filter(active=True)}
    assert {"Praça Cel. Pacheco de Medeiros", "Rodoviária de Muriaé", "Hospital São Paulo", "Praça João Pinheiro"} <= set(ranks)
    assert ranks["Hospital São Paulo"].category == "livre"
    titulars = RankAssignment.objects.filter(rank=ranks["Praça Cel. Pacheco de Medeiros"], ended_on__isnull=True)
    assert set(titulars.values_list("permit__number", flat=True)) == {f"TX-{n:03d}" for n in range(1, 7)}


@pytest.mark.django_db
def test_messages_are_portuguese_by_default_and_english_on_request(client):
    portuguese = client.post("/api/passengers/", {"name": "x", "phone": "1"})
    english = client.post("/api/passengers/", {"name": "x", "phone": "1"}, HTTP_ACCEPT_LANGUAGE="en")
    assert portuguese.status_code == english.status_code == 400
    assert "Informe o telefone" in portuguese.json()["phone"][0]
    assert "Enter the phone number" in english.json()["phone"][0]


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §5", "Art. 40", "Art. 47, §2", "Art. 54, b")
def test_the_demo_data_stand_the_schedulers_first_run():
    from django.utils import timezone

    from backend.notices.models import Notice
    from backend.registry.models import Auxiliary, Inspection, Permit, RevocationInquiry, Suspension
    from backend.scheduler.jobs import run_due

    call_command("seed_demo", verbosity=0)
    assert Suspension.objects.get().permit.autos.get().status == "decided"  # through the auto, not written by hand
    assert Auxiliary.objects.filter(status="cancelled").count() == 1  # TX-096's, by the law's own sweep
    assert not Inspection.objects.filter(fee_paid_on__isnull=True).exists()  # Art. 40: every vistoria's fee paid

    def state():
        return (list(Permit.objects.order_by("pk").values_list("status", flat=True)),
                Auxiliary.objects.filter(status="active").count(), RevocationInquiry.objects.count(), Notice.objects.count())

    before = state()
    runs = run_due(timezone.now().replace(hour=23, minute=59))  # every job of the day is due
    assert {r.job for r in runs} >= {"registry_sweep", "inspection_fees", "rank_attendance", "taximeter_aferition"}
    assert state() == before  # no permit lapsed, no auxiliary cancelled, no inquiry opened, no fee or aferição charged
