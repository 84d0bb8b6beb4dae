"""Address search and reverse lookup latency (p50/p99) over the whole gazetteer, against a naive scan.

search:  zones.gazetteer.Gazetteer.search (rapidfuzz over every street and landmark, CEP index)
         vs a naive scan (difflib.SequenceMatcher against every name, then sort);
reverse: Gazetteer.reverse (Shapely STRtree, metric frame) vs a naive scan (distance to every
         street line, one by one).
Queries: every 3rd street name as people type it (folded, abbreviated, one typo), plus CEPs;
points: uniform over the urban area, seeded. Target: p99 <= 20 ms.

Run:  .venv/bin/python benchmarks/address_bench.py [n_queries]
"""

from __future__ import annotations

import difflib
import platform
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import rapidfuzz
import shapely
from shapely.geometry import Point

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from zones.gazetteer import _KX, _KY, load_gazetteer  # noqa: E402
from zones.names import fold  # noqa: E402


def typed(name: str, rng: random.Random) -> str:
    words = fold(name).split()
    words = [{"rua": "r", "coronel": "cel", "doutor": "dr", "avenida": "av", "praca": "pca"}.get(w, w) for w in words]
    text = " ".join(words)
    if len(text) > 6 and rng.random() < 0.5:  # one typo: a letter dropped
        i = rng.randrange(1, len(text) - 1)
        text = text[:i] + text[i + 1:]
    return text + (f" {rng.randint(1, 999)}" if rng.random() < 0.3 else "")


def percentiles(samples: list[float]) -> tuple[float, float]:
    ms = sorted(s * 1000 for s in samples)
    return statistics.median(ms), ms[min(len(ms) - 1, int(len(ms) * 0.99))]


def timed(fn, args) -> list[float]:
    out = []
    for a in args:
        t0 = time.perf_counter()
        fn(*a)
        out.append(time.perf_counter() - t0)
    return out


def main(n: int = 400) -> None:
    rng = random.Random(1987)
    t0 = time.perf_counter()
    gaz = load_gazetteer()
    load_s = time.perf_counter() - t0
    streets = [p for p in gaz.places if p.kind == "street"]
    queries = [typed(p.name, rng) for p in streets[::3]]
    queries += [c for p in streets[::7] for c in p.ceps[:1]]
    queries = (queries * (n // len(queries) + 1))[:n]
    lons = np.random.default_rng(1987).uniform(-42.40, -42.33, n)
    lats = np.random.default_rng(1988).uniform(-21.16, -21.10, n)
    points = [(float(x), float(y)) for x, y in zip(lons, lats, strict=True) if shapely.contains_xy(gaz.municipality, x, y)]

    def naive_search(q: str):
        key = " ".join(fold(q).split())
        scored = [(difflib.SequenceMatcher(None, key, k).ratio(), i) for i, k in enumerate(gaz.keys)]
        return sorted(scored, reverse=True)[:8]

    def naive_reverse(lon: float, lat: float):
        here = Point(lon * _KX, lat * _KY)
        return min(range(len(gaz.lines)), key=lambda i: gaz.lines[i].distance(here))

    naive_n = max(20, n // 10)
    rows = [
        ("search (rapidfuzz + CEP index)", timed(gaz.search, [(q,) for q in queries])),
        ("search naive (difflib scan)", timed(naive_search, [(q,) for q in queries[:naive_n]])),
        ("reverse (STRtree)", timed(gaz.reverse, points)),
        ("reverse naive (distance to every line)", timed(naive_reverse, points[:naive_n])),
    ]
    near = [(x, y) for x, y in points[:naive_n] if gaz.reverse(x, y).street is not None]
    agree = sum(gaz.reverse(x, y).street is gaz.places[int(gaz.line_place[naive_reverse(x, y)])] for x, y in near)
    print(f"Python {platform.python_version()}, rapidfuzz {rapidfuzz.__version__}, Shapely {shapely.__version__}, "
          f"{platform.machine()}; {len(streets)} streets, {len(gaz.places) - len(streets)} landmarks, "
          f"{len(gaz.lines)} line parts; load {load_s * 1000:.0f} ms")
    print(f"{'path':42} {'n':>5} {'p50 ms':>8} {'p99 ms':>8}")
    p99 = {}
    for label, samples in rows:
        p50, p99[label] = percentiles(samples)
        print(f"{label:42} {len(samples):5d} {p50:8.2f} {p99[label]:8.2f}")
    print(f"search p99 ratio naive/fast: x{p99[rows[1][0]] / p99[rows[0][0]]:.0f}; "
          f"reverse: x{p99[rows[3][0]] / p99[rows[2][0]]:.0f}; reverse agrees with naive on {agree}/{len(near)} points near a street")
    ok = p99[rows[0][0]] <= 20 and p99[rows[2][0]] <= 20
    print("target p99 <= 20 ms:", "met" if ok else "NOT met")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 400)
