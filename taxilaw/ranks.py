"""Taxi ranks (pontos): Cap. IV of Lei 1.242/1987 (Art. 22-27) and Art. 9, V.

Django-free and geometry-free: the zone of a rank (Art. 24 central /
Art. 25 peripheral) is computed by ``zones`` and passed in as a
:class:`RankZone` value. Readings of ambiguous clauses are named constants
below and explained in ``docs/readings-ranks-contests.md``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Iterable, Optional, Sequence

from .calendar import add_years
from .decision import Decision, Reason
from .i18n import gettext_noop as _

# --- constants the law fixes, and the readings of the unclear ones -----------------

#: Art. 26, §3: both holders registered at their current ranks for MORE than this many years.
SWAP_MIN_TENURE_YEARS = 2
#: Art. 27, §3: visitors may stand only while at most this many of the rank's own cabs are there.
VISITOR_MAX_OWN_CABS_PRESENT = 3
#: Art. 27, §3: (largest titular count of the band, visitors allowed). Above the last band: 3.
VISITOR_BANDS: tuple[tuple[int, int], ...] = ((5, 1), (10, 2))
VISITOR_MAX_LARGE_RANK = 3
#: Art. 27, §3 reading: in a rank of up to 5 titulars the single visitor may stand only when the
#: rank has no vehicle at all ("somente quando desprovidos de veículos"): no own cab and no visitor.
SMALL_RANK_MAX_TITULARS = 5
#: Art. 27, §2: number of consecutive observations finding the rank empty.
STAFFING_CONSECUTIVE_OBSERVATIONS = 3
#: Art. 27, §2: minimum duration of each observation ("duração mínima de 3 horas").
STAFFING_MIN_OBSERVATION = timedelta(hours=3)
#: Art. 27, §2 reading: an observation shorter than the minimum is not an observation in the
#: sense of the law: it neither counts nor breaks a run. An observation of any length that found a
#: cab at the rank breaks the run.
STAFFING_SHORT_OBSERVATIONS_BREAK_RUN = False


class RankCategory(str, enum.Enum):
    """Art. 22: private ranks (I) have cabs designated to them; free ranks (II) serve any taxi."""

    PRIVATE = "privativo"
    FREE = "livre"

    @property
    def article(self) -> str:
        return "Art. 22, I" if self is RankCategory.PRIVATE else "Art. 22, II"


class RankZone(str, enum.Enum):
    """Zone of a rank, as computed by ``zones`` (Art. 24 central, Art. 25 peripheral)."""

    CENTRAL = "central"
    PERIPHERAL = "peripheral"


@dataclass(frozen=True)
class RankFacts:
    """What the rules need to know about a rank.

    ``temporary`` ranks are the provisional free ranks of Art. 23, § único;
    their duration is ``opens_on``..``closes_on`` (both inclusive).
    ``titular_count`` is the number of cabs designated to a private rank.
    """

    category: RankCategory
    zone: RankZone
    titular_count: int = 0
    temporary: bool = False
    opens_on: Optional[date] = None
    closes_on: Optional[date] = None


# --- Art. 22 / Art. 23 ---------------------------------------------------------------


def rank_is_open(rank: RankFacts, on: date) -> Decision:
    """Is the rank in operation on ``on``? (Art. 23, Art. 23, § único)

    Permanent ranks (located by the competent body, Art. 23) are open. A
    provisional rank must be a free rank (Art. 22, II) with its duration
    fixed, and is open only within it.
    """
    if not rank.temporary:
        return Decision.allow("Art. 23")
    if rank.category is not RankCategory.FREE:
        return Decision.refuse(
            Reason(
                "Art. 23, § único",
                "temporary_rank_not_free",
                _("Pontos provisórios só podem ser pontos livres (Art. 23, § único)."),
            )
        )
    if rank.opens_on is None or rank.closes_on is None:
        return Decision.refuse(
            Reason(
                "Art. 23, § único",
                "temporary_rank_without_duration",
                _("O ponto livre provisório precisa ter sua duração fixada (Art. 23, § único)."),
            )
        )
    if rank.opens_on <= on <= rank.closes_on:
        return Decision.allow("Art. 23, § único")
    return Decision.refuse(
        Reason(
            "Art. 23, § único",
            "temporary_rank_closed",
            _("O ponto livre provisório funciona de {opens_on} a {closes_on}; em {on} não está aberto (Art. 23, § único)."),
            {"opens_on": rank.opens_on, "closes_on": rank.closes_on, "on": on},
        )
    )


def may_stand_at(
    rank: RankFacts,
    is_titular: bool,
    on: date,
    own_cabs_present: int = 0,
    visitors_present: int = 0,
) -> Decision:
    """May a cab stand at this rank now? (Art. 22, I; Art. 22, II; Art. 27, §3)

    Free ranks take any taxi (Art. 22, II); a private rank takes its own
    designated cabs (Art. 22, I) and visitors only within Art. 27, §3.
    """
    opened = rank_is_open(rank, on)
    if not opened:
        return opened
    if rank.category is RankCategory.FREE:
        return Decision.all_of(opened, Decision.allow("Art. 22, II"))
    if is_titular:
        return Decision.all_of(opened, Decision.allow("Art. 22, I"))
    return Decision.all_of(opened, visitors_allowed(rank.titular_count, own_cabs_present, visitors_present))


# --- Art. 26: swaps --------------------------------------------------------------------


def may_swap(a_since: date, b_since: date, authorized: bool, on: date) -> Decision:
    """May two holders swap ranks (or vehicles between ranks) on ``on``? (Art. 26, Art. 26, §1, Art. 26, §2, Art. 26, §3)

    * Art. 26: forbidden without the competent body's prior, express authorization;
      Art. 26, §1: an unauthorized swap is void and fined (see :func:`unauthorized_swap_sanction`).
    * Art. 26, §3: it may be authorized only if BOTH holders have been registered at their
      current ranks for more than 2 years: on the 2nd anniversary itself it is still refused,
      from the next day on it is allowed (years counted per CC art. 132, §3).
    * Art. 26, §2: any combination of zones (central/central, peripheral/peripheral, mixed).
    """
    reasons: list[Reason] = []
    for who, since in (("A", a_since), ("B", b_since)):
        earliest = add_years(since, SWAP_MIN_TENURE_YEARS)
        if not on > earliest:
            reasons.append(
                Reason(
                    "Art. 26, §3",
                    "swap_tenure_too_short",
                    _("O permissionário {who} está no ponto atual desde {since}; a permuta exige mais de 2 anos "
                      "no ponto (possível a partir de {first_day}) (Art. 26, §3)."),
                    {"who": who, "since": since, "first_day": earliest + timedelta(days=1)},
                )
            )
    if not authorized:
        reasons.append(
            Reason(
                "Art. 26, §1",
                "swap_unauthorized",
                _("A permuta de pontos sem autorização prévia e expressa do órgão competente é sem efeito "
                  "e sujeita os infratores a multa (Art. 26, §1)."),
            )
        )
    if reasons:
        return Decision.refuse(*reasons, articles=("Art. 26",))
    return Decision.allow("Art. 26", "Art. 26, §2", "Art. 26, §3")


@dataclass(frozen=True)
class SwapSanction:
    """Consequences of a swap made without authorization (Art. 26, §1)."""

    void: bool
    fine: bool
    revocation_possible: bool


def unauthorized_swap_sanction(previous_offences: int) -> SwapSanction:
    """Art. 26, §1: the swap is void, the offenders are fined, and repeat offenders may lose their permits."""
    return SwapSanction(void=True, fine=True, revocation_possible=previous_offences > 0)


# --- Art. 27: promotion contest, staffing, visitors -----------------------------------------


def may_compete_for_vacancy(vacancy_zone: RankZone, holds_permit: bool) -> Decision:
    """Who may compete for a rank vacancy? (Art. 27, Art. 15)

    Vacancies in central-zone ranks (existing or new) are filled by promotion, through a contest
    open only to current permit holders (Art. 27), under Cap. III "no que couber". Other
    vacancies are outorgas by public contest (Art. 15).
    """
    if vacancy_zone is RankZone.CENTRAL:
        if holds_permit:
            return Decision.allow("Art. 27")
        return Decision.refuse(
            Reason(
                "Art. 27",
                "promotion_contest_permit_holders_only",
                _("Vagas em pontos da zona central são preenchidas por promoção, em concurso restrito aos "
                  "detentores de permissão (Art. 27)."),
            )
        )
    return Decision.allow("Art. 15")


def visitor_limit(titular_count: int) -> int:
    """Maximum number of visiting cabs by the rank's number of titulars (Art. 27, §3)."""
    for top, limit in VISITOR_BANDS:
        if titular_count <= top:
            return limit
    return VISITOR_MAX_LARGE_RANK


