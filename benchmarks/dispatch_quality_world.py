"""The world of benchmarks/dispatch_quality.py (docs/dispatch-quality.md): Muriaé's streets as a graph, the ranks,
cabs and rides, the scenarios' seeded demand and drivers' answers, and the second-by-second simulation in which a
policy (greedy or batched, in dispatch_quality.py) offers the waiting rides. In memory, no database and no sockets;
the law is the law core's and the choice ``dispatch.rides.choice_rule``, the live dispatcher's rule."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from pathlib import Path

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components, dijkstra
from scipy.spatial import cKDTree

from backend.ranks.demo import MURIAE_RANKS  # a plain list: no Django
from dispatch.rides.choice_rule import candidate_order, first_allowed, queue_order, rank_for_pickup
from taxilaw import rank_acts
from taxilaw import ranks as law
from taxilaw.decision import Decision
from taxilaw.geodesy import distance_m, segment_distance_m
from taxilaw.parameters import DEFAULT_PARAMETERS
from zones import Zone, default_classifier
from zones.geojson import DATA_DIR

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
