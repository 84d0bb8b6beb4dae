"""Contests for taxi permits: Cap. III of Lei 1.242/1987 (Art. 15-21) and the fleet cap (Art. 41).

Django-free. Readings of the unclear clauses are named constants below and
explained in ``docs/readings-ranks-contests.md``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Iterable, Sequence

from .decision import Decision, Reason
from .i18n import gettext_noop as _
from .parameters import Parameters

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
    "CommissionBody",
    "CommissionMember",
    "check_commission",
    "fleet_cap",
    "may_open_contest",
    "may_schedule_contest",
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


def winner_refused(position: int, name: str) -> Reason:
    """The head of the refusal of a classified candidate's grant, the grounds following it (Art. 19)."""
    return Reason("Art. 19", "contest_winner_refused",
                  _("{position}º classificado, {name}: a outorga não é possível pelos motivos a seguir."),
                  {"position": position, "name": name})
