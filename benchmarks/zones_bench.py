"""Points classified per second: prepared vectorized vs prepared scalar vs naive.

(a) ``ZoneClassifier.classify_codes`` / ``classify_many`` - prepared geometries,
    shapely 2 vectorized ``contains_xy`` over numpy arrays;
(b) ``ZoneClassifier.classify`` - prepared geometries, one point at a time;
(c) naive baseline - unprepared ``polygon.contains(Point(x, y))`` per point.

Points are uniform in a box around the city (about half in the central zone
box region, the rest peripheral/outside), seeded for repeatability.

Run:  .venv/bin/python benchmarks/zones_bench.py [n_points]
"""

from __future__ import annotations

import platform
import sys
import time
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry import Point

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from zones.classify import Zone, ZoneClassifier, load_default_polygons  # noqa: E402


def make_points(n: int, seed: int = 1987) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    # half near the centre (mix of central/peripheral), half across the municipality's bbox
    k = n // 2
    lons = np.concatenate([rng.uniform(-42.375, -42.355, k), rng.uniform(-42.60, -42.22, n - k)])
    lats = np.concatenate([rng.uniform(-21.140, -21.125, k), rng.uniform(-21.33, -20.84, n - k)])
    return lons, lats


def timed(fn, *args, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - t0)
    return best


def main(n: int = 200_000) -> dict[str, float]:
    central, municipality = load_default_polygons()
    clf = ZoneClassifier(central, municipality)
    lons, lats = make_points(n)

    # naive: fresh, unprepared copies of the same geometries the classifier uses
    naive_central = shapely.from_wkb(shapely.to_wkb(clf._central))
    naive_muni = shapely.from_wkb(shapely.to_wkb(municipality))

    def naive(xs, ys):
        out = []
        for x, y in zip(xs.tolist(), ys.tolist()):
            p = Point(x, y)
            if not naive_muni.contains(p):
                out.append(Zone.OUTSIDE)
            elif naive_central.contains(p):
                out.append(Zone.CENTRAL)
            else:
                out.append(Zone.PERIPHERAL)
        return out

    def scalar(xs, ys):
        return [clf.classify(x, y) for x, y in zip(xs.tolist(), ys.tolist())]

    n_slow = min(n, 20_000)
    results = {
        "vectorized codes (prepared, contains_xy)": n / timed(clf.classify_codes, lons, lats),
        "vectorized Zone objects (prepared, contains_xy)": n / timed(clf.classify_many, lons, lats),
        "scalar prepared (classify)": n_slow / timed(scalar, lons[:n_slow], lats[:n_slow]),
        "naive unprepared contains(Point)": n_slow / timed(naive, lons[:n_slow], lats[:n_slow]),
    }
    # same answers on the common slice
    vec = clf.classify_many(lons[:n_slow], lats[:n_slow]).tolist()
    assert vec == scalar(lons[:n_slow], lats[:n_slow]) == naive(lons[:n_slow], lats[:n_slow])

    base = results["naive unprepared contains(Point)"]
    print(f"zones benchmark: n={n} (scalar/naive on {n_slow}); python {platform.python_version()}, "
          f"shapely {shapely.__version__}, numpy {np.__version__}, {platform.machine()}")
    counts = np.bincount(clf.classify_codes(lons, lats), minlength=3)
    print(f"mix: outside={counts[0]} peripheral={counts[1]} central={counts[2]}")
    for name, rate in results.items():
        print(f"  {name:50s} {rate:14,.0f} points/s   x{rate / base:8.1f} vs naive")
    return results


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200_000)
