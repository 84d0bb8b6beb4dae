"""A model of the dispatch at São Paulo's scale, replaying the costs measured by dispatch_bench.py (docs/scaling.md).

    .venv/bin/python benchmarks/scaling_model.py                      # 38,000 cabs, 7,600 positions/s, 20 requests/s
    .venv/bin/python benchmarks/scaling_model.py --requests 40 --processes 6

Not a cluster: a discrete-event simulation of P serving processes (each an event loop, one server in
FIFO order, fed its share of the positions and the requests), their offering workers (c servers
each) and one PostgreSQL primary (k cores shared by every process's flushes and offers), with the
service times of the 10,000-cab run (the defaults; pass the figures of another run). It prints each
part's utilization, the request->offer latency the queues add up to, and the naive baseline: the
same fleet with a database write per position and a scan of every cab per request.
"""

from __future__ import annotations

import argparse
import heapq
import math
import random


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q / 100 * (len(values) - 1))))] if values else float("nan")


class Servers:
    """``count`` identical servers taking jobs in arrival order: returns when a job arriving at ``at`` ends."""

    def __init__(self, count: int):
        self.free_at = [0.0] * count
        self.busy = 0.0

    def serve(self, at: float, service: float) -> float:
        start = max(at, heapq.heappop(self.free_at))
        heapq.heappush(self.free_at, start + service)
        self.busy += service
        return start + service


def simulate(args) -> dict:
    rng = random.Random(1242)
    positions_per_s = args.cabs / args.tick
    per_process = positions_per_s / args.processes
    loops = [Servers(1) for _ in range(args.processes)]
    workers = [Servers(args.offer_workers) for _ in range(args.processes)]
    database = Servers(args.db_cores)
    events = []  # (time, kind, process)
    for p in range(args.processes):
        # positions evenly spread (as the clients send them); the once-a-second tick and flush as a burst of work
        n = int(per_process * args.seconds)
        events += [(i / per_process, "position", p) for i in range(n)]
        events += [(s + rng.random() * 0.01, "tick", p) for s in range(int(args.seconds))]
    t = 0.0
    while True:
        t += rng.expovariate(args.requests)
        if t >= args.seconds:
            break
        events.append((t, "request", rng.randrange(args.processes)))
    heapq.heapify(events)  # every server takes its jobs in time order: later steps go back into the heap
    latencies = []
    while events:
        at, kind, p, *asked = heapq.heappop(events)
        if kind == "position":
            loops[p].serve(at, args.cpu_per_position_us * 1e-6)
        elif kind == "tick":
            done = loops[p].serve(at, args.fixed_ms_per_tick * 1e-3)
            database.serve(done, per_process * args.db_cpu_per_position_us * 1e-6)
        elif kind == "request":
            received = loops[p].serve(at, args.loop_ms_per_offer * 1e-3 / 2)  # the request's frame
            heapq.heappush(events, (received, "worker", p, at))
        elif kind == "worker":
            chosen = workers[p].serve(at, (args.offer_ms - args.db_ms_per_offer) * 1e-3)  # the worker's Python
            heapq.heappush(events, (chosen, "database", p, *asked))
        elif kind == "database":
            heapq.heappush(events, (database.serve(at, args.db_ms_per_offer * 1e-3), "offer", p, *asked))
        else:
            offered = loops[p].serve(at, args.loop_ms_per_offer * 1e-3 / 2)  # outbox, relay, send
            latencies.append(offered - asked[0] + args.network_ms * 1e-3)
    span = args.seconds
    return {
        "positions_per_s": positions_per_s,
        "loop_util": max(loop.busy for loop in loops) / span,
        "worker_util": max(w.busy for w in workers) / span / args.offer_workers,
        "db_util": database.busy / span / args.db_cores,
        "p50_ms": percentile(latencies, 50) * 1000, "p99_ms": percentile(latencies, 99) * 1000, "requests": len(latencies),
    }


def naive(args) -> dict:
    """The naive dispatcher at the same scale: one UPDATE per position, a geodesic per free cab per request."""
    positions_per_s = args.cabs / args.tick
    return {
        "server_cores": positions_per_s * args.naive_cpu_per_position_us * 1e-6,
        "scan_ms": args.cabs * args.naive_scan_us_per_cab * 1e-3,
        "scan_cores": args.requests * args.cabs * args.naive_scan_us_per_cab * 1e-6,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cabs", type=int, default=38_000, help="São Paulo's taxis")
    parser.add_argument("--tick", type=float, default=5.0, help="seconds between two positions of a cab")
    parser.add_argument("--requests", type=float, default=20.0, help="ride requests per second (Poisson), the busy hour")
    parser.add_argument("--processes", type=int, default=0, help="serving processes (0: the fewest that stay under --target)")
    parser.add_argument("--target", type=float, default=0.5, help="largest event-loop utilization allowed when sizing")
    parser.add_argument("--offer-workers", type=int, default=1, help="offering worker processes per serving process")
    parser.add_argument("--db-cores", type=int, default=4, help="PostgreSQL primary's cores")
    parser.add_argument("--seconds", type=float, default=120.0, help="simulated time")
    # measured costs (docs/dispatch-benchmark.md, 10,000 cabs, one process)
    parser.add_argument("--cpu-per-position-us", type=float, default=115.0, help="marginal CPU of a position in a process")
    parser.add_argument("--fixed-ms-per-tick", type=float, default=49.0, help="a process's once-a-second work (flush, sweeps)")
    parser.add_argument("--loop-ms-per-offer", type=float, default=1.5, help="event-loop CPU of a request and its offer")
    parser.add_argument("--offer-ms", type=float, default=17.0, help="request_ride in the worker, p50 under the load")
    parser.add_argument("--db-ms-per-offer", type=float, default=1.5, help="PostgreSQL CPU of one offer")
    parser.add_argument("--db-cpu-per-position-us", type=float, default=22.0, help="PostgreSQL CPU of one position (batched)")
    parser.add_argument("--network-ms", type=float, default=2.0, help="the client sides' share (send and read)")
    parser.add_argument("--naive-cpu-per-position-us", type=float, default=795.0)
    parser.add_argument("--naive-scan-us-per-cab", type=float, default=139.0)
    args = parser.parse_args()
    if not args.processes:
        per_core = (args.target - args.fixed_ms_per_tick * 1e-3) / (args.cpu_per_position_us * 1e-6)
        args.processes = max(1, math.ceil(args.cabs / args.tick / per_core))
    r = simulate(args)
    print(f"{args.cabs} cabs, {r['positions_per_s']:.0f} positions/s, {args.requests:g} requests/s, "
          f"{args.processes} serving processes x {args.offer_workers} offering worker(s), PostgreSQL {args.db_cores} cores")
    print(f"  event loop (busiest process): {r['loop_util'] * 100:.0f}%  offering worker: {r['worker_util'] * 100:.0f}%  "
          f"PostgreSQL: {r['db_util'] * 100:.0f}% of {args.db_cores} cores")
    print(f"  request->offer: p50 {r['p50_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms ({r['requests']} requests simulated)")
    n = naive(args)
    print(f"  naive: {n['server_cores']:.1f} cores for the positions' UPDATEs, one scan {n['scan_ms']:.0f} ms, "
          f"{n['scan_cores']:.0f} cores of scans at {args.requests:g} requests/s")


if __name__ == "__main__":
    main()
