"""The search scenario of benchmarks/dispatch_bench.py (docs/dispatch-benchmark.md): the dispatcher's grid search for
the nearest free cabs against a scan of every cab with a geodesic distance each, over the benchmark's fleet (no server)."""

from __future__ import annotations

import random
import time

from benchmarks.dispatch_bench_fleet import CENTRE, SPREAD
from benchmarks.dispatch_bench_load import pct


def search_benchmark(n_naive: int = 10, n_search: int = 300) -> dict:
    """Every cab of the fleet free, online and placed in the box; the grid search (``choosing.nearest_free``)
    against a scan of every free cab with a geodesic distance each (the naive dispatcher's), same pickups."""
    from django.db.models import Q
    from django.utils import timezone
    from geopy.distance import geodesic

    from dispatch.models import Cab, CabStatus
    from dispatch.rides import choosing, positions

    rng = random.Random(66)
    now = timezone.now()
    ids = list(Cab.objects.values_list("pk", flat=True))
    positions.flush({pk: (CENTRE[0] + rng.uniform(-SPREAD, SPREAD), CENTRE[1] + rng.uniform(-SPREAD, SPREAD), now) for pk in ids})
    Cab.objects.update(status=CabStatus.FREE, online=True)

    def naive(lat, lon):
        free = Cab.objects.filter(Q(status=CabStatus.FREE) & Q(online=True)).select_related("permit", "driver")
        ranked = sorted((geodesic((lat, lon), (c.lat, c.lon)).meters, c.pk) for c in free if c.lat is not None)
        return [pk for _d, pk in ranked[:choosing.CANDIDATES_PER_OFFER]]

    pickups = [(CENTRE[0] + rng.uniform(-SPREAD, SPREAD) * 0.8, CENTRE[1] + rng.uniform(-SPREAD, SPREAD) * 0.8) for _ in range(n_search)]
    for lat, lon in pickups[:20]:  # warm: prepared plans, caches
        choosing.nearest_free(lat, lon, set())
    search_s, answers = [], []
    for lat, lon in pickups:
        t = time.perf_counter()
        found = choosing.nearest_free(lat, lon, set())
        search_s.append(time.perf_counter() - t)
        answers.append([c.cab.pk for c in found])
    naive_s, same = [], 0
    for k, (lat, lon) in enumerate(pickups[:n_naive]):
        t = time.perf_counter()
        scanned = naive(lat, lon)
        naive_s.append(time.perf_counter() - t)
        same += scanned == answers[k]
    Cab.objects.update(status="fora_de_servico", online=False)
    return {"cabs": len(ids), "search_ms": pct(search_s, 50) * 1000, "search_p99_ms": pct(search_s, 99) * 1000,
            "naive_ms": pct(naive_s, 50) * 1000, "same": same, "compared": len(naive_s)}


def print_search(r: dict) -> None:
    print(f"  [search] {r['cabs']} free cabs: grid search p50 {r['search_ms']:.2f} ms (p99 {r['search_p99_ms']:.2f}), "
          f"naive scan p50 {r['naive_ms']:.0f} ms: {r['naive_ms'] / r['search_ms']:.0f}x; "
          f"same 8 nearest in {r['same']}/{r['compared']}", flush=True)
