"""The acts on ranks, what DIMUTRAN and the drivers may do (Art. 22, 23, 25, 26, Art. 9, V): locating and
shaping a rank, designating, checking in and out, swaps, justifications, promotion. Django-free.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Optional

from .decision import Decision, Reason
from .i18n import gettext_noop as _
from .ranks import RankCategory, RankFacts, RankZone, may_swap, rank_is_open

# --- acts on ranks: what DIMUTRAN and the drivers may do (Art. 22, 23, 25, 26, Art. 9, V) -----------


def _one(reason: Reason, *articles: str) -> Decision:
    return Decision.refuse(reason, articles=articles)


def may_locate_rank(inside_municipality: bool, lat: float, lon: float) -> Decision:
    """A rank is located by the competent body on the public roads of the municipality (Art. 23, Art. 25)."""
    if inside_municipality:
        return Decision.allow("Art. 23", "Art. 25")
    return _one(Reason(
        "Art. 23", "rank_outside_municipality",
        _("O ponto ({lat}, {lon}) fica fora do município de Muriaé; os pontos são localizados pelo "
          "órgão competente nas vias públicas do município (Art. 23, Art. 25)."),
        {"lat": lat, "lon": lon},
    ), "Art. 25")


def check_rank_shape(category: RankCategory, temporary: bool, opens_on: Optional[date], closes_on: Optional[date]) -> Decision:
    """A provisional rank is a free rank with its duration fixed, ending after it starts (Art. 23, § único)."""
    if not temporary:
        return Decision.allow("Art. 23")
    if opens_on and closes_on and closes_on < opens_on:
        return _one(Reason("Art. 23, § único", "temporary_rank_bad_duration",
                           _("O ponto provisório deve terminar depois de começar (Art. 23, § único).")))
    return rank_is_open(RankFacts(category, RankZone.PERIPHERAL, 0, True, opens_on, closes_on), opens_on or date.min)


def may_keep_titulars(category: RankCategory, has_titulars: bool) -> Decision:
    """A free rank has no designated vehicles: a rank with titulars cannot become free (Art. 22, II)."""
    if category is RankCategory.FREE and has_titulars:
        return _one(Reason("Art. 22, II", "free_rank_with_titulars",
                           _("Um ponto livre não tem veículos designados; encerre antes as designações (Art. 22, II).")))
    return Decision.allow("Art. 22, II")


def permit_may_act(permit_active: bool, number: str, status: str, article: str) -> Decision:
    """Only an active permit is designated to, stands at or swaps a rank (``article``: Art. 22, I, Art. 22 or Art. 26)."""
    if permit_active:
        return Decision.allow(article)
    return _one(Reason(article, "permit_not_active", _("A permissão {number} não está ativa ({status})."),
                       {"number": number, "status": status}))


def rank_in_operation(active: bool, name: str) -> Decision:
    """A cancelled rank takes no designation and no cab (Art. 23; Art. 27, §2)."""
    if active:
        return Decision.allow("Art. 23")
    return _one(Reason("Art. 23", "rank_cancelled", _("O ponto {rank} foi cancelado."), {"rank": name}))


def may_designate(category: RankCategory, name: str) -> Decision:
    """Vehicles are designated only to private ranks; a free rank serves any taxi (Art. 22, I, Art. 22, II)."""
    if category is RankCategory.PRIVATE:
        return Decision.allow("Art. 22, I")
    return _one(Reason("Art. 22, II", "free_rank_no_titulars",
                       _("O ponto livre {rank} atende a qualquer táxi; não há veículos designados a ele (Art. 22, II)."),
                       {"rank": name}))


def may_designate_in_zone(rank_zone: RankZone, current_zone: Optional[RankZone], won_by_contest: bool, name: str) -> Decision:
    """A vacancy at a central-zone rank is filled only by promotion, through a contest (Art. 27): a permit not already
    designated to a central rank (a peripheral one, or none) reaches it only having won that rank in a contest
    (``won_by_contest``). Moving within the central zone is the redistribution of Art. 27, §1."""
    if rank_zone is not RankZone.CENTRAL or current_zone is RankZone.CENTRAL or won_by_contest:
        return Decision.allow("Art. 27")
    return _one(Reason("Art. 27", "central_vacancy_by_promotion_only",
                       _("Vagas no ponto {rank}, da zona central, são preenchidas por promoção, em concurso (Art. 27); "
                         "esta permissão não o obteve em concurso."), {"rank": name}))


def may_check_in(already_checked_in: bool, number: str) -> Decision:
    """A cab stands at one rank at a time: it checks out before checking in elsewhere (Art. 22)."""
    if not already_checked_in:
        return Decision.allow("Art. 22")
    return _one(Reason("Art. 22", "already_checked_in",
                       _("O táxi da permissão {number} já está registrado em um ponto; registre a saída antes."),
                       {"number": number}))


def may_check_out(checked_out: bool, checked_in_at: datetime, at: datetime) -> Decision:
    """A cab leaves a rank once, after arriving (Art. 22)."""
    if checked_out:
        return _one(Reason("Art. 22", "already_checked_out", _("A saída deste táxi do ponto já foi registrada.")))
    if at < checked_in_at:
        return _one(Reason("Art. 22", "checkout_before_checkin", _("A saída não pode ser anterior à chegada.")))
    return Decision.allow("Art. 22")


def may_record_observation(start: datetime, end: datetime) -> Decision:
    """An inspection of a rank ends after it starts (Art. 27, §2)."""
    if end < start:
        return _one(Reason("Art. 27, §2", "observation_ends_before_start", _("A observação não pode terminar antes de começar.")))
    return Decision.allow("Art. 27, §2")


def may_request_swap(same_permit: bool, both_designated_elsewhere: bool, pending: bool) -> Decision:
    """A swap is between two different holders designated to different ranks, one request at a time (Art. 26)."""
    reasons = []
    if same_permit:
        reasons.append(Reason("Art. 26", "swap_same_permit", _("A permuta exige dois permissionários diferentes (Art. 26).")))
    elif not both_designated_elsewhere:
        reasons.append(Reason("Art. 26", "swap_needs_two_ranks",
                              _("A permuta é entre dois permissionários designados a pontos diferentes (Art. 26).")))
    if pending:
        reasons.append(Reason("Art. 26", "swap_pending", _("Já há um pedido de permuta em análise para uma destas permissões.")))
    return Decision.refuse(*reasons) if reasons else Decision.allow("Art. 26")


def may_decide_swap(pending: bool, ranks_unchanged: bool = True) -> Decision:
    """A swap request is decided once, on the ranks it named (Art. 26, §2)."""
    if not pending:
        return _one(Reason("Art. 26", "swap_decided", _("Este pedido de permuta já foi decidido.")))
    if not ranks_unchanged:
        return _one(Reason("Art. 26", "swap_ranks_changed",
                           _("Os pontos dos permissionários mudaram desde o pedido; faça um novo pedido.")))
    return Decision.allow("Art. 26, §2")


def may_file_justification(start: date, end: date, reason: str) -> Decision:
    """Force majeure justifies absences from the rank when stated for a period (Art. 9, V)."""
    reasons = []
    if end < start:
        reasons.append(Reason("Art. 9, V", "justification_ends_before_start", _("A justificativa não pode terminar antes de começar.")))
    if not (reason or "").strip():
        reasons.append(Reason("Art. 9, V", "justification_without_reason", _("Informe o motivo de força maior (Art. 9, V).")))
    return Decision.refuse(*reasons) if reasons else Decision.allow("Art. 9, V")


def may_decide_justification(pending: bool) -> Decision:
    """DIMUTRAN decides a justification once (Art. 9, V)."""
    if pending:
        return Decision.allow("Art. 9, V")
    return _one(Reason("Art. 9, V", "justification_decided", _("Esta justificativa já foi decidida.")))


def may_promote(holds_active_permit: bool, name: str) -> Decision:
    """A promotion moves an active permit to the central rank won (Art. 27)."""
    if holds_active_permit:
        return Decision.allow("Art. 27")
    return _one(Reason("Art. 27", "promotion_winner_without_active_permit",
                       _("{name} não tem permissão ativa para ser promovido (Art. 27)."), {"name": name}))


def may_check_in_at(distance_m: Optional[float], radius_m: float) -> Decision:
    """A check-in is the cab's presence at the rank, so it carries the cab's position, within ``radius_m``
    of the rank (the dated parameter ``rank_checkin_radius_m``): attendance is what the GPS shows, not what
    the driver declares (Art. 9, V, Art. 22)."""
    if distance_m is None:
        return _one(Reason("Art. 9, V", "checkin_without_position",
                           _("A chegada ao ponto precisa da posição do táxi (GPS) (Art. 9, V).")))
    if distance_m > radius_m:
        return _one(Reason("Art. 9, V", "checkin_away_from_rank",
                           _("O táxi está a {distance} m do ponto; a chegada só é registrada a até {radius} m dele (Art. 9, V)."),
                           {"distance": int(round(distance_m)), "radius": int(radius_m)}))
    return Decision.allow("Art. 9, V", "Art. 22")


def may_queue_at_rank(serving_ride: bool) -> Decision:
    """A cab joins a rank's queue free: a rank is where taxis stand at the users' disposal (Art. 1, V; Art. 1, VIII),
    so a cab going to or carrying a passenger (``a caminho``, ``ocupado``) does not check in (Art. 9, V; Art. 22)."""
    if not serving_ride:
        return Decision.allow("Art. 1, V", "Art. 22")
    return _one(Reason("Art. 22", "checkin_cab_not_free",
                       _("O táxi está atendendo uma corrida; a chegada ao ponto só é registrada com o táxi livre "
                         "(Art. 1, V; Art. 22).")))


def may_request_swap_by_tenure(a_since: date, b_since: date, on: date) -> Decision:
    """A swap is asked for only when both holders have more than 2 years at their ranks (Art. 26, §3); the prior
    authorization (Art. 26) is what the request seeks, so it is not required to ask."""
    decision = may_swap(a_since, b_since, False, on)
    reasons = [r for r in decision.reasons if r.code != "swap_unauthorized"]
    return Decision.refuse(*reasons, articles=("Art. 26",)) if reasons else Decision.allow("Art. 26, §3")
