"""Four weeks of past rides for the demo's indicators (after ``seed_demo``; idempotent): run by `make run`."""

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from ...demo import seed_rides


class Command(BaseCommand):
    help = "Cria quatro semanas de corridas passadas para os indicadores de demonstração."

    def handle(self, *args, **options):
        with transaction.atomic():
            made = seed_rides(timezone.localdate())
        self.stdout.write(f"Corridas de demonstração criadas: {made}.")
