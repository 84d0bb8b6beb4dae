"""Contests for taxi permits: Cap. III of Lei 1.242/1987 (Art. 15-21) and the fleet cap (Art. 41).

Django-free. Readings of the unclear clauses are named constants below and
explained in ``docs/readings-ranks-contests.md``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Iterable, Mapping, Optional, Sequence

from .calendar import add_years
from .decision import Decision, Reason
from .i18n import gettext_noop as _
from .parameters import Parameters
from .vehicles import MAX_VEHICLE_AGE_YEARS, vehicle_age

# --- Art. 16 / Art. 17: edital and date of the contest -----------------------------------

#: Art. 16: the edital is published on 3 alternate days.
EDITAL_PUBLICATIONS = 3
#: Art. 16 reading of "dias alternados": no two publications on consecutive days (at least one
#: day between them); not necessarily exactly every other day.
EDITAL_MIN_GAP_DAYS = 2
#: Art. 17: the contest takes place at least 30 days after the last publication (the day of the
#: publication excluded: the contest may be held on the 30th day after it).
CONTEST_MIN_DAYS_AFTER_LAST_PUBLICATION = 30


def may_schedule_contest(publication_dates: Iterable[date], contest_date: date) -> Decision:
    """May the contest be held on ``contest_date``? (Art. 16, Art. 17)

    Art. 16: the edital must have been published (Órgão Oficial do Município) on at least 3
    alternate days, i.e. no two of them consecutive. Art. 17: at least 30 days from the last
    publication to the contest.
    """
    dates = sorted(set(publication_dates))
    reasons: list[Reason] = []
    if len(dates) < EDITAL_PUBLICATIONS:
        reasons.append(
            Reason(
                "Art. 16",
                "edital_too_few_publications",
                _("O edital deve ser publicado em 3 dias alternados no Órgão Oficial do Município; "
                  "houve {count} publicação(ões) (Art. 16)."),
                {"count": len(dates)},
            )
        )
    consecutive = [(a, b) for a, b in zip(dates, dates[1:]) if (b - a).days < EDITAL_MIN_GAP_DAYS]
    if consecutive:
        a, b = consecutive[0]
        reasons.append(
            Reason(
                "Art. 16",
                "edital_consecutive_days",
                _("As publicações do edital devem ser em dias alternados; {first} e {second} são dias "
                  "consecutivos (Art. 16)."),
                {"first": a, "second": b},
            )
        )
    if dates:
        earliest = dates[-1] + timedelta(days=CONTEST_MIN_DAYS_AFTER_LAST_PUBLICATION)
        if contest_date < earliest:
            reasons.append(
                Reason(
                    "Art. 17",
                    "contest_too_early",
                    _("O concurso só pode ser realizado 30 dias após a última publicação do edital "
                      "({last}), a partir de {earliest} (Art. 17)."),
                    {"last": dates[-1], "earliest": earliest},
                )
            )
    if reasons:
        return Decision.refuse(*reasons)
    return Decision.allow("Art. 16", "Art. 17")


# --- Art. 18: the commission ----------------------------------------------------------------


class CommissionBody(str, enum.Enum):
    """Bodies Art. 18 requires on the contest commission (plus any other member)."""

    CAMARA = "camara_municipal"
    EXECUTIVO = "executivo_municipal"
    DELEGACIA_TRANSITO = "delegacia_transito"
    SINDICATO = "sindicato_condutores"
    OTHER = "outro"

    @property
    def label(self) -> str:
        return {
            "camara_municipal": _("Câmara Municipal"),
            "executivo_municipal": _("Executivo Municipal"),
            "delegacia_transito": _("Delegacia de Trânsito e Acidente"),
            "sindicato_condutores": _("Sindicato dos Condutores Autônomos de Veículos Rodoviários"),
            "outro": _("Outro"),
        }[self.value]


REQUIRED_COMMISSION_BODIES = (
    CommissionBody.CAMARA,
    CommissionBody.EXECUTIVO,
    CommissionBody.DELEGACIA_TRANSITO,
    CommissionBody.SINDICATO,
)


@dataclass(frozen=True)
class CommissionMember:
    name: str
    body: CommissionBody


def check_commission(members: Iterable[CommissionMember]) -> Decision:
    """Is the contest commission lawfully composed? (Art. 18)

    At least 1 member of the Câmara Municipal, 1 of the Executivo, 1 of the Delegacia de
    Trânsito e Acidente and 1 of the Sindicato dos Condutores Autônomos; more are allowed.
    """
    present = {m.body for m in members}
    missing = [b for b in REQUIRED_COMMISSION_BODIES if b not in present]
    if not missing:
        return Decision.allow("Art. 18")
    return Decision.refuse(
        *(
            Reason(
                "Art. 18",
                "commission_missing_member",
                _("A comissão do concurso deve ter ao menos 1 representante de: {body} (Art. 18)."),
                {"body": body.label},
            )
            for body in missing
        )
    )


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


# --- Art. 41: fleet cap -------------------------------------------------------------------------


def fleet_cap(params: Parameters, on: date) -> int:
    """Maximum fleet: 1 taxi per group of 1,000 inhabitants (Art. 41, Art. 41, §1, Art. 41, §3).

    Population from IBGE (§3, parameter ``population``); the ratio (``inhabitants_per_taxi``)
    may be revised by the Executive on a study (§1). Only complete groups count (floor).
    """
    return int(params.as_of("population", on)) // int(params.as_of("inhabitants_per_taxi", on))


def may_open_contest(active_fleet: int, params: Parameters, on: date, permits_offered: int = 1) -> Decision:
    """May a contest for new permits be opened? (Art. 41, Art. 41, §2)

    Not while the registered fleet is at or above the cap (existing permits are kept, but no
    contest until the fleet is back within the limit); nor for more permits than the room left.
    """
    cap = fleet_cap(params, on)
    if active_fleet >= cap:
        return Decision.refuse(
            Reason(
                "Art. 41, §2",
                "fleet_at_cap",
                _("A frota registrada ({fleet} táxis) já atinge o limite de {cap} (1 por {ratio} habitantes); "
                  "não serão realizados concursos para novas permissões (Art. 41, §2)."),
                {"fleet": active_fleet, "cap": cap, "ratio": params.as_of("inhabitants_per_taxi", on)},
            ),
            articles=("Art. 41",),
        )
    if active_fleet + permits_offered > cap:
        return Decision.refuse(
            Reason(
                "Art. 41",
                "contest_exceeds_cap",
                _("O edital oferece {offered} permissões, mas só há {room} vaga(s) até o limite de {cap} táxis (Art. 41)."),
                {"offered": permits_offered, "room": cap - active_fleet, "cap": cap},
            )
        )
    return Decision.allow("Art. 41", "Art. 41, §2")


__all__: Sequence[str] = (
    "Allocation",
    "Candidate",
    "Classification",
    "CommissionBody",
    "CommissionMember",
    "Ranked",
    "Score",
    "allocate",
    "check_commission",
    "classify_candidates",
    "experience_points",
    "fleet_cap",
    "may_open_contest",
    "may_schedule_contest",
    "model_year_points",
    "no_accident_points",
    "score",
    "vehicle_admissible",
)


# --- the edital, the proposals and the result (Art. 16, 19, 21, 27) ------------------------------------


def check_edital(rank_ids: Sequence[object], promotion: bool, peripheral_ranks: Sequence[str]) -> Decision:
    """The edital names each rank once with its permits (Art. 16); a promotion offers central ranks only (Art. 27)."""
    reasons = []
    if not rank_ids:
        reasons.append(Reason("Art. 16", "edital_without_ranks",
                              _("O edital deve indicar os pontos e o número de permissões de cada um (Art. 16).")))
    elif len(set(rank_ids)) != len(rank_ids):
        reasons.append(Reason("Art. 16", "edital_rank_twice", _("Cada ponto aparece uma única vez no edital (Art. 16).")))
    if promotion and peripheral_ranks:
        reasons.append(Reason(
            "Art. 27", "promotion_peripheral_rank",
            _("O concurso de promoção é para vagas em pontos da zona central; fora dela: {ranks} (Art. 27)."),
            {"ranks": ", ".join(peripheral_ranks)}))
    return Decision.refuse(*reasons) if reasons else Decision.allow("Art. 16")


def may_register_proposal(contest_open: bool, preferred_outside_edital: bool, already_registered: bool, name: str) -> Decision:
    """A proposal is registered once, while the contest is open, preferring only ranks of the edital (Art. 16, Art. 19)."""
    if not contest_open:
        return Decision.refuse(Reason("Art. 19", "contest_classified", _("O resultado deste concurso já foi publicado.")))
    reasons = []
    if preferred_outside_edital:
        reasons.append(Reason("Art. 19", "preferred_rank_not_in_edital", _("Os pontos preferidos devem estar no edital (Art. 16, Art. 19).")))
    if already_registered:
        reasons.append(Reason("Art. 19", "candidate_twice", _("{name} já está inscrito neste concurso."), {"name": name}))
    return Decision.refuse(*reasons) if reasons else Decision.allow("Art. 19")


def may_publish_result(status: str, contest_date: date, published_on: date, tied_names: Sequence[str]) -> Decision:
    """The result of a classified contest, after it, with no tie left for the draw (Art. 19, Art. 21).

    ``status`` is ``"published"`` (edital only), ``"classified"`` or ``"granted"``.
    """
    if status == "published":
        return Decision.refuse(Reason("Art. 19", "contest_not_classified", _("O concurso ainda não foi classificado (Art. 19).")))
    if status == "granted":
        return Decision.refuse(Reason("Art. 19", "result_already_published",
                                      _("O resultado deste concurso já foi publicado e levado ao cadastro.")))
    if published_on < contest_date:
        return Decision.refuse(Reason("Art. 19", "result_before_contest",
                                      _("O resultado não pode ser publicado antes do concurso ({contest_date})."),
                                      {"contest_date": contest_date}))
    if tied_names:
        return Decision.refuse(Reason(
            "Art. 21", "draw_pending",
            _("Empate não resolvido pelo Art. 21 nem pela ordem de inscrição: registre antes o sorteio público "
              "da comissão ({names})."), {"names": ", ".join(tied_names)}))
    return Decision.allow("Art. 19")


def may_record_draw(classified: bool, is_one_tie: bool, contest_date: date, drawn_on: date) -> Decision:
    """The commission's public draw orders one whole tie left by Art. 21, after the contest and
    before the result (Art. 18, § único, Art. 21)."""
    if not classified:
        return Decision.refuse(Reason("Art. 21", "draw_not_classified",
                                      _("O sorteio de desempate é feito depois da classificação e antes da publicação do resultado (Art. 19, Art. 21).")))
    reasons = []
    if not is_one_tie:
        reasons.append(Reason("Art. 21", "draw_not_a_tie",
                              _("O sorteio deve ordenar todos, e só, os candidatos de um mesmo empate não resolvido pelo Art. 21 "
                                "e pela ordem de inscrição.")))
    if drawn_on < contest_date:
        reasons.append(Reason("Art. 21", "draw_before_contest", _("O sorteio não pode ser anterior ao concurso ({contest_date})."),
                              {"contest_date": contest_date}))
    return Decision.refuse(*reasons) if reasons else Decision.allow("Art. 18, § único", "Art. 21")


def may_grant_vacancy(holders_of_vacancies: int, params: Parameters, on: date) -> Decision:
    """A new permit only while the permits holding a vacancy (active or awaiting the term) are below the cap
    (Art. 15, Art. 41, §2)."""
    cap = fleet_cap(params, on)
    if holders_of_vacancies < cap:
        return Decision.allow("Art. 15", "Art. 41, §2")
    return Decision.refuse(Reason(
        "Art. 41, §2", "fleet_cap_reached",
        _("Já há {fleet} permissões ativas ou aguardando o termo, o limite de {cap} (1 por {ratio} habitantes); "
          "nenhuma nova permissão pode ser outorgada (Art. 15, Art. 41, §2)."),
        {"fleet": holders_of_vacancies, "cap": cap, "ratio": params.as_of("inhabitants_per_taxi", on)},
    ), articles=("Art. 15",))
