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
import json
import math
import random
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from pathlib import Path

import numpy as np
from scipy.optimize import linear_sum_assignment
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components, dijkstra
from scipy.spatial import cKDTree

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from backend.ranks.demo import MURIAE_RANKS  # noqa: E402  (a plain list: no Django)
from dispatch.rides.choice_rule import RANK_RADIUS_M, candidate_order, first_allowed, queue_order, rank_for_pickup  # noqa: E402
from taxilaw import rank_acts
from taxilaw import ranks as law  # noqa: E402
from taxilaw.decision import Decision  # noqa: E402
from taxilaw.geodesy import distance_m, segment_distance_m  # noqa: E402
from taxilaw.parameters import DEFAULT_PARAMETERS  # noqa: E402
from zones import Zone, default_classifier  # noqa: E402
from zones.geojson import DATA_DIR  # noqa: E402

SNAP_M = 20.0  # the IBGE segments stop short of their crossings: ends this close are one junction
SPEED_MPS = 25 / 3.6  # a cab in town
CENTRE = (-21.1311, -42.3676)  # Praça Cel. Pacheco de Medeiros
DEMAND_SCALE_M = 1500.0  # pickups and destinations thin out as exp(-distance from the centre / this)
MAX_REACH_M = 6500.0  # dispatch.rides.choosing's largest search square (MAX_RINGS): beyond, the operators are asked
CANDIDATES = 8  # dispatch.rides.choosing.CANDIDATES_PER_OFFER
RETRY_EVERY_SECONDS = 2  # dispatch.rides.escalations
GIVE_UP_S = 15 * 60  # escalation_give_up_minutes
ACCEPT_SHARE = 0.85  # drivers' answers: accepted, else refused (or let expire) after ANSWER_S
ANSWER_S = (3, 12)
NOT_ALLOWED_SHARE = 0.05  # cabs online whose driver the registry does not allow now (a document expired)
TO_RANK_SHARE = 0.4  # a free cab that is no titular heads for the nearest rank, else cruises
ON = date(2026, 12, 4)  # the day the law's dated rules are read for
#: Dispatched requests per hour by hour of the day (a weekday): a reading, not a measurement (docs/dispatch-quality.md).
HOURLY_REQUESTS = (4, 3, 2, 2, 3, 6, 14, 26, 30, 24, 20, 22, 28, 24, 20, 22, 28, 36, 44, 38, 30, 24, 16, 8)
PERMITS = 104  # Art. 41: one taxi per 1,000 inhabitants (IBGE 2022: 104,108)
CHECKIN_RADIUS_M = float(next(p.value for p in DEFAULT_PARAMETERS if p.name == "rank_checkin_radius_m"))


# --- the streets -------------------------------------------------------------------------------------------------


class Streets:
    """Muriaé's streets as a graph: nodes with their coordinates, shortest road paths between them."""

    def __init__(self, path: Path = DATA_DIR / "streets.geojson"):
        index: dict[tuple[float, float], int] = {}
        rows, cols = [], []
        for feature in json.loads(path.read_text())["features"]:
            for line in feature["geometry"]["coordinates"]:
                ids = [index.setdefault((lon, lat), len(index)) for lon, lat in line]
                pairs = [(a, b) for a, b in zip(ids, ids[1:]) if a != b]
                rows += [a for a, _b in pairs]
                cols += [b for _a, b in pairs]
        lonlat = np.array(list(index))
        xy = self._metres(lonlat[:, 1], lonlat[:, 0])
        snapped = cKDTree(xy).query_pairs(SNAP_M, output_type="ndarray")
        rows, cols = np.r_[rows, snapped[:, 0]], np.r_[cols, snapped[:, 1]]
        n = len(lonlat)
        _, label = connected_components(coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n)), directed=False)
        keep = label == np.bincount(label).argmax()
        renumber = np.full(n, -1)
        renumber[keep] = np.arange(keep.sum())
        inside = keep[rows] & keep[cols]
        rows, cols = renumber[rows[inside]], renumber[cols[inside]]
        self.lat, self.lon = lonlat[keep, 1], lonlat[keep, 0]
        self.xy = xy[keep]
        lengths = np.maximum(np.hypot(*(self.xy[rows] - self.xy[cols]).T), 0.1)
        m = len(self.lat)
        self.graph = coo_matrix((np.r_[lengths, lengths], (np.r_[rows, cols], np.r_[cols, rows])), shape=(m, m)).tocsr()
        self.tree = cKDTree(self.xy)
        centre = self._metres(np.array([CENTRE[0]]), np.array([CENTRE[1]]))[0]
        self.weight = np.exp(-np.hypot(*(self.xy - centre).T) / DEMAND_SCALE_M)
        self.weight /= self.weight.sum()

    @staticmethod
    def _metres(lat, lon):
        return np.c_[(lon - CENTRE[1]) * 111_320 * math.cos(math.radians(CENTRE[0])), (lat - CENTRE[0]) * 110_574]

    def node_near(self, lat: float, lon: float) -> int:
        return int(self.tree.query(self._metres(np.array([lat]), np.array([lon])))[1][0])

    def nodes_within(self, lat: float, lon: float, metres: float) -> list[int]:
        return sorted(self.tree.query_ball_point(self._metres(np.array([lat]), np.array([lon]))[0], metres))

    @lru_cache(maxsize=512)  # noqa: B019  (one Streets per run; the cache lives as long as it)
    def _from(self, source: int):
        return dijkstra(self.graph, indices=source, return_predecessors=True)

    def road_m(self, a: int, b: int) -> float:
        return float(self._from(a)[0][b])

    def path(self, a: int, b: int) -> tuple[list[int], list[float]]:
        """The nodes from ``a`` to ``b`` on the shortest road path and the distance driven at each."""
        dist, pred = self._from(a)
        nodes = [b]
        while nodes[-1] != a:
            nodes.append(int(pred[nodes[-1]]))
        nodes.reverse()
        return nodes, [float(dist[n]) for n in nodes]


