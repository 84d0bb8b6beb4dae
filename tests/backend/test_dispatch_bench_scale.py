"""The K-process benchmark's helpers (benchmarks/dispatch_bench_scale.py, issue 33): the process counts it reads,
fleets built by parts that never collide, and the second load's duty cycle."""

import time

import pytest

from backend.registry.models import Person, Vehicle
from benchmarks import dispatch_bench_fleet, dispatch_bench_scale


def test_process_counts_are_read_in_order_and_must_be_positive():
    assert dispatch_bench_scale.parse_processes("1,2,4,8") == [1, 2, 4, 8]
    assert dispatch_bench_scale.scenario_name(4) == "redis-k4"
    for bad in ("", "0", "2,-1"):
        with pytest.raises(ValueError):
            dispatch_bench_scale.parse_processes(bad)


@pytest.mark.django_db
def test_fleet_parts_number_their_cabs_from_their_first_and_keep_their_own_document_numbers():
    tokens = []
    for part, first in ((0, 0), (1, 3)):
        tokens += dispatch_bench_fleet.build_fleet(3, 0, first=first, part=(part, 2))[0]
    assert len(set(tokens)) == 6
    people = Person.objects.filter(user__username__startswith="bench")
    assert sorted(int(p.user.username[5:]) for p in people) == list(range(6))
    for person in people:
        part = 0 if int(person.user.username[5:]) < 3 else 1
        assert int(person.cpf) % 2 == part and int(person.cnh) % 2 == part
        assert [int(v.renavam) % 2 for v in Vehicle.objects.filter(permit__holder=person)] == [part]


def test_the_second_load_burns_about_its_duty_of_a_core():
    burner = dispatch_bench_scale.Burner(0.5)
    try:
        deadline = time.monotonic() + 20
        while burner.cpu() < 0.05 and time.monotonic() < deadline:  # polls: spawning takes a while on a busy machine
            time.sleep(0.1)
        cpu0, t0 = burner.cpu(), time.perf_counter()
        time.sleep(2.0)  # a duration, not a wait: the burner's share is measured over two seconds
        share = (burner.cpu() - cpu0) / (time.perf_counter() - t0)
    finally:
        burner.stop()
    assert 0 < share <= 0.7  # never more than its duty (plus the clock's grain); less on a machine busy with other work
    assert not burner.process.is_alive()
