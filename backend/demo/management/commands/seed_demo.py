"""Create a plausible Muriaé fleet for demos (idempotent): run by `make run`."""

import random
from datetime import date, datetime, time, timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone
from validate_docbr import CNH, CPF, RENAVAM

from backend.parameters.selectors import current_parameters
from backend.ranks.demo import MURIAE_RANKS
from backend.ranks.services.ranks import assign_rank, check_in, check_out, create_rank
from backend.registry.models import Inspection, Permit, SocialSecurityProof, Vehicle
from backend.registry.services import auxiliaries, people, permits, taximeters, vehicles
from taxilaw.calendar import quarter_end
from taxilaw.inspection_items import approved_vistoria

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
        self._tariff_reviewed(today)
        for n in range(1, FLEET + 1):
            signed = today - timedelta(days=random.randint(5, 360))
            if n == 90:  # Art. 4: its alvará (1 year from the term) expired 35 days ago, not yet extinct (Art. 4, §3)
                signed = today - timedelta(days=400)
            elif n == 92:  # Art. 35: its yearly vistoria is overdue
                signed = today - timedelta(days=420)
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
                # Lei 13.146/2015, art. 51 asks for a tenth of the fleet accessible (taxilaw.accessibility)
                wheelchair_accessible=n % 10 == 1, child_seat=n % 4 == 2,
            )
            inspected = max(signed, today - timedelta(days=random.randint(1, 300))) if n != 92 else today - timedelta(days=400)
            inspection = vehicles.record_inspection(vehicle=vehicle, inspected_on=inspected, result=Inspection.Result.PASSED,
                                                    seal_number=f"SV-{n:04d}", **approved_vistoria())
            vehicles.pay_inspection_fee(inspection=inspection, paid_on=inspected)  # Art. 40
            taximeters.equip_afered(vehicle, installed_on=signed, serial=f"DEMO-{n:04d}", on=today)  # Art. 47, §1-§2
            auxiliaries.issue_cmt(person=holder, number=f"CMT-{n:04d}", issued_on=signed, expires_on=signed + timedelta(days=3 * 365))
            if n % 3 == 0 or n == 1:
                self._auxiliary(permit, n, today, auxiliary_user if n == 1 else None)
        self._ranks(today)
        self._irregular_cases(today)

    def _tariff_reviewed(self, today):
        """The half-yearly review of Art. 44 decreed a month ago at the same prices, so the scheduler's review
        notice (backend/notices/jobs/tariffs.py) has nothing to say on the demo's first day."""
        from backend.tariffs.models import TariffDecree

        latest = TariffDecree.objects.order_by("-effective_from").first()
        if latest is not None and latest.effective_from < today - timedelta(days=30):
            TariffDecree.objects.create(
                effective_from=today - timedelta(days=30), bandeirada=latest.bandeirada, price_km_b1=latest.price_km_b1,
                price_km_b2=latest.price_km_b2, price_hour_waiting=latest.price_hour_waiting,
                decree="demonstração: reajuste semestral (Art. 44) aos mesmos preços",
            )

    def _ranks(self, today):
        """Muriaé's ranks (Art. 22), the private ones with their titulars (Art. 22, I; visitors: Art. 27, §3)."""
        for name, lat, lon, category, titulars in MURIAE_RANKS:
            rank = create_rank(name=name, lat=lat, lon=lon, category=category)
            for permit in Permit.objects.filter(number__in=titulars):
                assign_rank(permit=permit, rank=rank, since=today - timedelta(days=30))
                self._attend(permit, rank, today)

    def _attend(self, permit, rank, today):
        """The titular's month at its rank, Sundays off, through the check-in service: no absence of Art. 9, V."""
        for back in range(30, 0, -1):
            day = today - timedelta(days=back)
            if day.weekday() == 6:
                continue
            arrived = timezone.make_aware(datetime.combine(day, time(7)))
            stay = check_in(permit=permit, rank=rank, at=arrived, position=(rank.lat, rank.lon))
            check_out(checkin=stay, at=arrived + timedelta(hours=8))

    def _auxiliary(self, permit, n, today, user=None):
        person = self._person(user)
        authorized = today - timedelta(days=random.randint(30, 200)) if n != 96 else today - timedelta(days=200)
        aux = auxiliaries.authorize_auxiliary(permit=permit, person=person, on=authorized)
        auxiliaries.issue_cmt(person=person, number=f"CMT-A{n:04d}", issued_on=authorized, expires_on=authorized + timedelta(days=3 * 365))
        last_closed_quarter = quarter_end(today.replace(day=1) - timedelta(days=93))
        for quarter in {quarter_end(authorized), last_closed_quarter}:
            if n != 96 and quarter >= quarter_end(authorized) and quarter < today:
                SocialSecurityProof.objects.get_or_create(auxiliary=aux, quarter_end=quarter, defaults={"presented_on": quarter + timedelta(days=10)})

    def _irregular_cases(self, today):
        """A few cabs that may not work today, each for a different reason of the compliance answer, each made by
        the procedure that makes it (TX-090's alvará and TX-092's vistoria are dated in the fleet's loop)."""
        # Art. 38: failed inspection (its fee paid: Art. 40)
        vehicle = Vehicle.objects.get(permit__number="TX-091", in_service=True)
        failed = vehicles.record_inspection(vehicle=vehicle, inspected_on=today - timedelta(days=2), result=Inspection.Result.FAILED,
                                            notes="Pneus carecas; freio traseiro.")
        vehicles.pay_inspection_fee(inspection=failed, paid_on=failed.inspected_on)
        # Art. 54, b: suspended by the decision on an auto, after its defence term (Art. 60-63)
        self._suspension(Permit.objects.get(number="TX-093"), today)
        # Art. 28: vehicle over age (kept from before the rule was enforced: no service registers it today)
        Vehicle.objects.filter(permit__number="TX-094", in_service=True).update(model_year=today.year - 12, manufacture_year=today.year - 12)
        # Art. 1, §5: TX-096's auxiliary never proved his contribution; the law's consequence, as the sweep applies it
        auxiliaries.cancel_overdue_auxiliaries(on=today)

    def _suspension(self, permit, today):
        from backend.enforcement.models import InfractionType
        from backend.enforcement.services import autos, decisions

        seen = today - timedelta(days=20)
        auto = autos.issue(permit=permit, person=permit.holder, infractions=[InfractionType.objects.get(code="seal_removed")],
                           committed_on=seen, issued_on=seen, observation="Selo de vistoria retirado (demonstração).")
        autos.deliver_copy(auto=auto, delivered_on=seen)
        infraction = auto.infractions.get()
        decisions.decide(auto=auto, decided_on=today - timedelta(days=5), reasoning="Infração comprovada (demonstração).",
                         choices=[decisions.PenaltyChoice(infraction=infraction, kind="suspension",
                                                          starts_on=today - timedelta(days=3), ends_on=today + timedelta(days=12))])
