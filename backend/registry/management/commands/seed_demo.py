"""Create a plausible Muriaé fleet for demos (idempotent): run by `make run`."""

import random
from datetime import date, timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone
from validate_docbr import CNH, CPF, RENAVAM

from backend.parameters.selectors import current_parameters
from backend.ranks.demo import MURIAE_RANKS
from backend.ranks.services import assign_rank, create_rank
from taxilaw.calendar import quarter_end

from ...models import Inspection, Permit, SocialSecurityProof, Suspension, Vehicle
from ...services import auxiliaries, people, permits, taximeters, vehicles

FIRST = ["José", "João", "Antônio", "Francisco", "Carlos", "Paulo", "Pedro", "Lucas", "Luiz", "Marcos",
         "Luís", "Gabriel", "Rafael", "Daniel", "Marcelo", "Bruno", "Eduardo", "Felipe", "Raimundo", "Rodrigo",
         "Maria", "Ana", "Francisca", "Antônia", "Adriana", "Juliana", "Márcia", "Fernanda", "Patrícia", "Aline"]
LAST = ["Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira", "Lima", "Gomes",
        "Costa", "Ribeiro", "Martins", "Carvalho", "Almeida", "Lopes", "Soares", "Fernandes", "Vieira", "Barbosa",
        "Rocha", "Dias", "Nascimento", "Andrade", "Moreira", "Nunes", "Marques", "Machado", "Mendes", "Freitas"]
CARS = [("Chevrolet", "Spin"), ("Fiat", "Cronos"), ("Volkswagen", "Virtus"), ("Toyota", "Corolla"),
        ("Chevrolet", "Onix Plus"), ("Renault", "Logan"), ("Nissan", "Versa"), ("Hyundai", "HB20S"), ("Fiat", "Grand Siena")]
COLOURS = ["branco", "prata", "branco", "preto", "branco", "cinza"]
FLEET = 96  # within Art. 41's cap of 104 for 104,108 inhabitants (IBGE 2022)
PASSWORD = "taxi12345"


