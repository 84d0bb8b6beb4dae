"""Contests: Art. 16-21, Art. 27 (promotion), Art. 28 (admissibility), Art. 41 (fleet cap)."""

from datetime import date, datetime

import pytest

from taxilaw.contest_scoring import (
    Candidate,
    allocate,
    classify_candidates,
    experience_points,
    model_year_points,
    no_accident_points,
    score,
    vehicle_admissible,
)
from taxilaw.contests import (
    CommissionBody,
    CommissionMember,
    check_commission,
    fleet_cap,
    may_open_contest,
    may_schedule_contest,
)
from taxilaw.parameters import DatedValue, Parameters, default_parameters

CONTEST = date(2026, 8, 20)


# --- Art. 16 / 17 ----------------------------------------------------------------------------


@pytest.mark.article("Art. 16", "Art. 17")
def test_three_alternate_publications_and_30_days():
    pubs = [date(2026, 7, 1), date(2026, 7, 3), date(2026, 7, 6)]
    assert may_schedule_contest(pubs, date(2026, 8, 5)).allowed  # exactly 30 days after 6 July
    early = may_schedule_contest(pubs, date(2026, 8, 4))
    assert not early.allowed and early.codes == ("contest_too_early",)
    assert early.reasons[0].article == "Art. 17"


@pytest.mark.article("Art. 16")
def test_publications_on_consecutive_days_or_too_few_are_refused():
    consecutive = may_schedule_contest([date(2026, 7, 1), date(2026, 7, 2), date(2026, 7, 4)], date(2026, 9, 1))
    assert not consecutive.allowed and consecutive.codes == ("edital_consecutive_days",)
    two = may_schedule_contest([date(2026, 7, 1), date(2026, 7, 3)], date(2026, 9, 1))
    assert not two.allowed and two.codes == ("edital_too_few_publications",)
    none = may_schedule_contest([], date(2026, 9, 1))
    assert none.codes == ("edital_too_few_publications",)


# --- Art. 18 -----------------------------------------------------------------------------------


def member(body, name="x"):
    return CommissionMember(name, body)


@pytest.mark.article("Art. 18")
def test_commission_needs_one_of_each_body():
    full = [member(b) for b in (CommissionBody.CAMARA, CommissionBody.EXECUTIVO,
                                CommissionBody.DELEGACIA_TRANSITO, CommissionBody.SINDICATO, CommissionBody.OTHER)]
    assert check_commission(full).allowed
    missing = check_commission(full[:2] + [member(CommissionBody.EXECUTIVO)])
    assert not missing.allowed and missing.codes == ("commission_missing_member",) * 2
    assert "Delegacia de Trânsito" in missing.reasons[0].message


# --- Art. 20 -------------------------------------------------------------------------------------


@pytest.mark.article("Art. 20, I, a", "Art. 20, I, b", "Art. 20, I, c", "Art. 20, I, d", "Art. 20, I, e")
@pytest.mark.parametrize(
    "model_year,points",
    [(2027, 100), (2026, 90), (2025, 75), (2023, 75), (2022, 50), (2021, 50), (2020, 25), (2019, 25), (2018, 0)],
)
def test_model_year_points(model_year, points):
    assert model_year_points(model_year, 2026) == points


@pytest.mark.article("Art. 28", "Art. 20, I")
def test_old_vehicle_admissible_without_points_until_art_28_limit():
    # 2017: 9 years before 2026, 10 years of manufacture on 31/12/2026: admitted, 0 points
    assert vehicle_admissible(2017, CONTEST).allowed
    assert model_year_points(2017, 2026) == 0
    # 2016: 11 years on 31/12/2026: not admissible
    d = vehicle_admissible(2016, CONTEST)
    assert not d.allowed and d.codes == ("contest_vehicle_too_old",)


@pytest.mark.article("Art. 20, II, a", "Art. 20, II, b", "Art. 20, II, c", "Art. 20, II, d",
                     "Art. 20, II, e", "Art. 20, II, f")
@pytest.mark.parametrize(
    "since,points",
    [
        (date(2011, 8, 19), 100),  # 15 years and a day: more than 15
        (date(2011, 8, 20), 80),  # exactly 15: b
        (date(2016, 8, 20), 80),  # exactly 10: b
        (date(2016, 8, 21), 60),  # 9 years and 364 days: the 9-10 gap read as c
        (date(2020, 8, 20), 60),  # exactly 6: c
        (date(2020, 8, 21), 40),  # 5 years and 364 days: d
        (date(2023, 8, 20), 40),  # exactly 3: d
        (date(2023, 8, 21), 20),  # under 3: e
        (None, 0),  # not proven: f
    ],
)
def test_experience_points(since, points):
    assert experience_points(since, CONTEST) == points


@pytest.mark.article("Art. 20, III, a", "Art. 20, III, b")
def test_no_accident_certificate():
    assert no_accident_points(True) == 50
    assert no_accident_points(False) == 0


@pytest.mark.article("Art. 20")
def test_score_total():
    c = Candidate("a", 2026, date(2010, 1, 1), True)
    s = score(c, CONTEST)
    assert (s.model_year, s.experience, s.qualification, s.total) == (90, 100, 50, 240)


# --- Art. 21 / Art. 19 -----------------------------------------------------------------------------


