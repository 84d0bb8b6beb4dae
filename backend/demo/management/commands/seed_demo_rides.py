"""Four weeks of past rides for the demo (after ``seed_demo``; idempotent): run by `make run`. With them, what a first
run shows on every screen (``backend.demo.first_run``): Pix keys, a passenger's booking, rating and complaint, the closed weeks."""

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from ...first_run import seed_first_run
from ...rides import seed_rides


class Command(BaseCommand):
    help = "Cria quatro semanas de corridas passadas para os indicadores de demonstração."

    def handle(self, *args, **options):
        with transaction.atomic():
            made = seed_rides(timezone.localdate())
            life = seed_first_run(timezone.localdate()) if made else None
        self.stdout.write(f"Corridas de demonstração criadas: {made}.")
        if life:
            self.stdout.write(f"Chaves Pix: {life['pix_keys']}; semanas fechadas com extrato: {life['weeks_closed']}; "
                              "uma passageira com agendamento, avaliação e reclamação.")
