"""``python manage.py simulate --cabs 30 --rides-per-minute 6 --url ws://127.0.0.1:8000``: a live Muriaé for the console.

Prepares drivers, tokens, ranks and passengers in the database this command is
configured for (the same one the server uses), then drives them through the
real websocket protocol until interrupted (see dispatch/simulator.py).
"""

import asyncio
import logging

from django.core.management.base import BaseCommand

from dispatch import simulator


class Command(BaseCommand):
    help = "Simula táxis e passageiros de Muriaé pelo protocolo websocket real do despacho (Art. 66)."

    def add_arguments(self, parser):
        parser.add_argument("--cabs", type=int, default=30, help="quantos táxis (limitado às permissões que podem trabalhar)")
        parser.add_argument("--rides-per-minute", type=float, default=6.0)
        parser.add_argument("--url", default="ws://127.0.0.1:8000", help="base websocket URL of a Daphne")
        parser.add_argument("--tick", type=float, default=5.0, help="seconds between two positions of a cab")
        parser.add_argument("--accept-ratio", type=float, default=0.85)
        parser.add_argument("--trip-steps", type=int, nargs=2, default=(8, 30), metavar=("MIN", "MAX"))
        parser.add_argument("--approach-steps", type=int, nargs=2, default=(2, 8), metavar=("MIN", "MAX"))
        parser.add_argument("--passengers", type=int, default=20, help="size of the passenger pool")
        parser.add_argument("--duration", type=float, default=0, help="seconds to run (0: until interrupted)")
        parser.add_argument("--report-every", type=float, default=30.0)
        parser.add_argument("--reserve", nargs="*", default=list(simulator.RESERVED_USERS),
                            help="usernames whose cab is left for humans (default: the demo logins)")
        parser.add_argument("--seed", type=int, default=None)

    def handle(self, *args, **o):
        logging.getLogger("websockets").setLevel(logging.WARNING)
        world = simulator.prepare(o["cabs"], passengers=o["passengers"], reserved=tuple(o["reserve"]))
        for permit, why in world.skipped:
            self.stdout.write(f"  {permit}: fora da simulação ({why})")
        self.stdout.write(self.style.SUCCESS(
            f"Simulando {len(world.cabs)} táxis, {len(world.ranks)} pontos, {o['rides_per_minute']} corridas/min em {o['url']}"))
        cfg = simulator.Config(url=o["url"], tick=o["tick"], rides_per_minute=o["rides_per_minute"], accept_ratio=o["accept_ratio"],
                               trip_steps=tuple(o["trip_steps"]), approach_steps=tuple(o["approach_steps"]), seed=o["seed"])
        echo = lambda line: (self.stdout.write(line), self.stdout.flush())  # noqa: E731
        try:
            stats = asyncio.run(simulator.run(world, cfg, duration=o["duration"] or None, report_every=o["report_every"], echo=echo))
        except KeyboardInterrupt:
            self.stdout.write("interrompido")
            return
        self.stdout.write(stats.line())
