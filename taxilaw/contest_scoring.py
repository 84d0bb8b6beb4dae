"""Scoring a permit contest (Art. 20), its tie-breakers and classification (Art. 21, Art. 19) and the
allocation of vacancies. Readings of the unclear clauses in docs/readings-ranks-contests.md. Django-free.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Iterable, Mapping, Optional, Sequence

from .calendar import add_years
from .decision import Decision, Reason
from .i18n import gettext_noop as _
from .vehicles import MAX_VEHICLE_AGE_YEARS, vehicle_age

# --- Art. 20: scoring ------------------------------------------------------------------------

#: Art. 20, I: (max years before the contest year, points); model years after it score 100.
MODEL_YEAR_POINTS_AFTER = 100  # Art. 20, I, a
MODEL_YEAR_POINTS: tuple[tuple[int, int], ...] = (
    (0, 90),  # Art. 20, I, b: same year
    (3, 75),  # Art. 20, I, c: 1 to 3 years before
    (5, 50),  # Art. 20, I, d: 4 to 5 years before
    (7, 25),  # Art. 20, I, e: 6 to 7 years before
)
#: Art. 20, I reading: a vehicle more than 7 years before the contest year scores 0 for the
#: model year but stays admissible as long as Art. 28 admits it (at most 10 years of manufacture
#: on 31 December of the contest year, Art. 28, § único).
UNSCORED_OLD_VEHICLE_ADMISSIBLE = True

#: Art. 20, II: points by years in the profession, documented.
EXPERIENCE_POINTS_OVER_15 = 100  # a: more than 15 years
EXPERIENCE_BANDS: tuple[tuple[int, int], ...] = (
    (10, 80),  # b: 10 to 15 years
    (6, 60),  # c: 6 to 9 years (9 years and some months: still c, the gap 9-10 read downward)
    (3, 40),  # d: 3 to 5 years (exactly 3 years: d; 5 years and some months: still d)
)
EXPERIENCE_POINTS_UNDER_3 = 20  # e
EXPERIENCE_POINTS_UNPROVEN = 0  # f
#: Art. 20, III: no accident in the last 5 years, with the traffic authority's certificate.
NO_ACCIDENT_POINTS = 50


def model_year_points(model_year: int, contest_year: int) -> int:
    """Points for the model year of the proposed vehicle (Art. 20, I, a-e).

    a) after the contest year: 100; b) same year: 90; c) 1-3 years before: 75;
    d) 4-5 years before: 50; e) 6-7 years before: 25; older: 0 (see :func:`vehicle_admissible`).
    """
    before = contest_year - model_year
    if before < 0:
        return MODEL_YEAR_POINTS_AFTER
    for top, points in MODEL_YEAR_POINTS:
        if before <= top:
            return points
    return 0


def vehicle_admissible(model_year: int, contest_date: date) -> Decision:
    """May the proposed vehicle enter the contest at all? (Art. 28, Art. 28, § único, Art. 20, I)

    The age is taken on 31 December of the contest year (Art. 28, § único): a vehicle that
    would then exceed 10 years of manufacture could not be admitted to the service, so it cannot
    win a permit. Vehicles older than Art. 20, I, e but within Art. 28 are admissible with 0
    points for the model year (``UNSCORED_OLD_VEHICLE_ADMISSIBLE``).
    """
    age = vehicle_age(model_year, date(contest_date.year, 12, 31))
    if age > MAX_VEHICLE_AGE_YEARS or (
        not UNSCORED_OLD_VEHICLE_ADMISSIBLE and model_year_points(model_year, contest_date.year) == 0
    ):
        return Decision.refuse(
            Reason(
                "Art. 28",
                "contest_vehicle_too_old",
                _("O veículo proposto (ano modelo {model_year}) terá {age} anos de fabricação em 31/12/{year}; "
                  "o máximo é 10 (Art. 28)."),
                {"model_year": model_year, "age": age, "year": contest_date.year},
            ),
            articles=("Art. 28, § único",),
        )
    return Decision.allow("Art. 28", "Art. 20, I")


def _completed_years(since: date, on: date) -> int:
    if on < since:
        return 0
    years = on.year - since.year
    if add_years(since, years) > on:
        years -= 1
    return max(years, 0)


def experience_points(profession_since: Optional[date], on: date) -> int:
    """Points for documented years in the profession (Art. 20, II, a-f).

    ``profession_since`` is the documented start (None: not proven -> f, 0). a) more than 15
    years (15 years and one day): 100; b) 10 to 15: 80; c) 6 to 9: 60; d) 3 to 5 (exactly 3
    included): 40; e) less than 3: 20. Years are whole years completed on the contest date, so
    the gaps the text leaves (9-10, 5-6) fall to the lower band.
    """
    if profession_since is None:
        return EXPERIENCE_POINTS_UNPROVEN
    if on > add_years(profession_since, 15):
        return EXPERIENCE_POINTS_OVER_15
    years = _completed_years(profession_since, on)
    for low, points in EXPERIENCE_BANDS:
        if years >= low:
            return points
    return EXPERIENCE_POINTS_UNDER_3


def no_accident_points(certificate: bool) -> int:
    """50 points with the certificate of no traffic accident in the last 5 years, else 0 (Art. 20, III, a, Art. 20, III, b)."""
    return NO_ACCIDENT_POINTS if certificate else 0


@dataclass(frozen=True)
class Candidate:
    """A candidate's proposal (Art. 20) and the facts for the tie-breakers (Art. 21).

    ``profession_since``: documented start in the profession (Art. 20, II), None if unproven.
    ``driver_since``: date of the driving licence, "tempo de habilitação como motorista"
    (Art. 21, II; the published text says "habitação"). ``resident_since``: residence in
    Muriaé (Art. 21, III). ``registered_at``: registration (protocol) order, the last resort.
    ``preferred_ranks``: ranks of the edital in the candidate's order of preference (Art. 19).
    """

    id: str
    model_year: int
    profession_since: Optional[date]
    no_accident_certificate: bool
    dependants: int = 0
    driver_since: Optional[date] = None
    resident_since: Optional[date] = None
    registered_at: Optional[datetime] = None
    holds_permit: bool = False
    preferred_ranks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Score:
    """Points of one candidate (Art. 20) and whether the proposal is admissible (Art. 28)."""

    candidate_id: str
    model_year: int
    experience: int
    qualification: int
    admissible: Decision

    @property
    def total(self) -> int:
        return self.model_year + self.experience + self.qualification


def score(candidate: Candidate, contest_date: date) -> Score:
    """Score a proposal (Art. 20, I, Art. 20, II, Art. 20, III)."""
    return Score(
        candidate.id,
        model_year_points(candidate.model_year, contest_date.year),
        experience_points(candidate.profession_since, contest_date),
        no_accident_points(candidate.no_accident_certificate),
        vehicle_admissible(candidate.model_year, contest_date),
    )


# --- Art. 21: tie-breakers, Art. 19: classification and allocation -----------------------------

#: After Art. 21, I-III the law is silent. Reading: the earlier registration (protocol) wins;
#: candidates with no registration time, or registered at the same instant, go to a public draw
#: (sorteio) by the commission: they are flagged ``needs_draw``.
FINAL_TIE_BREAK = "registration_order"


def _length(since: Optional[date], on: date) -> int:
    """Days of a documented period up to ``on``; 0 when not proven."""
    return max((on - since).days, 0) if since is not None else 0


def _tie_keys(c: Candidate, s: Score, on: date) -> tuple[tuple[str, object], ...]:
    return (
        ("Art. 20", s.total),
        ("Art. 21, I", c.dependants),
        ("Art. 21, II", _length(c.driver_since, on)),
        ("Art. 21, III", _length(c.resident_since, on)),
        (FINAL_TIE_BREAK, -(c.registered_at.timestamp()) if c.registered_at else float("-inf")),
    )


@dataclass(frozen=True)
class Ranked:
    """A classified candidate: position (1-based), score, and what put them ahead of the next one."""

    position: int
    candidate: Candidate
    score: Score
    decided_by: Optional[str] = None  # "Art. 20", "Art. 21, I", ..., FINAL_TIE_BREAK, or None (last / draw)
    needs_draw: bool = False


@dataclass(frozen=True)
class Classification:
    ranked: tuple[Ranked, ...]
    excluded: tuple[tuple[Candidate, Decision], ...] = ()


def classify_candidates(
    candidates: Iterable[Candidate],
    contest_date: date,
    promotion: bool = False,
) -> Classification:
    """Classify the proposals in descending order of total points (Art. 19, Art. 20, Art. 21).

    Ties are broken, in order, by more dependants (Art. 21, I), longer time as a licensed driver
    (Art. 21, II), longer residence in the municipality (Art. 21, III), then
    ``FINAL_TIE_BREAK``. Inadmissible vehicles (Art. 28) are excluded, and in a promotion contest
    (Art. 27) so are candidates who hold no permit.
    """
    admitted: list[tuple[Candidate, Score]] = []
    excluded: list[tuple[Candidate, Decision]] = []
    for c in candidates:
        s = score(c, contest_date)
        checks = [s.admissible]
        if promotion and not c.holds_permit:
            checks.append(
                Decision.refuse(
                    Reason(
                        "Art. 27",
                        "promotion_contest_permit_holders_only",
                        _("Vagas em pontos da zona central são preenchidas por promoção, em concurso restrito "
                          "aos detentores de permissão (Art. 27)."),
                    )
                )
            )
        decision = Decision.all_of(*checks)
        if decision:
            admitted.append((c, s))
        else:
            excluded.append((c, decision))

    keyed = [(tuple(v for _, v in _tie_keys(c, s, contest_date)), c, s) for c, s in admitted]
    keyed.sort(key=lambda t: t[0], reverse=True)
    labels = [label for label, _ in _tie_keys(admitted[0][0], admitted[0][1], contest_date)] if admitted else []
    ranked: list[Ranked] = []
    for i, (key, c, s) in enumerate(keyed):
        decided_by, draw = None, False
        if i + 1 < len(keyed):
            nxt = keyed[i + 1][0]
            diff = next((j for j, (a, b) in enumerate(zip(key, nxt)) if a != b), None)
            if diff is None:
                draw = True
            else:
                decided_by = labels[diff]
        if i > 0 and keyed[i - 1][0] == key:
            draw = True
        ranked.append(Ranked(i + 1, c, s, decided_by, draw))
    return Classification(tuple(ranked), tuple(excluded))


@dataclass(frozen=True)
class Allocation:
    """Who gets which rank (Art. 19): ``by_rank`` rank id -> candidate ids in classification order."""

    by_rank: Mapping[str, tuple[str, ...]]
    unallocated: tuple[str, ...] = ()


def allocate(classification: Classification, vacancies: Mapping[str, int]) -> Allocation:
    """Allocate the vehicles to the ranks of the edital in descending order of points (Art. 19, Art. 16).

    ``vacancies`` are the ranks and permits per rank the edital lists (Art. 16), in edital
    order. Each candidate, in classification order, takes the first rank of their preference
    that still has a vacancy; without preferences, the first rank of the edital with a vacancy.
    Candidates left when no preferred rank has room are unallocated.
    """
    left = dict(vacancies)
    by_rank: dict[str, list[str]] = {rank: [] for rank in vacancies}
    unallocated: list[str] = []
    for entry in classification.ranked:
        choices = entry.candidate.preferred_ranks or tuple(vacancies)
        for rank in choices:
            if left.get(rank, 0) > 0:
                left[rank] -= 1
                by_rank[rank].append(entry.candidate.id)
                break
        else:
            unallocated.append(entry.candidate.id)
    return Allocation({k: tuple(v) for k, v in by_rank.items()}, tuple(unallocated))


__all__: Sequence[str] = (
    "Allocation",
    "Candidate",
    "Classification",
    "Ranked",
    "Score",
    "allocate",
    "classify_candidates",
    "experience_points",
    "model_year_points",
    "no_accident_points",
    "score",
    "vehicle_admissible",
)