def visitors_allowed(titular_count: int, own_cabs_present: int, visitors_present: int) -> Decision:
    """May one more cab from another rank stand here now? (Art. 27, §3)

    Only while the rank has at most 3 of its own cabs; at most 1 visitor in ranks of up to 5
    titulars and only when the rank is empty (no cab at all), 2 in ranks of 6 to 10, 3 in ranks
    of more than 10. ``visitors_present`` counts visitors already there (the newcomer excluded).
    """
    if min(titular_count, own_cabs_present, visitors_present) < 0:
        raise ValueError("counts cannot be negative")
    if own_cabs_present > VISITOR_MAX_OWN_CABS_PRESENT:
        return Decision.refuse(
            Reason(
                "Art. 27, §3",
                "visitor_rank_provided",
                _("O ponto já tem {own} veículos titulares; veículos de outros pontos só podem estacionar "
                  "com até 3 titulares presentes (Art. 27, §3)."),
                {"own": own_cabs_present},
            )
        )
    limit = visitor_limit(titular_count)
    if titular_count <= SMALL_RANK_MAX_TITULARS and (own_cabs_present or visitors_present):
        return Decision.refuse(
            Reason(
                "Art. 27, §3",
                "visitor_small_rank_not_empty",
                _("Em ponto de até 5 titulares, 1 veículo de outro ponto só pode estacionar quando o ponto "
                  "está desprovido de veículos (Art. 27, §3)."),
            )
        )
    if visitors_present + 1 > limit:
        return Decision.refuse(
            Reason(
                "Art. 27, §3",
                "visitor_limit_reached",
                _("Ponto de {titulars} titulares admite no máximo {limit} veículo(s) de outros pontos; "
                  "já há {present} (Art. 27, §3)."),
                {"titulars": titular_count, "limit": limit, "present": visitors_present},
            )
        )
    return Decision.allow("Art. 27, §3")