class Command(BaseCommand):
    help = "Cria dados de demonstração de Muriaé (frota, auxiliares, vistorias e casos irregulares)."

    def handle(self, *args, **options):
        if Permit.objects.exists():
            self.stdout.write("Dados de demonstração já existem; nada a fazer.")
            return
        random.seed(1242)
        with transaction.atomic():
            self._seed(timezone.localdate())
        self.stdout.write(self.style.SUCCESS(f"Frota de demonstração criada: {Permit.objects.count()} permissões."))

    def _user(self, username, password, **extra):
        User = get_user_model()
        user, created = User.objects.get_or_create(username=username, defaults=extra)
        if created:
            user.set_password(password)
            user.save()
        return user

    def _person(self, user=None):
        name = f"{random.choice(FIRST)} {random.choice(LAST)} {random.choice(LAST)}"
        return people.register_person(
            full_name=name, cpf=CPF().generate(), cnh=CNH().generate(), user=user,
            phone=f"(32) 9{random.randint(8000, 9999)}-{random.randint(1000, 9999)}",
        )

    def _plate(self, n):
        letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        return f"R{random.choice('OPQ')}{letters[n % 26]}{random.randint(0, 9)}{random.choice(letters)}{random.randint(10, 99)}"

    def _seed(self, today: date):
        self._user("dimutran", "dimutran123", is_staff=True, is_superuser=True, first_name="DIMUTRAN")
        holder_user = self._user("permissionario", PASSWORD, first_name="Permissionário")
        auxiliary_user = self._user("auxiliar", PASSWORD, first_name="Auxiliar")
        current_parameters()  # the defaults are seeded on migrate
        for n in range(1, FLEET + 1):
            signed = today - timedelta(days=random.randint(5, 360))
            holder = self._person(holder_user if n == 1 else None)
            permit = permits.grant_permit(
                person=holder, number=f"TX-{n:03d}", result_published_on=signed - timedelta(days=10), on=signed,
                contest_model_year=None,
            )
            permits.sign_term(permit=permit, signed_on=signed)
            make, model = random.choice(CARS)
            model_year = random.randint(today.year - 8, today.year)
            vehicle = vehicles.register_vehicle(
                permit=permit, on=signed, plate=self._plate(n), renavam=RENAVAM().generate(), make=make, model=model,
                model_year=model_year, manufacture_year=model_year - random.choice([0, 0, 1]), colour=random.choice(COLOURS),
            )
            inspected = max(signed, today - timedelta(days=random.randint(1, 300)))
            vehicles.record_inspection(vehicle=vehicle, inspected_on=inspected, result=Inspection.Result.PASSED, seal_number=f"SV-{n:04d}")
            taximeters.equip_afered(vehicle, installed_on=signed, serial=f"DEMO-{n:04d}", on=today)  # Art. 47, §1-§2
            auxiliaries.issue_cmt(person=holder, number=f"CMT-{n:04d}", issued_on=signed, expires_on=signed + timedelta(days=3 * 365))
            if n % 3 == 0 or n == 1:
                self._auxiliary(permit, n, today, auxiliary_user if n == 1 else None)
        self._ranks(today)
        self._irregular_cases(today)

    def _ranks(self, today):
        """Muriaé's ranks (Art. 22), the private ones with their titulars (Art. 22, I; visitors: Art. 27, §3)."""
        for name, lat, lon, category, titulars in MURIAE_RANKS:
            rank = create_rank(name=name, lat=lat, lon=lon, category=category)
            for permit in Permit.objects.filter(number__in=titulars):
                assign_rank(permit=permit, rank=rank, since=today - timedelta(days=30))

    def _auxiliary(self, permit, n, today, user=None):
        person = self._person(user)
        authorized = today - timedelta(days=random.randint(30, 200))
        aux = auxiliaries.authorize_auxiliary(permit=permit, person=person, on=authorized)
        auxiliaries.issue_cmt(person=person, number=f"CMT-A{n:04d}", issued_on=authorized, expires_on=authorized + timedelta(days=3 * 365))
        last_closed_quarter = quarter_end(today.replace(day=1) - timedelta(days=93))
        for quarter in {quarter_end(authorized), last_closed_quarter}:
            if quarter >= quarter_end(authorized) and quarter < today:
                SocialSecurityProof.objects.get_or_create(auxiliary=aux, quarter_end=quarter, defaults={"presented_on": quarter + timedelta(days=10)})

    def _irregular_cases(self, today):
        """A few cabs that may not work today, each for a different reason of the compliance answer."""
        # Art. 4: alvará expired
        permit = Permit.objects.get(number="TX-090")
        permit.alvaras.update(issued_on=today - timedelta(days=400), expires_on=today - timedelta(days=35))
        # Art. 38: failed inspection
        vehicle = Vehicle.objects.get(permit__number="TX-091", in_service=True)
        vehicles.record_inspection(vehicle=vehicle, inspected_on=today - timedelta(days=2), result=Inspection.Result.FAILED, notes="Pneus carecas; freio traseiro.")
        # Art. 35: annual inspection overdue
        Inspection.objects.filter(vehicle__permit__number="TX-092").update(inspected_on=today - timedelta(days=400), valid_until=today - timedelta(days=35))
        # Art. 54, b: suspended
        Suspension.objects.create(permit=Permit.objects.get(number="TX-093"), starts_on=today - timedelta(days=3), ends_on=today + timedelta(days=12), reason="Auto de infração nº 17/2026")
        # Art. 28: vehicle over age (kept from before the rule was enforced)
        Vehicle.objects.filter(permit__number="TX-094", in_service=True).update(model_year=today.year - 12, manufacture_year=today.year - 12)
        # Art. 1, §5: auxiliary without social-security proof
        aux = Permit.objects.get(number="TX-096").auxiliaries.first()
        if aux:
            aux.social_security_proofs.all().delete()
            aux.authorized_on = today - timedelta(days=200)
            aux.save(update_fields=["authorized_on"])
