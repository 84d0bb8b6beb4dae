"""The database and the fleet of benchmarks/dispatch_bench.py (docs/dispatch-benchmark.md): a temporary database (or
a copy of a fleet built on an earlier run), the cabs and passengers with their tokens, the state reset between scenarios."""

from __future__ import annotations

import uuid
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parents[1]
CENTRE = (-21.131, -42.367)
SPREAD = 0.045  # cabs and pickups in a box of about +-5 km around the centre


# --- database and fleet ---------------------------------------------------------------------------


class Database:
    """A temporary database; with ``template``, a PostgreSQL copy of a fleet built on an earlier run when there is one."""

    def __init__(self, kind: str, pg_url: str, tmp: Path, template: str | None = None):
        self.kind, self.pg_url, self.template = kind, pg_url, template
        self.cloned = False
        if kind == "postgres":
            self.name = f"taxi_bench_{uuid.uuid4().hex[:8]}"
            self.cloned = bool(template) and self._admin("SELECT 1 FROM pg_database WHERE datname = %s", [template]) is not None
            self._admin(f'CREATE DATABASE "{self.name}"' + (f' TEMPLATE "{template}"' if self.cloned else ""))
            self.url = urlunparse(urlparse(pg_url)._replace(path="/" + self.name))
        else:
            self.name = None
            self.url = f"sqlite:///{tmp / 'bench.sqlite3'}"

    def _admin(self, sql, params=None):
        import psycopg

        with psycopg.connect(urlunparse(urlparse(self.pg_url)._replace(path="/postgres")), autocommit=True) as conn:
            cursor = conn.execute(sql, params)
            return cursor.fetchone() if cursor.description else None  # a row only for a statement that returns some

    def keep_as_template(self):
        """Copy the freshly built fleet for later runs (``--reuse-fleet``)."""
        if self.template and self.name and not self.cloned:
            from django.db import connections

            connections.close_all()
            self._admin(f'CREATE DATABASE "{self.template}" TEMPLATE "{self.name}"')

    def drop(self):
        if self.name:
            from django.db import connections

            connections.close_all()
            self._admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def fleet_template(n: int, passengers: int) -> str:
    """The template database's name: the fleet's size, the day it was built for, and a digest of the
    migrations and of ``build_fleet``, so a schema or fleet change never reuses an old copy."""
    import hashlib
    import inspect
    from datetime import datetime
    from zoneinfo import ZoneInfo

    digest = hashlib.sha1(inspect.getsource(build_fleet).encode())
    for path in sorted([*ROOT.glob("backend/**/migrations/0*.py"), *ROOT.glob("dispatch/migrations/0*.py")]):
        digest.update(path.read_bytes())
    return f"taxi_bench_fleet_{n}_{passengers}_{datetime.now(ZoneInfo('America/Sao_Paulo')):%Y%m%d}_{digest.hexdigest()[:10]}"


def fleet_tokens() -> tuple[list[str], list[str]]:
    """The tokens of a fleet copied from a template, in the order ``build_fleet`` made them."""
    from rest_framework.authtoken.models import Token

    from backend.trips.models import Passenger

    cabs = list(Token.objects.filter(user__username__startswith="bench").order_by("user_id").values_list("key", flat=True))
    return cabs, list(Passenger.objects.order_by("pk").values_list("token", flat=True))


def build_fleet(n: int, passengers: int, first: int = 0, part: tuple[int, int] = (0, 1)) -> tuple[list[str], list[str]]:
    """N compliant cabs (permit, term, vehicle, inspection, CMT, user, token), numbered from ``first``, and a pool of
    passengers. ``part`` (p, of parts): only document numbers equal to p modulo parts, so that parts built at once
    (dispatch_bench_scale.build_fleet_parallel) never make the same one."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone
    from rest_framework.authtoken.models import Token
    from validate_docbr import CNH, CPF, RENAVAM

    from backend.registry.models import Inspection
    from backend.registry.services import auxiliaries, people, permits, vehicles
    from backend.trips.models import Passenger
    from dispatch.rides.cabs import go_online
    from taxilaw.inspection_items import approved_vistoria

    User = get_user_model()
    today = timezone.localdate()
    signed = today - timedelta(days=30)
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    cpfs, cnhs, renavams = set(), set(), set()

    def unique(gen, seen):
        while True:
            v = gen.generate()
            if v not in seen and int(v) % part[1] == part[0]:
                seen.add(v)
                return v

    tokens = []
    cpf, cnh, renavam = CPF(), CNH(), RENAVAM()
    for start in range(first, first + n, 250):
        with transaction.atomic():
            for i in range(start, min(first + n, start + 250)):
                user = User.objects.create(username=f"bench{i}")
                person = people.register_person(full_name=f"Motorista {i}", cpf=unique(cpf, cpfs), cnh=unique(cnh, cnhs), user=user)
                permit = permits.grant_permit(person=person, number=f"B-{i:05d}", result_published_on=signed, on=signed)
                permits.sign_term(permit=permit, signed_on=signed)
                plate = f"R{letters[i // 2600 % 26]}{letters[i // 100 % 26]}{i % 10}{letters[i // 10 % 26]}{i * 7 % 100:02d}"
                vehicle = vehicles.register_vehicle(
                    permit=permit, on=signed, plate=plate, renavam=unique(renavam, renavams), make="Fiat", model="Cronos",
                    model_year=today.year, manufacture_year=today.year, colour="branco")
                vehicles.record_inspection(vehicle=vehicle, inspected_on=signed, result=Inspection.Result.PASSED, seal_number=f"S{i}", **approved_vistoria())
                auxiliaries.issue_cmt(person=person, number=f"CMT-B{i}", issued_on=signed, expires_on=signed + timedelta(days=900))
                tokens.append(Token.objects.create(user=user).key)
                go_online(person)  # the cab row, with the registry's facts kept on it: a copied fleet connects fast
        print(f"  fleet: {len(tokens)}/{n}", end="\r", flush=True)
    print()
    pax = [Passenger.objects.create(name=f"Passageiro {i}", phone=f"3298{i:07d}").token for i in range(passengers)]
    return tokens, pax


SUSPENSION_REASON = "benchmark: suspended while its server restarts"


def suspend_permits_of(keys: list[str]) -> None:
    """DIMUTRAN suspends the permits of these drivers' tokens (Art. 54, b), through the registry's service."""
    from datetime import timedelta

    from django.utils import timezone

    from backend.registry.models import Permit
    from backend.registry.services import permits

    today = timezone.localdate()
    for permit in Permit.objects.filter(holder__user__auth_token__key__in=keys):
        permits.suspend(permit=permit, starts_on=today, ends_on=today + timedelta(days=5), reason=SUSPENSION_REASON)


def analyze() -> None:
    """The planner's statistics of a fleet just built, as autovacuum would gather them on a database in service:
    without them PostgreSQL scanned every user to check a token (a copied template keeps them)."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def reset_dispatch_state():
    from backend.ranks.models import RankCheckIn
    from backend.registry.models import Suspension
    from backend.trips.models import Ride
    from dispatch.models import Cab, Offer

    Suspension.objects.filter(reason=SUSPENSION_REASON).delete()  # a restart's suspensions end with its scenario
    RankCheckIn.objects.all().delete()
    Offer.objects.all().delete()
    Ride.objects.all().delete()
    Cab.objects.all().update(online=False, status="fora_de_servico", lat=None, lon=None, cell="", position_at=None)
