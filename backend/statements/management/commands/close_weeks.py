"""``manage.py close_weeks``: close every ended week not closed yet (for cron, e.g. Mondays 00:10)."""

from django.core.management.base import BaseCommand

from backend.api_errors import LawViolation

from ... import services


class Command(BaseCommand):
    help = "Fecha os extratos semanais (Art. 1, §3) de todas as semanas já terminadas e ainda não fechadas."

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="Só lista as semanas que seriam fechadas.")

    def handle(self, *args, dry_run=False, **options):
        weeks = services.weeks_to_close()
        if dry_run:
            for monday in weeks:
                self.stdout.write(f"{monday:%d/%m/%Y}")
            return
        closed = 0
        for monday in weeks:
            try:
                closure = services.close_week(monday)
            except LawViolation as exc:  # closed meanwhile by another run
                self.stderr.write(f"{monday:%d/%m/%Y}: {exc.detail}")
                continue
            closed += 1
            self.stdout.write(f"{monday:%d/%m/%Y}: {closure.statements} extrato(s)")
        self.stdout.write(self.style.SUCCESS(f"{closed} semana(s) fechada(s)."))
