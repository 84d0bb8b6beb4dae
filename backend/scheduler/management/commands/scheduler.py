"""``manage.py scheduler``: run the due jobs every ``--interval`` seconds (``make run``, docker-compose)."""

import time

from django.core.management.base import BaseCommand, CommandError

from ... import heartbeat
from ...jobs import registered, registered_every_tick, run_due, run_every_tick


class Command(BaseCommand):
    help = "Executa as tarefas agendadas vencidas (prazos da lei, fechamento de semanas), uma vez por período, mesmo com vários processos."

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=30.0, help="Segundos entre verificações.")
        parser.add_argument("--once", action="store_true", help="Uma verificação só, e termina.")
        parser.add_argument("--max-ticks", type=int, default=0, help="Termina após N verificações (0: sem limite).")
        parser.add_argument("--check", action="store_true",
                            help="Não executa nada: sai com erro se nenhum agendador deu sinal há mais de 4 intervalos "
                                 "(healthcheck do docker-compose).")

    def handle(self, *args, interval=30.0, once=False, max_ticks=0, check=False, **options):
        if check:
            age = heartbeat.age()
            if age is None or age > 4 * interval:
                raise CommandError(f"Agendador sem sinal ({'nunca' if age is None else f'há {age:.0f} s'}).")
            self.stdout.write(f"Agendador vivo: último sinal há {age:.0f} s.")
            return
        self.stdout.write("Tarefas: " + ", ".join(sorted(registered())))
        self.stdout.write("A cada verificação: " + ", ".join(sorted(registered_every_tick())))
        ticks = 0
        while True:
            heartbeat.beat()
            for run in run_due():
                self.stdout.write(f"{run.job} [{run.slot}]: {run.summary}")
            for name, summary in run_every_tick().items():
                self.stdout.write(f"{name}: {summary}")
            ticks += 1
            if once or (max_ticks and ticks >= max_ticks):
                return
            time.sleep(interval)