@dataclass(frozen=True)
class Observation:
    """An inspection of a rank by the competent body: when, and whether it was found empty (Art. 27, §2)."""

    start: datetime
    end: datetime
    empty: bool

    @property
    def duration(self) -> timedelta:
        return self.end - self.start


def unstaffed_run(observations: Iterable[Observation]) -> Optional[tuple[Observation, ...]]:
    """The first run of 3 consecutive qualifying observations of an empty rank, or None (Art. 27, §2).

    Observations are taken in chronological order. One that found a cab breaks the run; one
    shorter than 3 hours does not count (nor break the run, see
    ``STAFFING_SHORT_OBSERVATIONS_BREAK_RUN``). Overlapping observations are one inspection
    period, not separate ones: an observation starting before the previous counted one ended
    is ignored.
    """
    run: list[Observation] = []
    for obs in sorted(observations, key=lambda o: (o.start, o.end)):
        if obs.end < obs.start:
            raise ValueError("an observation cannot end before it starts")
        if not obs.empty:
            run = []
            continue
        if obs.duration < STAFFING_MIN_OBSERVATION:
            if STAFFING_SHORT_OBSERVATIONS_BREAK_RUN:
                run = []
            continue
        if run and obs.start < run[-1].end:
            continue
        run.append(obs)
        if len(run) == STAFFING_CONSECUTIVE_OBSERVATIONS:
            return tuple(run)
    return None


def check_rank_staffing(observations: Iterable[Observation]) -> Decision:
    """Is the rank kept provided with cabs? (Art. 27, §2)

    Refused (code ``rank_unprovided``) when 3 consecutive observations, at any hour, each of at
    least 3 hours, found the rank without vehicles: the competent body may then cancel or reduce
    the rank and, after due notification, revoke the permits of the absent cabs (tacit
    withdrawal).
    """
    run = unstaffed_run(observations)
    if run is None:
        return Decision.allow("Art. 27, §2")
    return Decision.refuse(
        Reason(
            "Art. 27, §2",
            "rank_unprovided",
            _("O ponto foi encontrado desprovido de veículos em 3 observações consecutivas de ao menos 3 horas "
              "({first} a {last}); pode ser cancelado ou suprimido e, após notificação, revogadas as permissões "
              "dos faltosos (Art. 27, §2)."),
            {"first": run[0].start.isoformat(timespec="minutes"), "last": run[-1].end.isoformat(timespec="minutes")},
        )
    )


def staffing_proceedings_due(observations: Iterable[Observation]) -> bool:
    """True when Art. 27, §2 proceedings may start."""
    return not check_rank_staffing(observations).allowed


__all__: Sequence[str] = (
    "Observation",
    "RankCategory",
    "RankFacts",
    "RankZone",
    "SwapSanction",
    "check_rank_staffing",
    "may_compete_for_vacancy",
    "may_stand_at",
    "may_swap",
    "rank_is_open",
    "staffing_proceedings_due",
    "unauthorized_swap_sanction",
    "unstaffed_run",
    "visitor_limit",
    "visitors_allowed",
)