# --- the world ---------------------------------------------------------------------------------------------------


@dataclass
class Rank:
    name: str
    lat: float
    lon: float
    facts: law.RankFacts
    titulars: frozenset[int]
    node: int
    queue: list[int] = field(default_factory=list)  # cab ids checked in, in order of arrival


@dataclass
class Cab:
    id: int
    allowed: bool  # the registry's compliance answer now
    home: str | None  # the private rank it is designated to (Art. 22, I)
    node: int
    state: str = "free"  # free | to_pickup | on_trip
    offer: int | None = None  # the ride it holds an offer for
    rank: str | None = None  # the rank it is checked in at
    path: list[int] = field(default_factory=list)
    at: list[float] = field(default_factory=list)
    driven: float = 0.0
    heading_rank: str | None = None
    ride: int | None = None


@dataclass
class Ride:
    id: int
    t: float
    pickup: int
    destination: int
    tried: set[int] = field(default_factory=set)
    offers: int = 0
    cab: int | None = None
    offered_until: float | None = None
    pickup_road_m: float | None = None
    picked_up_at: float | None = None
    given_up: bool = False
    escalated: bool = False  # no cab could take it when last tried: retried every RETRY_EVERY_SECONDS

    @property
    def open(self) -> bool:
        return self.cab is None and not self.given_up


@dataclass
class Scenario:
    name: str
    hour: int
    cabs_online: int
    minutes: int = 60
    burst: tuple[str, int, int, int] | None = None  # (landmark, minute, requests, over minutes)
    rate_factor: float = 1.0


SCENARIOS = (
    Scenario("quiet (10:00)", hour=10, cabs_online=45),
    Scenario("peak (18:00) + burst", hour=18, cabs_online=60, burst=("Rodoviária de Muriaé", 20, 30, 4)),
    Scenario("tight peak (18:00, rain)", hour=18, cabs_online=25, rate_factor=1.5, burst=("Rodoviária de Muriaé", 20, 30, 4)),
)


def demand(streets: Streets, scenario: Scenario, seed: int, landmarks: dict[str, tuple[float, float]]) -> list[tuple[float, int, int]]:
    """(second, pickup node, destination node) of each request: Poisson at the hour's rate, plus the burst."""
    rng = np.random.default_rng(seed)
    rate = HOURLY_REQUESTS[scenario.hour] * scenario.rate_factor / 3600
    times = np.cumsum(rng.exponential(1 / rate, size=int(rate * scenario.minutes * 60 * 3) + 10))
    times = list(times[times < scenario.minutes * 60])
    pickups = list(rng.choice(len(streets.lat), size=len(times), p=streets.weight))
    if scenario.burst:
        name, minute, count, over = scenario.burst
        near = streets.nodes_within(*landmarks[name], 300)
        times += list(minute * 60 + rng.uniform(0, over * 60, count))
        pickups += list(rng.choice(near, size=count))
    destinations = rng.choice(len(streets.lat), size=len(times), p=streets.weight)
    return sorted(zip(times, map(int, pickups), map(int, destinations)))


