"""How well the dispatcher chooses: greedy (each request offered at once) vs batched (a few seconds' requests matched
together), on the same seeded demand and the same cabs, over Muriaé's streets (docs/dispatch-quality.md).

    .venv/bin/python benchmarks/dispatch_quality.py                       # quiet hour, peak with a burst, tight peak
    .venv/bin/python benchmarks/dispatch_quality.py --seeds 5 --windows 3,5,10

In memory, no database and no sockets. The streets are ``zones/data/streets.geojson`` as a graph (segments whose
ends lie within ``SNAP_M`` joined, its largest connected part kept); cabs drive along shortest paths at
``SPEED_MPS``. The ranks are the demo ranks of Muriaé (``backend/ranks/demo.py``) with their titulars. The law is
the law core's: a free cab checks in at a rank only as ``taxilaw.ranks`` allows (Art. 9, V radius, Art. 22, Art. 27,
§3 visitors), and leaves it when it takes a ride; a cab the registry does not allow is never offered a ride; a cab
holds one offer at a time and is never offered a ride it refused. The choice is ``dispatch.rides.choice_rule``, the
live dispatcher's rule: the queue of the rank within ``RANK_RADIUS_M`` of the pickup first (first come, first
served), then the nearest free cabs.

* greedy: as ``dispatch.rides.offers`` does, a request is offered at once; a refusal offers it to the next; a request no
  cab may take is retried every ``RETRY_EVERY_SECONDS``.
* batched: every ``window`` seconds the requests waiting for a cab are matched together: the rank queues first (as
  greedy), then a minimum-cost assignment of the rest to the free cabs over the straight-line pickup distance (what
  the dispatcher knows; ``scipy.optimize.linear_sum_assignment``).

Both give a request up ``GIVE_UP_S`` after it was made (the dated parameter ``escalation_give_up_minutes``, 15).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
from scipy.optimize import linear_sum_assignment

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from backend.ranks.demo import MURIAE_RANKS  # noqa: E402  (a plain list: no Django)
from benchmarks.dispatch_quality_world import (  # noqa: E402
    ACCEPT_SHARE,
    GIVE_UP_S,
    MAX_REACH_M,
    NOT_ALLOWED_SHARE,
    RETRY_EVERY_SECONDS,
    SCENARIOS,
    Ride,
    Scenario,
    Streets,
    World,
)
from dispatch.rides.choice_rule import RANK_RADIUS_M, first_allowed  # noqa: E402
from taxilaw.geodesy import segment_distance_m  # noqa: E402

# --- the policies ------------------------------------------------------------------------------------------------


def greedy(world: World) -> None:
    """``dispatch.rides.offers``: a request is offered at once; a refusal, at once to the next; a request no cab may take
    is retried every RETRY_EVERY_SECONDS."""
    retry = world.t % RETRY_EVERY_SECONDS == 0
    for ride in world.waiting():
        if not ride.escalated or retry:
            cab, source = world.choose(ride)
            ride.escalated = cab is None
            if cab is not None:
                world.offer(ride, cab, source)


# Complexity kept: the batched policy's window, assignment and rank-queue rules in one place, mirrored by the test.
def batched(window: int, age_credit: float = 0.0) -> Callable[[World], None]:  # noqa: C901
    """Every ``window`` seconds: the rank queues first, then a minimum-cost assignment of the rest over the
    straight-line pickup distance, less ``age_credit`` metres per second the ride has waited (with more rides than
    cabs, the oldest are not left behind for nearer new ones); a refused ride waits for the next window."""

    # Complexity kept: the batched policy's window, assignment and rank-queue rules in one place, mirrored by the test.
    def policy(world: World) -> None:  # noqa: C901
        if world.t % window:
            return
        rides, taken = world.waiting(), set()
        rest = []
        for ride in rides:
            queue = world.rank_queue(ride, taken)
            cab, _answers = first_allowed(queue, lambda c: c.allowed)
            if cab is None:
                rest.append(ride)
            else:
                taken.add(cab.id)
                world.offer(ride, cab, "rank")
        cabs = [c for c in world.cabs.values() if world.free(c) and c.allowed and c.id not in taken]
        if not rest or not cabs:
            return
        cost = np.full((len(rest), len(cabs)), math.inf)
        for i, ride in enumerate(rest):
            lat, lon = world.where(ride.pickup)
            for j, cab in enumerate(cabs):
                if cab.id not in ride.tried:
                    d = segment_distance_m(lat, lon, *world.where(cab.node))
                    if d <= MAX_REACH_M:
                        cost[i, j] = d - age_credit * (world.t - ride.t)
        big = 10 * MAX_REACH_M  # forbidden pairs: never chosen while an allowed pair is left (credits stay below)
        rows, cols = linear_sum_assignment(np.where(np.isfinite(cost), cost, big))
        for i, j in zip(rows, cols):
            if np.isfinite(cost[i, j]):
                world.offer(rest[i], cabs[j], "nearest")

    return policy


# --- the report --------------------------------------------------------------------------------------------------

FIELDS = ("requests", "served_share", "wait_mean_s", "wait_p90_s", "wait_all_mean_s", "pickup_mean_m", "pickup_p90_m", "offers_per_ride",
          "rank_offers")


def _p90(values: list[float]) -> float:
    return float(np.percentile(values, 90)) if values else math.nan


def report(runs: list[tuple[list[Ride], list[tuple]]]) -> dict:
    """The figures of one policy over its runs (seeds), pooled: share served, time from the request to the cab at the
    pickup (the window's wait and refusals included; ``wait_all_mean_s`` over every request, one given up counted at
    GIVE_UP_S: a policy that gives up more is not flattered), the road distance the cab drove to the pickup, offers
    per ride served."""
    rides = [r for rs, _log in runs for r in rs]
    served = [r for r in rides if r.picked_up_at is not None]
    waits = [r.picked_up_at - r.t for r in served]
    metres = [r.pickup_road_m for r in served]
    return {
        "requests": len(rides),
        "served_share": len(served) / len(rides) if rides else math.nan,
        "wait_mean_s": statistics.fmean(waits) if waits else math.nan,
        "wait_p90_s": _p90(waits),
        "wait_all_mean_s": statistics.fmean(waits + [GIVE_UP_S] * (len(rides) - len(served))) if rides else math.nan,
        "pickup_mean_m": statistics.fmean(metres) if metres else math.nan,
        "pickup_p90_m": _p90(metres),
        "offers_per_ride": sum(r.offers for r in rides) / len(served) if served else math.nan,
        "rank_offers": sum(1 for _rides, log in runs for e in log if e[0] == "offer" and e[4] == "rank"),
    }


def simulate(streets: Streets, scenario: Scenario, seeds: list[int], policy) -> dict:
    runs = []
    for seed in seeds:
        world = World(streets, scenario, seed, policy)
        runs.append((world.run(), world.log))
    return report(runs)


def table(scenario: Scenario, results: dict[str, dict]) -> str:
    names = list(results)
    base = results[names[0]]
    lines = [f"{scenario.name}: {scenario.cabs_online} cabs online, {results[names[0]]['requests']} requests",
             f"  {'':22}" + "".join(f"{n:>22}" for n in names)]
    formats = {"requests": "{:.0f}", "served_share": "{:.1%}", "wait_mean_s": "{:.0f} s", "wait_p90_s": "{:.0f} s", "wait_all_mean_s": "{:.0f} s",
               "pickup_mean_m": "{:.0f} m", "pickup_p90_m": "{:.0f} m", "offers_per_ride": "{:.2f}",
               "rank_offers": "{:.0f}"}
    for key in FIELDS[1:]:
        cells = []
        for n in names:
            value = formats[key].format(results[n][key])
            if n != names[0] and key not in ("served_share", "rank_offers") and base[key]:
                value += f" ({results[n][key] / base[key]:.2f}x)"
            cells.append(f"{value:>22}")
        lines.append(f"  {key:22}" + "".join(cells))
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=5, help="seeded demands per scenario, pooled (default 5)")
    parser.add_argument("--windows", default="3,10", help="batching windows in seconds (default 3,10)")
    parser.add_argument("--aged", type=int, default=5, help="and this window with the age credit (default 5)")
    parser.add_argument("--age-credit", type=float, default=3.0,
                        help="metres of pickup distance a second of waiting is worth in the aged policy (default 3)")
    args = parser.parse_args(argv)
    streets = Streets()
    seeds = list(range(1, args.seeds + 1))
    windows = [int(w) for w in args.windows.split(",")]
    print(f"streets: {len(streets.lat)} junctions; ranks: {len(MURIAE_RANKS)}; seeds {seeds}; "
          f"drivers accept {ACCEPT_SHARE:.0%}; {NOT_ALLOWED_SHARE:.0%} of cabs not allowed; rank radius {RANK_RADIUS_M} m; "
          f"aged: {args.age_credit:g} m per second waited")
    for scenario in SCENARIOS:
        results = {"greedy": simulate(streets, scenario, seeds, greedy)}
        for w in windows:
            results[f"batched {w} s"] = simulate(streets, scenario, seeds, batched(w))
        if args.aged:
            results[f"batched {args.aged} s, aged"] = simulate(streets, scenario, seeds, batched(args.aged, args.age_credit))
        print(table(scenario, results), flush=True)


if __name__ == "__main__":
    main()
