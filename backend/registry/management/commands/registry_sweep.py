"""Daily sweep of the registry's deadlines (run it from cron or a scheduler once a day)."""

from django.core.management.base import BaseCommand
from django.utils import timezone

from ...services import auxiliaries, permits


class Command(BaseCommand):
    help = "Aplica os prazos do dia: termos não assinados (Art. 3, §1), alvarás não renovados (Art. 4, §3), comprovantes previdenciários vencidos (Art. 1, §5)."

    def handle(self, *args, **options):
        today = timezone.localdate()
        lapsed = permits.lapse_permits(on=today)
        cancelled = auxiliaries.cancel_overdue_auxiliaries(on=today)
        self.stdout.write(
            f"Direito perdido: {len(lapsed['lost'])}; extintas: {len(lapsed['extinct'])}; autorizações de auxiliar canceladas: {len(cancelled)}."
        )