def answer(seed: int, ride: int, cab: int) -> tuple[bool, float]:
    """A driver's answer to an offer, the same whatever the policy: (accepted, seconds to answer)."""
    rng = random.Random(f"{seed}:{ride}:{cab}")
    return rng.random() < ACCEPT_SHARE, rng.uniform(*ANSWER_S)


class World:
    """One run: the fleet, the ranks, the requests, moved one second at a time; ``log`` keeps every act."""

    def __init__(self, streets: Streets, scenario: Scenario, seed: int, policy: Callable[["World"], None]):
        self.streets, self.seed, self.policy = streets, seed, policy
        self.t = 0.0
        self.log: list[tuple] = []
        classifier = default_classifier()
        self.ranks: dict[str, Rank] = {}
        titular_of: dict[int, str] = {}
        for name, lat, lon, category, permits in MURIAE_RANKS:
            ids = frozenset(int(p.split("-")[1]) for p in permits)
            zone = law.RankZone.CENTRAL if classifier.classify(lon, lat) is Zone.CENTRAL else law.RankZone.PERIPHERAL
            self.ranks[name] = Rank(name, lat, lon, law.RankFacts(law.RankCategory(category), zone, len(ids)), ids,
                                    streets.node_near(lat, lon))
            titular_of.update(dict.fromkeys(ids, name))
        rng = random.Random(seed)
        online = sorted(rng.sample(range(1, PERMITS + 1), scenario.cabs_online))
        self.cabs = {i: Cab(i, rng.random() >= NOT_ALLOWED_SHARE, titular_of.get(i),
                            int(rng.choices(range(len(streets.lat)), weights=streets.weight)[0])) for i in online}
        self.rngs = {i: random.Random(f"{seed}:cab:{i}") for i in online}
        landmarks = {f["properties"]["name"]: tuple(reversed(f["geometry"]["coordinates"]))
                     for f in json.loads((DATA_DIR / "landmarks.geojson").read_text())["features"]}
        self.pending = [Ride(i, t, p, d) for i, (t, p, d) in enumerate(demand(streets, scenario, seed, landmarks))]
        self.pending.reverse()
        self.rides: list[Ride] = []
        for cab in self.cabs.values():
            self._wander(cab)

    # where things are
    def where(self, node: int) -> tuple[float, float]:
        return float(self.streets.lat[node]), float(self.streets.lon[node])

    def free(self, cab: Cab) -> bool:
        return cab.state == "free" and cab.offer is None

    # the law at a rank
    def _try_check_in(self, cab: Cab, rank: Rank) -> None:
        distance = distance_m(*self.where(cab.node), rank.lat, rank.lon)
        present = [c for c in rank.queue if c != cab.id]
        own = sum(c in rank.titulars for c in present)
        titular = cab.id in rank.titulars
        decision = Decision.all_of(
            rank_acts.may_check_in_at(distance, CHECKIN_RADIUS_M), rank_acts.may_queue_at_rank(cab.state != "free"),
            rank_acts.may_check_in(cab.rank is not None, str(cab.id)),
            law.may_stand_at(rank.facts, titular, ON, own, len(present) - own))
        if decision:
            rank.queue.append(cab.id)
            cab.rank = rank.name
            self.log.append(("checkin", self.t, cab.id, rank.name))
        else:
            self._cruise(cab)

    def _check_out(self, cab: Cab) -> None:
        if cab.rank is not None:
            self.ranks[cab.rank].queue.remove(cab.id)
            self.log.append(("checkout", self.t, cab.id, cab.rank))
            cab.rank = None

    # moving
    def _go(self, cab: Cab, node: int) -> None:
        cab.path, cab.at = self.streets.path(cab.node, node)
        cab.driven = 0.0

    def _cruise(self, cab: Cab) -> None:
        cab.heading_rank = None
        self._go(cab, int(self.rngs[cab.id].choices(range(len(self.streets.lat)), weights=self.streets.weight)[0]))

    def _wander(self, cab: Cab) -> None:
        """A free cab: a titular to its rank; another to the nearest rank sometimes, else cruising."""
        rng = self.rngs[cab.id]
        if cab.home or rng.random() < TO_RANK_SHARE:
            lat, lon = self.where(cab.node)
            rank = self.ranks[cab.home] if cab.home else min(
                self.ranks.values(), key=lambda r: distance_m(lat, lon, r.lat, r.lon))
            cab.heading_rank = rank.name
            self._go(cab, rank.node)
        else:
            self._cruise(cab)

    def _arrive(self, cab: Cab) -> None:
        if cab.state == "to_pickup":
            ride = self.rides[cab.ride]
            ride.picked_up_at = self.t
            cab.state = "on_trip"
            self._go(cab, ride.destination)
        elif cab.state == "on_trip":
            cab.state, cab.ride = "free", None
            self.log.append(("free", self.t, cab.id))
            self._wander(cab)
        elif cab.heading_rank:
            self._try_check_in(cab, self.ranks[cab.heading_rank])
            cab.heading_rank = None
        else:
            self._wander(cab)

    def _move(self, cab: Cab, seconds: float) -> None:
        if cab.rank is not None or cab.offer is not None or not cab.path:
            return  # standing at a rank, or stopped to read an offer
        cab.driven += SPEED_MPS * seconds
        while len(cab.path) > 1 and cab.at[1] <= cab.driven:
            cab.path.pop(0)
            cab.at.pop(0)
        cab.node = cab.path[0]
        if len(cab.path) == 1:
            cab.path = []
            self._arrive(cab)

    # offers
    def offer(self, ride: Ride, cab: Cab, source: str) -> None:
        _accepted, after = answer(self.seed, ride.id, cab.id)
        cab.offer, ride.offers, ride.offered_until = ride.id, ride.offers + 1, self.t + after
        ride.tried.add(cab.id)
        self.log.append(("offer", self.t, ride.id, cab.id, source))

    def _answers(self) -> None:
        for cab in self.cabs.values():
            if cab.offer is None:
                continue
            ride = self.rides[cab.offer]
            if ride.offered_until > self.t and not ride.given_up:
                continue
            accepted = answer(self.seed, ride.id, cab.id)[0] and not ride.given_up
            cab.offer, ride.offered_until = None, None
            self.log.append(("answer", self.t, ride.id, cab.id, accepted))
            if accepted:
                self._check_out(cab)  # it took a ride: it leaves the rank (Art. 22)
                ride.cab = cab.id
                ride.pickup_road_m = self.streets.road_m(cab.node, ride.pickup)
                cab.state, cab.ride, cab.heading_rank = "to_pickup", ride.id, None
                self._go(cab, ride.pickup)

    def waiting(self) -> list[Ride]:
        """Requests with no cab and no offer pending, oldest first."""
        return [r for r in self.rides if r.open and r.offered_until is None]

    # the rule of choice (dispatch.rides.choice_rule), in memory
    def rank_queue(self, ride: Ride, taken: set[int] = frozenset()) -> list[Cab]:
        rank = rank_for_pickup(*self.where(ride.pickup), self.ranks.values())
        if rank is None:
            return []
        free = {c: self.cabs[c] for c in rank.queue
                if self.free(self.cabs[c]) and c not in ride.tried and c not in taken}
        return [cab for _position, cab in queue_order(rank.queue, free)]

    def nearest(self, ride: Ride, taken: set[int] = frozenset()) -> list[Cab]:
        lat, lon = self.where(ride.pickup)
        found = sorted((segment_distance_m(lat, lon, *self.where(c.node)), c.id) for c in self.cabs.values()
                       if self.free(c) and c.id not in ride.tried and c.id not in taken)
        return [self.cabs[i] for d, i in found[:CANDIDATES] if d <= MAX_REACH_M]

    def choose(self, ride: Ride, taken: set[int] = frozenset()) -> tuple[Cab | None, str]:
        queue = self.rank_queue(ride, taken)
        chosen, _answers = first_allowed(candidate_order(queue, self.nearest(ride, taken), key=lambda c: c.id),
                                         lambda c: c.allowed)
        return chosen, "rank" if chosen in queue else "nearest"

    # the clock
    def run(self) -> list[Ride]:
        while self.pending or any(r.open or (r.cab is not None and r.picked_up_at is None) for r in self.rides):
            while self.pending and self.pending[-1].t <= self.t:
                ride = self.pending.pop()
                self.rides.append(ride)
                self.log.append(("request", self.t, ride.id, ride.pickup))
            for ride in self.rides:
                if ride.open and self.t - ride.t >= GIVE_UP_S:
                    ride.given_up = True
            self._answers()
            self.policy(self)
            for cab in self.cabs.values():
                self._move(cab, 1.0)
            self.t += 1.0
        return self.rides


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
