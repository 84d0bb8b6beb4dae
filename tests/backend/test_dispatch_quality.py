"""The dispatch-quality simulation (benchmarks/dispatch_quality.py, its world in dispatch_quality_world.py) keeps
the law under both policies: its log of acts is replayed here against the rules, computed apart from the simulation's
own bookkeeping."""

from collections import defaultdict

import pytest

from benchmarks.dispatch_quality import FIELDS, batched, greedy, report, table
from benchmarks.dispatch_quality_world import ON, Scenario, Streets, World
from dispatch.rides.choice_rule import RANK_RADIUS_M
from taxilaw import ranks as law
from taxilaw.geodesy import distance_m

SMALL = Scenario("small burst", hour=18, cabs_online=40, minutes=12, burst=("Rodoviária de Muriaé", 8, 12, 2))


@pytest.fixture(scope="module")
def streets():
    return Streets()


POLICIES = {"greedy": greedy, "batched": batched(5), "batched, aged": batched(5, age_credit=3.0)}


@pytest.fixture(scope="module", params=list(POLICIES))
def world(request, streets):
    w = World(streets, SMALL, seed=7, policy=POLICIES[request.param])
    w.run()
    return w


def replay(world: World, log: list[tuple]) -> dict:
    """Replay the acts; an AssertionError names the first that breaks a rule. Returns what was seen."""
    queues = {name: [] for name in world.ranks}
    pending, busy, tried, pickups, seen = {}, set(), defaultdict(set), {}, defaultdict(int)
    for event in log:
        kind = event[0]
        seen[kind] += 1
        if kind == "request":
            pickups[event[2]] = world.where(event[3])
        elif kind == "checkin":
            _k, _t, cab, name = event
            rank = world.ranks[name]
            assert cab not in busy and all(cab not in q for q in queues.values()), event
            own = sum(c in rank.titulars for c in queues[name])
            assert law.may_stand_at(rank.facts, cab in rank.titulars, ON, own, len(queues[name]) - own), event
            queues[name].append(cab)
            seen["visitor checkins"] += rank.facts.category is law.RankCategory.PRIVATE and cab not in rank.titulars
        elif kind == "checkout":
            queues[event[3]].remove(event[2])
        elif kind == "offer":
            _k, _t, ride, cab, _source = event
            assert cab not in pending, f"{event}: the cab holds an offer for ride {pending.get(cab)}"
            assert cab not in busy, f"{event}: the cab is serving a ride"
            assert world.cabs[cab].allowed, f"{event}: the registry does not allow this cab"
            assert cab not in tried[ride], f"{event}: offered this ride before"
            lat, lon = pickups[ride]
            near = [(distance_m(lat, lon, r.lat, r.lon), name) for name, r in world.ranks.items()]
            d, name = min(near)
            if d <= RANK_RADIUS_M:
                head = next((c for c in queues[name] if c not in pending and c not in busy
                             and world.cabs[c].allowed and c not in tried[ride]), None)
                assert head is None or cab == head, f"{event}: the rank's queue at {name} is first, its head is {head}"
                seen["rank offers"] += head is not None
            pending[cab] = ride
            tried[ride].add(cab)
        elif kind == "answer":
            _k, _t, ride, cab, accepted = event
            assert pending.pop(cab) == ride, event
            if accepted:
                busy.add(cab)
                seen["accepted"] += 1
        elif kind == "free":
            busy.remove(event[2])
    return seen


@pytest.mark.article("Art. 22", "Art. 27, §3", "Art. 66")
def test_both_policies_keep_rank_queues_one_offer_per_cab_and_the_registry(world):
    seen = replay(world, world.log)
    # the scenario exercises what is checked: ranks are used, their queues serve, rides are served
    assert seen["checkin"] > 5 and seen["rank offers"] > 0 and seen["accepted"] > 10, dict(seen)
    assert all(r.cab is None or r.cab in world.cabs for r in world.rides)
    assert sum(1 for r in world.rides if r.cab is not None) == seen["accepted"]  # one cab per ride


def test_the_replay_catches_a_queue_jumped_and_a_second_offer(world):
    log = list(world.log)
    i = next(i for i, e in enumerate(log) if e[0] == "offer" and e[4] == "rank")
    busy = {e[3] for e in log[:i] if e[0] == "answer" and e[4]}  # a cab that never took a ride before is free
    other = next(c for c in world.cabs if c != log[i][3] and world.cabs[c].allowed and c not in busy
                 and not any(e[0] == "offer" and e[3] == c for e in log[:i]))
    with pytest.raises(AssertionError, match="queue at"):
        replay(world, [*log[:i], (*log[i][:3], other, "nearest"), *log[i + 1:]])
    j = next(j for j, e in enumerate(log) if e[0] == "offer")
    with pytest.raises(AssertionError, match="holds an offer"):
        replay(world, [*log[:j + 1], ("offer", log[j][1], -1, log[j][3], "nearest"), *log[j + 1:]])


def test_same_demand_and_cabs_for_both_policies(streets):
    a, b = World(streets, SMALL, 7, greedy), World(streets, SMALL, 7, batched(5))
    assert [(r.t, r.pickup, r.destination) for r in a.pending] == [(r.t, r.pickup, r.destination) for r in b.pending]
    assert {i: (c.node, c.allowed, c.home) for i, c in a.cabs.items()} == {i: (c.node, c.allowed, c.home) for i, c in b.cabs.items()}


def test_the_report_has_its_fields_side_by_side(world):
    figures = report([(world.rides, world.log)])
    assert set(figures) == set(FIELDS)
    assert figures["requests"] == len(world.rides) > 0
    assert 0 < figures["served_share"] <= 1 and figures["offers_per_ride"] >= 1
    assert figures["wait_p90_s"] >= figures["wait_mean_s"] * 0.5 > 0 and figures["pickup_mean_m"] > 0
    printed = table(SMALL, {"greedy": figures, "batched 5 s": figures})
    assert "greedy" in printed and "batched 5 s" in printed
    assert all(key in printed for key in FIELDS[1:])
