"""Other cabs' ping round trips while one driver floods the process with 1 MB trace frames (issue 34).

    .venv/bin/python benchmarks/flood_bench.py               # 30 s a phase
    .venv/bin/python benchmarks/flood_bench.py --seconds 60

One Daphne on the test harness's platform (tests/e2e/conftest.py: its own database, SQLite or ``DATABASE_URL``'s
PostgreSQL), 100 sockets sending a position and a ping every 0.5 s (tests/e2e/flood.py). The same load runs twice in
one run: without the flooder (the baseline), then with one driver sending 10,000-fix frames as fast as the rate limit
allows. It prints each phase's ping p50/p99/max and the ratio of the p99s. Results: docs/dispatch-benchmark.md,
"Large frames".
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run as a script: import the project (and the test harness) from the checkout
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

from tests.e2e.client import driver  # noqa: E402
from tests.e2e.conftest import MIGRATED, Platform  # noqa: E402
from tests.e2e.flood import E2E_WORLD_CABS, connect_cabs, measure  # noqa: E402


async def run(port: int, world: dict, seconds: float) -> tuple[dict, dict]:
    flooder = await driver(port, world["cabs"][0]["token"])
    await flooder.recv_until("snapshot")
    cabs = await connect_cabs(port, [c["token"] for c in world["cabs"][1:]])
    quiet = await measure(port, cabs, world["centre"], seconds)
    flooded = await measure(port, cabs, world["centre"], seconds, flooder)
    flooded["closed"] = flooder.ws.close_code
    await asyncio.gather(*(c.close() for c in [flooder, *cabs]))
    return quiet, flooded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="length of each phase")
    args = parser.parse_args()
    platform = Platform(Path(tempfile.mkdtemp(prefix="flood-bench-")))
    platform.env["E2E_CABS"] = str(E2E_WORLD_CABS)
    try:
        platform.prepare()
        (port,) = platform.start(1)
        quiet, flooded = asyncio.run(run(port, platform.world, args.seconds))
    finally:
        platform.stop()
        MIGRATED.drop()
    print(f"{'phase':<34} {'pings':>6} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'1 MB frames':>12}")
    for name, m in (("100 cabs, no flooder (baseline)", quiet), ("100 cabs + 1 MB trace flooder", flooded)):
        print(f"{name:<34} {m['pings']:>6} {m['p50_ms']:>8.1f} {m['p99_ms']:>8.1f} {m['max_ms']:>8.1f} {m['frames']:>12}")
    print(f"p99 with the flooder / without: {flooded['p99_ms'] / quiet['p99_ms']:.2f}x "
          f"(flooder {'closed ' + str(flooded['closed']) if flooded['closed'] else 'kept within the limit'})")


if __name__ == "__main__":
    main()