def cand(id, dependants=0, driver=date(2000, 1, 1), resident=date(2000, 1, 1), registered=9, **kw):
    base = dict(model_year=2025, profession_since=date(2019, 1, 1), no_accident_certificate=True)  # 75+60+50
    base.update(kw)
    return Candidate(id, dependants=dependants, driver_since=driver, resident_since=resident,
                     registered_at=datetime(2026, 7, 10, registered), **base)


# Each tie-breaker decides exactly one tie:
TABLE = [
    cand("top", model_year=2027),  # 100+60+50: first on points (Art. 20)
    cand("dep3", dependants=3),  # 185 ties with the rest; most dependants (Art. 21, I)
    cand("dep2-driver-old", dependants=2, driver=date(1990, 1, 1)),  # longer licence (Art. 21, II)
    cand("dep2-resident-old", dependants=2, resident=date(1980, 1, 1)),  # longer residence (Art. 21, III)
    cand("dep2-early", dependants=2, registered=8),  # all equal: earlier registration
    cand("dep2-late", dependants=2, registered=11),
    cand("old-car", model_year=2016),  # Art. 28: excluded
]


@pytest.mark.article("Art. 19", "Art. 21, I", "Art. 21, II", "Art. 21, III")
def test_tie_breakers_in_order():
    result = classify_candidates(TABLE, CONTEST)
    order = [r.candidate.id for r in result.ranked]
    assert order == ["top", "dep3", "dep2-driver-old", "dep2-resident-old", "dep2-early", "dep2-late"]
    decided = [r.decided_by for r in result.ranked]
    assert decided == ["Art. 20", "Art. 21, I", "Art. 21, II", "Art. 21, III", "registration_order", None]
    assert [r.position for r in result.ranked] == [1, 2, 3, 4, 5, 6]
    assert [c.id for c, _ in result.excluded] == ["old-car"]
    assert not any(r.needs_draw for r in result.ranked)


@pytest.mark.article("Art. 21, III")
def test_full_tie_without_registration_order_goes_to_draw():
    a = Candidate("a", 2025, None, False)
    b = Candidate("b", 2025, None, False)
    ranked = classify_candidates([a, b], CONTEST).ranked
    assert all(r.needs_draw for r in ranked) and ranked[0].decided_by is None


@pytest.mark.article("Art. 27")
def test_promotion_contest_excludes_non_holders():
    holder = cand("holder", holds_permit=True)
    outsider = cand("outsider", model_year=2027)
    result = classify_candidates([holder, outsider], CONTEST, promotion=True)
    assert [r.candidate.id for r in result.ranked] == ["holder"]
    assert result.excluded[0][1].codes == ("promotion_contest_permit_holders_only",)


@pytest.mark.article("Art. 19", "Art. 16")
def test_allocation_in_descending_order_with_preferences():
    people = [
        cand("p1", model_year=2027, preferred_ranks=("R1",)),
        cand("p2", dependants=5, preferred_ranks=("R1", "R2")),
        cand("p3", dependants=4, preferred_ranks=("R1",)),
        cand("p4", dependants=3),
    ]
    alloc = allocate(classify_candidates(people, CONTEST), {"R1": 1, "R2": 1, "R3": 1})
    assert alloc.by_rank == {"R1": ("p1",), "R2": ("p2",), "R3": ("p4",)}
    assert alloc.unallocated == ("p3",)


# --- Art. 41 ------------------------------------------------------------------------------------------


@pytest.mark.article("Art. 41", "Art. 41, §3")
def test_fleet_cap_from_population():
    params = default_parameters()
    assert fleet_cap(params, date(2026, 1, 1)) == 104  # 104,108 // 1,000 (IBGE 2022)
    assert fleet_cap(params, date(2015, 1, 1)) == 100  # 100,765 (IBGE 2010)


@pytest.mark.article("Art. 41, §2")
def test_contest_blocked_at_or_above_cap():
    params = default_parameters()
    on = date(2026, 1, 1)
    assert may_open_contest(103, params, on).allowed
    at_cap = may_open_contest(104, params, on)
    assert not at_cap.allowed and at_cap.codes == ("fleet_at_cap",)
    assert not may_open_contest(120, params, on).allowed
    too_many = may_open_contest(100, params, on, permits_offered=5)
    assert not too_many.allowed and too_many.codes == ("contest_exceeds_cap",)
    assert may_open_contest(100, params, on, permits_offered=4).allowed


@pytest.mark.article("Art. 41, §1")
def test_revised_ratio_changes_the_cap():
    revised = Parameters([
        DatedValue("population", date(2022, 8, 1), 104108, "IBGE"),
        DatedValue("inhabitants_per_taxi", date(1987, 12, 28), 1000, "Lei"),
        DatedValue("inhabitants_per_taxi", date(2027, 1, 1), 800, "decree (example)"),
    ])
    assert fleet_cap(revised, date(2026, 12, 31)) == 104
    assert fleet_cap(revised, date(2027, 1, 1)) == 130


@pytest.mark.article("Art. 19")
def test_art_19_a_classified_candidate_refused_the_grant_is_named_by_position():
    from taxilaw.contests import winner_refused

    reason = winner_refused(2, "Ana")
    assert reason.article == "Art. 19" and reason.message.startswith("2º classificado, Ana: a outorga não é possível")
