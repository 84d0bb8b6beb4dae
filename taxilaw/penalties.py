"""Penalties and their administrative procedure: Cap. VIII of Lei 1.242/1987 (Art. 54-64).

What the law fixes lives here: the four kinds of penalty (Art. 54, a-d), the
group fines read as dated parameters (Art. 55), the reprimand for involuntary
or harmless infractions (Art. 56), the duty that survives the penalty
(Art. 57), cumulation (Art. 58), progressive fines for recidivism within 90
days (Art. 59 and § único), the passenger's complaint (Art. 60, § único) and
the terms of defence, appeal and notice (Art. 63, §1-§5). What the law left
to the regulation (Art. 64: the list of infractions and their groups) is a
catalogue DIMUTRAN edits; :data:`INFRACTION_CATALOGUE_SEED` is its seed.

Readings are in docs/readings-enforcement.md.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Collection, Iterable, Optional, Sequence

from .brazil import br_number
from .calendar import day_term_end
from .decision import Decision, Reason
from .i18n import gettext_noop
from .parameters import Parameters

CENT = Decimal("0.01")

#: Art. 59, § único: days within which the same infraction is recidivism.
RECIDIVISM_DAYS = 90
#: Art. 63, §1: days from receiving the auto to present the written defence.
DEFENCE_DAYS = 5
#: Art. 63, §3: days from the notification to appeal (each instance).
APPEAL_DAYS = 10
#: Art. 63, §4: days from the judgment of the appeal to notify the infractor.
JUDGMENT_NOTICE_DAYS = 10


def to_cents(value: Decimal) -> Decimal:
    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)


# ----------------------------------------------------------------- kinds (54)


class PenaltyKind(str, enum.Enum):
    """The municipal penalties of Art. 54, a-d (besides those of the traffic code)."""

    REPRIMAND = "reprimand"  # a) repreensão por escrito
    SUSPENSION = "suspension"  # b) suspensão
    FINE = "fine"  # c) multa
    REVOCATION = "revocation"  # d) revogação da permissão

    @property
    def article(self) -> str:
        return _KINDS[self][0]

    @property
    def label(self) -> str:
        return _KINDS[self][1]


_KINDS = {
    PenaltyKind.REPRIMAND: ("Art. 54, a", gettext_noop("Repreensão por escrito")),
    PenaltyKind.SUSPENSION: ("Art. 54, b", gettext_noop("Suspensão")),
    PenaltyKind.FINE: ("Art. 54, c", gettext_noop("Multa")),
    PenaltyKind.REVOCATION: ("Art. 54, d", gettext_noop("Revogação da permissão")),
}


# ------------------------------------------------------------ group fines (55)


class FineGroup(str, enum.Enum):
    """The groups of fine values of Art. 55, I-III."""

    A = "A"
    B = "B"
    C = "C"

    @property
    def parameter(self) -> str:
        return f"fine_group_{self.value.lower()}_brl"

    @property
    def article(self) -> str:
        return {"A": "Art. 55, I", "B": "Art. 55, II", "C": "Art. 55, III"}[self.value]


def group_fine(group: FineGroup | str, on: date, params: Parameters) -> Decimal:
    """The fine of a group in force on ``on`` (Art. 55, I-III), read from the dated parameters."""
    return to_cents(Decimal(params.as_of(FineGroup(group).parameter, on)))


def ufm_fine(ufm: Decimal, on: date, params: Parameters) -> Decimal:
    """A fine the law fixes in UFM (e.g. 1 UFM, Art. 4, §2) converted to reais on ``on``."""
    return to_cents(Decimal(ufm) * Decimal(params.as_of("ufm_brl", on)))


# ------------------------------------------------------- catalogue (64)


@dataclass(frozen=True)
class InfractionSpec:
    """One infraction of the catalogue the regulation defines (Art. 64).

    ``group`` gives the fine (Art. 55); ``fine_ufm`` instead when the law
    fixes the fine in UFM (Art. 4, §2). ``revocation_if_recidivist`` marks
    infractions whose recidivism the law itself punishes with revocation
    (Art. 26, §1).
    """

    code: str
    description: str
    article: str
    group: Optional[FineGroup]
    default_penalty: PenaltyKind
    fine_ufm: Optional[Decimal] = None
    revocation_if_recidivist: bool = False


#: The obligations the law itself states, seeded into the catalogue DIMUTRAN edits.
#: Groups are a reading (Art. 64 leaves the grading to the regulation).
INFRACTION_CATALOGUE_SEED: tuple[InfractionSpec, ...] = (
    InfractionSpec("tariff_not_charged", gettext_noop("Não cobrar os preços tarifados"), "Art. 13, II", FineGroup.A, PenaltyKind.FINE),
    InfractionSpec("above_meter", gettext_noop("Cobrar do usuário quantia diferente da registrada no taxímetro"), "Art. 45, §5", FineGroup.A, PenaltyKind.FINE),
    InfractionSpec("luggage_surcharge", gettext_noop("Cobrar tarifa adicional pelo transporte de bagagem"), "Art. 45, §1", FineGroup.B, PenaltyKind.FINE),
    InfractionSpec("return_surcharge", gettext_noop("Cobrar tarifa adicional a título de custo de retorno"), "Art. 45, §2", FineGroup.B, PenaltyKind.FINE),
    InfractionSpec("seal_removed", gettext_noop("Retirar o selo de vistoria antes da vistoria seguinte"), "Art. 37", FineGroup.B, PenaltyKind.FINE),
    InfractionSpec("meter_removed", gettext_noop("Retirar ou alterar o taxímetro sem permissão do INMETRO/INPM"), "Art. 47, §3", FineGroup.A, PenaltyKind.FINE),
    InfractionSpec("attire", gettext_noop("Conduzir o táxi sem o traje estabelecido"), "Art. 53", FineGroup.C, PenaltyKind.REPRIMAND),
    InfractionSpec(
        "rank_swap", gettext_noop("Permutar ponto sem autorização prévia e expressa do órgão competente"), "Art. 26, §1",
        FineGroup.B, PenaltyKind.FINE, revocation_if_recidivist=True,
    ),
    InfractionSpec(
        "alvara_not_renewed", gettext_noop("Deixar de requerer a renovação do alvará na época estabelecida"), "Art. 4, §2",
        None, PenaltyKind.FINE, fine_ufm=Decimal("1"),
    ),
)


def base_fine(spec: InfractionSpec, on: date, params: Parameters) -> Decimal:
    """The fine of one infraction before recidivism: its group (Art. 55) or the UFM the law fixes (Art. 4, §2)."""
    if spec.fine_ufm is not None:
        return ufm_fine(spec.fine_ufm, on, params)
    if spec.group is None:
        raise ValueError(f"infraction {spec.code!r} has no fine")
    return group_fine(spec.group, on, params)


# ---------------------------------------------------------- recidivism (59)


@dataclass(frozen=True)
class PriorPenalty:
    """A penalty already imposed on the same infractor (from their record, Art. 62, § único)."""

    infraction_code: str
    committed_on: date
    fine: Optional[Decimal] = None  # None: the penalty was not a fine
    reference: object = None  # the caller's id, echoed back


def is_recidivism(previous_committed_on: date, committed_on: date) -> bool:
    """Same infraction again within 90 days of the previous one (Art. 59, § único).

    Counted in calendar days, the start day excluded (Código Civil, art. 132):
    90 days apart is recidivism, 91 days apart is not.
    """
    return previous_committed_on <= committed_on <= previous_committed_on + timedelta(days=RECIDIVISM_DAYS)


def previous_offence(code: str, committed_on: date, priors: Iterable[PriorPenalty]) -> Optional[PriorPenalty]:
    """The latest earlier penalty for the same infraction, if within 90 days (Art. 59, § único)."""
    same = [p for p in priors if p.infraction_code == code and p.committed_on <= committed_on]
    if not same:
        return None
    latest = max(same, key=lambda p: p.committed_on)
    return latest if is_recidivism(latest.committed_on, committed_on) else None


@dataclass(frozen=True)
class FineAssessment:
    """The fine of one infraction: base, amount, and the prior fine it doubles (Art. 55, Art. 59)."""

    code: str
    base: Decimal
    amount: Decimal
    recidivism_of: Optional[PriorPenalty]
    articles: tuple[str, ...]

    @property
    def recidivist(self) -> bool:
        return self.recidivism_of is not None


def assess_fine(code: str, committed_on: date, base: Decimal, priors: Iterable[PriorPenalty] = ()) -> FineAssessment:
    """Fine for an infraction: the base, or double the previous fine on recidivism (Art. 59 and § único).

    Progressive: each recidivism doubles the fine imposed the time before,
    so 70 -> 140 -> 280 while the infractions keep within 90 days of each
    other; after a gap of more than 90 days the base applies again. If the
    previous penalty for the same infraction was not a fine (a reprimand),
    the recidivist gets the base fine (there is no fine to double).
    """
    previous = previous_offence(code, committed_on, priors)
    base = to_cents(base)
    if previous is None:
        return FineAssessment(code, base, base, None, ("Art. 55",))
    amount = to_cents(previous.fine * 2) if previous.fine is not None else base
    return FineAssessment(code, base, amount, previous, ("Art. 55", "Art. 59", "Art. 59, § único"))


# ---------------------------------------------- choosing the penalty (56, 26)


def may_impose(
    kind: PenaltyKind | str,
    spec: InfractionSpec,
    *,
    involuntary: bool = False,
    serious_consequences: bool = True,
    recidivist: bool = False,
) -> Decision:
    """May this kind of penalty punish this infraction? (Art. 54, Art. 55, Art. 56, Art. 26, §1)

    * A reprimand only when the infraction was involuntary or had no serious
      consequences for the public interest (Art. 56).
    * A fine needs a group or a fine fixed by the law (Art. 55).
    * Revocation for an unauthorized rank swap only for a recidivist
      (Art. 26, §1); any revocation still goes through the inquiry (Art. 10).
    """
    kind = PenaltyKind(kind)
    if kind is PenaltyKind.REPRIMAND and not involuntary and serious_consequences:
        return Decision.refuse(
            Reason(
                "Art. 56",
                "reprimand_not_allowed",
                gettext_noop("A repreensão por escrito só cabe se a infração foi involuntária ou sem consequências graves para o interesse público (Art. 56)."),
            ),
            articles=(kind.article,),
        )
    if kind is PenaltyKind.FINE and spec.group is None and spec.fine_ufm is None:
        return Decision.refuse(
            Reason("Art. 55", "no_fine_for_infraction", gettext_noop("A infração {code} não tem grupo de multa (Art. 55)."), {"code": spec.code}),
            articles=(kind.article,),
        )
    if kind is PenaltyKind.REVOCATION and spec.revocation_if_recidivist and not recidivist:
        return Decision.refuse(
            Reason(
                "Art. 26, §1",
                "revocation_needs_recidivism",
                gettext_noop("A permuta de ponto à revelia do órgão competente só leva à revogação quando o infrator é reincidente (Art. 26, §1)."),
            ),
            articles=(kind.article,),
        )
    articles = [kind.article]
    if kind is PenaltyKind.REPRIMAND:
        articles.append("Art. 56")
    if kind is PenaltyKind.FINE:
        articles.append("Art. 55")
    if kind is PenaltyKind.REVOCATION:
        articles += ["Art. 10"] + (["Art. 26, §1"] if spec.revocation_if_recidivist else [])
    return Decision.allow(*articles)


def suspension_period(starts_on: Optional[date], ends_on: Optional[date], decided_on: date, max_days: Optional[int] = None) -> Decision:
    """A suspension (Art. 54, b) has a start and an end, the end not before the start, not before the decision, and
    lasts at most ``max_days`` (the dated parameter ``suspension_max_days``: the law sets no maximum, the regulation
    does; docs/readings-enforcement.md). Beyond it the only path is the revocation, after the inquiry of Art. 10."""
    if starts_on is None or ends_on is None or ends_on < starts_on or starts_on < decided_on:
        return Decision.refuse(
            Reason(
                "Art. 54, b",
                "suspension_period_invalid",
                gettext_noop("A suspensão precisa de início (a partir da decisão, {decided_on}) e de fim não anterior ao início (Art. 54, b)."),
                {"decided_on": decided_on},
            )
        )
    days = (ends_on - starts_on).days + 1
    if max_days is not None and days > max_days:
        return Decision.refuse(
            Reason(
                "Art. 54, b",
                "suspension_beyond_maximum",
                gettext_noop("A suspensão de {days} dias passa do máximo de {max_days} dias do regulamento (Art. 54, b); "
                             "além dele, só a revogação, precedida do inquérito (Art. 10)."),
                {"days": days, "max_days": max_days},
            ),
            articles=("Art. 10",),
        )
    return Decision.allow("Art. 54, b")


# ------------------------------------------------------- cumulation (57, 58)


@dataclass(frozen=True)
class PenaltyLine:
    """One penalty for one infraction of the auto."""

    infraction_code: str
    kind: PenaltyKind
    fine: Optional[Decimal] = None
    starts_on: Optional[date] = None
    ends_on: Optional[date] = None


@dataclass(frozen=True)
class PenaltyPlan:
    """All penalties of one auto, applied cumulatively (Art. 58).

    ``duty_persists`` is Art. 57: the penalty does not release the infractor
    from what the law required of them (charge the tariff, renew the alvará...).
    """

    lines: tuple[PenaltyLine, ...]
    total_fine: Decimal
    decision: Decision
    duty_persists: bool = field(default=True)


def cumulate(lines: Sequence[PenaltyLine]) -> PenaltyPlan:
    """Every penalty of infractions committed together applies; fines add up (Art. 58, Art. 57)."""
    if not lines:
        raise ValueError("a penalty plan needs at least one line")
    total = to_cents(sum((line.fine or Decimal("0") for line in lines), Decimal("0")))
    articles = ["Art. 57", *dict.fromkeys(line.kind.article for line in lines)]
    if len(lines) > 1:
        articles.insert(0, "Art. 58")
    return PenaltyPlan(tuple(lines), total, Decision.allow(*articles), True)


# ----------------------------------------------------------- complaint (60)


def may_complain(*, own_ride: bool, ride_completed: bool, cab_abandoned: bool = False) -> Decision:
    """A passenger complains about their own ride that a cab took (Art. 60, Art. 60, § único).

    The violation must be *comprovada* (Art. 60): the ride's record is the proof attached. A completed ride is
    one; so is a ride a cab accepted and then did not carry out (``cab_abandoned``: the driver cancelled it or
    recorded the passenger absent), the refusal of service that is the commonest complaint, since the record
    names the cab and the driver (docs/readings-enforcement.md). A ride no cab ever took names nobody.
    """
    reasons = []
    if not own_ride:
        reasons.append(
            Reason("Art. 60", "complaint_not_own_ride", gettext_noop("A reclamação deve ser sobre uma corrida feita pelo próprio passageiro (Art. 60)."))
        )
    if not (ride_completed or cab_abandoned):
        reasons.append(
            Reason("Art. 60", "complaint_ride_not_completed", gettext_noop("A corrida não foi concluída: não há violação comprovada a reclamar (Art. 60)."))
        )
    if reasons:
        return Decision.refuse(*reasons)
    return Decision.allow("Art. 60", "Art. 60, § único")


def complaint_within_limits(*, filed_on_ride: int, max_per_ride: int, chars: int, max_chars: int) -> Decision:
    """Each complaint needs DIMUTRAN's formal triage (Art. 60, § único): a passenger files at most ``max_per_ride``
    about one ride (``filed_on_ride`` already filed), each of at most ``max_chars`` characters (named parameters,
    docs/security.md). What happened on one ride is told in one complaint, or two when something is added later."""
    reasons = []
    if filed_on_ride >= max_per_ride == 1:
        reasons.append(Reason("Art. 60", "complaint_limit_per_ride", gettext_noop(
            "Você já registrou uma reclamação sobre esta corrida; a DIMUTRAN vai analisá-la (Art. 60).")))
    elif filed_on_ride >= max_per_ride:
        reasons.append(Reason("Art. 60", "complaint_limit_per_ride", gettext_noop(
            "Você já registrou {count} reclamações sobre esta corrida; o limite é {limit}. A DIMUTRAN analisa as que "
            "já foram registradas (Art. 60)."), {"count": filed_on_ride, "limit": max_per_ride}))
    if chars > max_chars:
        reasons.append(Reason("Art. 60", "complaint_too_long", gettext_noop(
            "A reclamação tem {chars} caracteres; escreva no máximo {limit}."), {"chars": chars, "limit": max_chars}))
    return Decision.refuse(*reasons) if reasons else Decision.allow("Art. 60")


def may_dismiss_complaint(reasoning: str) -> Decision:
    """A complaint that does not lead to an auto is dismissed with reasons (Art. 60, § único: 'sempre que couber')."""
    if not (reasoning or "").strip():
        return Decision.refuse(
            Reason("Art. 60, § único", "dismissal_needs_reasons", gettext_noop("O arquivamento da reclamação precisa ser fundamentado (Art. 60, § único)."))
        )
    return Decision.allow("Art. 60, § único")


# --------------------------------------------------------- due process (63)


class AppealInstance(str, enum.Enum):
    """First instance COMUTRAM, second the Mayor (Art. 63, §3)."""

    COMUTRAM = "comutram"
    MAYOR = "mayor"

    @property
    def label(self) -> str:
        return {
            "comutram": gettext_noop("Conselho Municipal de Trânsito – COMUTRAM (1ª instância)"),
            "mayor": gettext_noop("Prefeito Municipal (2ª instância)"),
        }[self.value]


def defence_deadline(received_on: date, municipal_holidays: Collection[date] = ()) -> date:
    """Last day of the written defence: 5 days from receiving the auto (Art. 63, §1)."""
    return day_term_end(received_on, DEFENCE_DAYS, municipal_holidays)


def may_file_defence(received_on: Optional[date], filed_on: date, municipal_holidays: Collection[date] = ()) -> Decision:
    """The written defence within 5 days of receiving the copy of the auto (Art. 62, Art. 63, §1)."""
    if received_on is None:
        return Decision.refuse(
            Reason("Art. 62", "auto_copy_not_delivered", gettext_noop("A cópia do auto de infração ainda não foi entregue ao infrator (Art. 62)."))
        )
    deadline = defence_deadline(received_on, municipal_holidays)
    if filed_on > deadline or filed_on < received_on:
        return Decision.refuse(
            Reason(
                "Art. 63, §1",
                "defence_out_of_term",
                gettext_noop("A defesa escrita deve ser apresentada entre {received_on} e {deadline}, 5 dias do recebimento do auto (Art. 63, §1)."),
                {"received_on": received_on, "deadline": deadline},
            )
        )
    return Decision.allow("Art. 63, §1")


def may_decide(
    received_on: Optional[date],
    defence_filed_on: Optional[date],
    decide_on: date,
    municipal_holidays: Collection[date] = (),
) -> Decision:
    """Decide the auto once the defence is in or its 5-day term ran out (Art. 63, Art. 63, §1)."""
    if received_on is None:
        return Decision.refuse(
            Reason("Art. 62", "auto_copy_not_delivered", gettext_noop("A cópia do auto de infração ainda não foi entregue ao infrator (Art. 62)."))
        )
    if defence_filed_on is not None and decide_on >= defence_filed_on:
        return Decision.allow("Art. 63", "Art. 63, §1")
    deadline = defence_deadline(received_on, municipal_holidays)
    if decide_on > deadline:
        return Decision.allow("Art. 63", "Art. 63, §1")
    return Decision.refuse(
        Reason(
            "Art. 63, §1",
            "defence_term_running",
            gettext_noop("O prazo de defesa vai até {deadline}; o auto não pode ser julgado antes (Art. 63, §1)."),
            {"deadline": deadline},
        )
    )


def may_notify(acted_on: date, notified_on: date) -> Decision:
    """The infractor is notified of the decision imposing a penalty, not before it exists (Art. 63, §2)."""
    if notified_on < acted_on:
        return Decision.refuse(
            Reason("Art. 63, §2", "notice_before_decision", gettext_noop("A notificação não pode anteceder a decisão de {acted_on} (Art. 63, §2)."), {"acted_on": acted_on})
        )
    return Decision.allow("Art. 63, §2")


def appeal_deadline(notified_on: date, municipal_holidays: Collection[date] = ()) -> date:
    """Last day to appeal: 10 days from the notification, in each instance (Art. 63, §3)."""
    return day_term_end(notified_on, APPEAL_DAYS, municipal_holidays)


def may_appeal(
    instance: AppealInstance | str,
    *,
    notified_on: Optional[date],
    filed_on: date,
    against_fine: bool,
    deposit_proved: bool,
    municipal_holidays: Collection[date] = (),
    deposit_required: bool = True,
) -> Decision:
    """Appeal to COMUTRAM, then to the Mayor, 10 days from each notice; fines need the prior deposit (Art. 63, §3, Art. 63, §5)
    while ``deposit_required`` (the dated parameter ``appeal_deposit_required``: 0 since STF Súmula Vinculante 21).

    ``notified_on`` is the notification of the decision (first instance) or
    of COMUTRAM's judgment (second instance); before any notification the
    term has not started and an appeal is on time.
    """
    instance = AppealInstance(instance)
    reasons = []
    if notified_on is not None:
        deadline = appeal_deadline(notified_on, municipal_holidays)
        if filed_on > deadline:
            reasons.append(
                Reason(
                    "Art. 63, §3",
                    "appeal_late",
                    gettext_noop("O recurso ({instance}) devia ser interposto até {deadline}, 10 dias da notificação de {notified_on} (Art. 63, §3)."),
                    {"instance": instance.label, "deadline": deadline, "notified_on": notified_on},
                )
            )
    if against_fine and deposit_required and not deposit_proved:
        reasons.append(
            Reason(
                "Art. 63, §5",
                "appeal_needs_deposit",
                gettext_noop("Para recorrer da decisão que impôs multa, instrua o recurso com o comprovante do prévio depósito do valor (Art. 63, §5)."),
            )
        )
    if reasons:
        return Decision.refuse(*reasons, articles=("Art. 63, §3",))
    return Decision.allow("Art. 63, §3", *(("Art. 63, §5",) if against_fine and deposit_required else ()))


def judgment_notice_deadline(judged_on: date, municipal_holidays: Collection[date] = ()) -> date:
    """Last day to tell the infractor the appeal's judgment: 10 days from it (Art. 63, §4)."""
    return day_term_end(judged_on, JUDGMENT_NOTICE_DAYS, municipal_holidays)


def may_notify_judgment(judged_on: date, notified_on: date, municipal_holidays: Collection[date] = ()) -> Decision:
    """The judgment of an appeal is notified after it (Art. 63, §4). The 10 days bind the administration (a
    "prazo impróprio"): a notice after them is late but valid, and the term of the next appeal runs from it, or
    the appeal to the Mayor would never open (Art. 63, §3; CF art. 5, LV; docs/readings-enforcement.md).
    The scheduler reminds DIMUTRAN within the 10 days (:func:`judgment_notice_reminder`)."""
    deadline = judgment_notice_deadline(judged_on, municipal_holidays)
    if notified_on < judged_on:
        return Decision.refuse(
            Reason(
                "Art. 63, §4",
                "judgment_notice_before_judgment",
                gettext_noop("O infrator é cientificado do julgamento depois dele ({judged_on}), até {deadline} (Art. 63, §4)."),
                {"judged_on": judged_on, "deadline": deadline},
            )
        )
    return Decision.allow("Art. 63, §4")


def judgment_notice_reminder(
    auto: str, judged_on: date, notified_on: Optional[date], on: date, municipal_holidays: Collection[date] = ()
) -> Optional[Reason]:
    """What DIMUTRAN is reminded of on ``on`` about the appeal of auto ``auto`` judged on ``judged_on`` and not yet
    notified: to tell the infractor within 10 days of the judgment (Art. 63, §4); past them, that it is overdue."""
    if notified_on is not None or on <= judged_on:
        return None
    deadline = judgment_notice_deadline(judged_on, municipal_holidays)
    return Reason(
        "Art. 63, §4", "judgment_notice_due" if on <= deadline else "judgment_notice_overdue",
        gettext_noop("Auto {auto}: cientifique o infrator do julgamento do recurso de {judged_on} até {deadline} (Art. 63, §4).")
        if on <= deadline else
        gettext_noop("Auto {auto}: o prazo para cientificar o infrator do julgamento de {judged_on} terminou em {deadline} (Art. 63, §4): "
                     "cientifique-o já; o prazo do recurso seguinte corre da ciência."),
        {"auto": auto, "judged_on": judged_on, "deadline": deadline},
    )


# ------------------------------------------ partial judgment of an appeal (63, §3)

#: Reading (the law does not grade the kinds of Art. 54): the kinds from the
#: lightest to the heaviest. An appeal granted in part ("provimento parcial")
#: may only move a penalty down this scale, never up (no reformatio in pejus).
#: Art. 54 lists suspension (b) before fine (c); the order here puts the fine
#: below the suspension because the suspension stops the work and the income
#: (Art. 54, b) while the fine only costs its value. To be confirmed by DIMUTRAN.
PENALTY_SEVERITY: tuple[PenaltyKind, ...] = (
    PenaltyKind.REPRIMAND,
    PenaltyKind.FINE,
    PenaltyKind.SUSPENSION,
    PenaltyKind.REVOCATION,
)

#: Reading (Art. 55 gives ceilings, "limites", and no floor): the lowest fine an
#: appeal may reduce a fine to is the smallest group value in force on the day
#: of the infraction (Grupo C, Art. 55, III).
REDUCED_FINE_FLOOR_GROUP = FineGroup.C


def severity(kind: PenaltyKind | str) -> int:
    """Rank of a kind on :data:`PENALTY_SEVERITY` (0 = reprimand, the lightest; Art. 54, a-d)."""
    return PENALTY_SEVERITY.index(PenaltyKind(kind))


def reduced_fine_range(spec: InfractionSpec, committed_on: date, params: Parameters, priors: Iterable[PriorPenalty] = ()) -> tuple[Decimal, Decimal]:
    """Lowest and highest fine an appeal may set for this infraction (Art. 55, Art. 59, Art. 63, §3).

    The ceiling is the fine the law gives today: the group value in force on
    the day of the infraction (Art. 55, "limites"), or twice the previous fine
    still in force on recidivism (Art. 59), recomputed from the priors as they
    stand now (an annulled or reduced prior lowers it). The floor is the value
    of :data:`REDUCED_FINE_FLOOR_GROUP` on that day. A fine the law fixes in
    UFM (Art. 4, §2) has no range below it: the floor is the UFM value.
    """
    base = base_fine(spec, committed_on, params)
    ceiling = assess_fine(spec.code, committed_on, base, priors).amount
    floor = base if spec.fine_ufm is not None else group_fine(REDUCED_FINE_FLOOR_GROUP, committed_on, params)
    return min(floor, ceiling), ceiling


def _brl(value: Decimal) -> str:
    """The amount inside a sentence that already writes "R$ ": ``1.234,56``."""
    return br_number(to_cents(value), 2)


# Complexity kept: one branch per penalty kind the instance may reduce to (Art. 54, 55, 63 §3), each with its reason.
def may_reduce(  # noqa: C901
    spec: InfractionSpec,
    current: PenaltyLine,
    reduced: PenaltyLine,
    *,
    judged_on: date,
    fine_range: Optional[tuple[Decimal, Decimal]] = None,
    involuntary: bool = False,
    serious_consequences: bool = True,
) -> Decision:
    """May an appeal granted in part replace ``current`` by ``reduced``? (Art. 63, §3, Art. 54-56)

    The infraction stands; only the penalty is lightened:

    * a lighter kind on :data:`PENALTY_SEVERITY` (revocation -> suspension ->
      fine -> reprimand), or the same kind made lighter: a lower fine, or a
      suspension that keeps its start and ends earlier. A reprimand or a
      revocation cannot be lightened within its kind (annul it instead).
    * a fine within :func:`reduced_fine_range` (``fine_range``) and lower
      than the fine imposed (Art. 55, Art. 59);
    * a reprimand only for an involuntary or harmless infraction (Art. 56);
    * a suspension replacing a revocation from the judgment on (Art. 54, b).
    """
    cur, new = PenaltyKind(current.kind), PenaltyKind(reduced.kind)
    params = {"code": spec.code, "current": cur.label, "new": new.label}
    if severity(new) > severity(cur) or (new is cur and new in (PenaltyKind.REPRIMAND, PenaltyKind.REVOCATION)):
        return Decision.refuse(
            Reason(
                "Art. 63, §3",
                "reduction_not_lighter",
                gettext_noop("Em provimento parcial a penalidade da infração {code} só pode ser abrandada: “{new}” não é mais leve que “{current}” (Art. 63, §3)."),
                params,
            )
        )
    articles = ["Art. 63, §3", new.article]
    if new is PenaltyKind.REPRIMAND:
        allowed = may_impose(new, spec, involuntary=involuntary, serious_consequences=serious_consequences)
        return allowed if not allowed else Decision.allow(*articles, "Art. 56")
    if new is PenaltyKind.FINE:
        allowed = may_impose(new, spec)
        if not allowed:
            return allowed
        amount = reduced.fine
        if amount is None:
            return Decision.refuse(
                Reason("Art. 55", "reduced_fine_missing", gettext_noop("Indique o valor da multa que substitui a penalidade da infração {code} (Art. 55)."), params)
            )
        amount = to_cents(amount)
        if cur is PenaltyKind.FINE and current.fine is not None and amount >= to_cents(current.fine):
            return Decision.refuse(
                Reason(
                    "Art. 63, §3",
                    "reduction_not_lighter",
                    gettext_noop("A multa reduzida da infração {code} deve ser menor que a imposta, R$ {imposed} (Art. 63, §3)."),
                    {**params, "imposed": _brl(current.fine)},
                )
            )
        if fine_range is None:
            raise ValueError("a reduced fine needs its range (reduced_fine_range)")
        floor, ceiling = fine_range
        if not floor <= amount <= ceiling:
            return Decision.refuse(
                Reason(
                    "Art. 55",
                    "reduced_fine_out_of_range",
                    gettext_noop("A multa da infração {code} deve ficar entre R$ {floor} e R$ {ceiling} (Art. 55, Art. 59)."),
                    {**params, "floor": _brl(floor), "ceiling": _brl(ceiling)},
                ),
                articles=("Art. 63, §3",),
            )
        return Decision.allow(*articles, "Art. 55")
    if new is PenaltyKind.SUSPENSION and cur is PenaltyKind.SUSPENSION:
        starts_on = reduced.starts_on or current.starts_on
        if starts_on is None or starts_on != current.starts_on or reduced.ends_on is None or reduced.ends_on < starts_on:
            return Decision.refuse(
                Reason(
                    "Art. 54, b",
                    "reduced_suspension_period_invalid",
                    gettext_noop("A suspensão reduzida da infração {code} mantém o início em {starts_on} e termina entre essa data e {ends_on} (Art. 54, b)."),
                    {**params, "starts_on": current.starts_on, "ends_on": current.ends_on},
                )
            )
        if current.ends_on is not None and reduced.ends_on >= current.ends_on:
            return Decision.refuse(
                Reason(
                    "Art. 63, §3",
                    "reduction_not_lighter",
                    gettext_noop("A suspensão reduzida da infração {code} deve terminar antes de {ends_on} (Art. 63, §3)."),
                    {**params, "ends_on": current.ends_on},
                )
            )
        return Decision.allow(*articles)
    if new is PenaltyKind.SUSPENSION:
        allowed = suspension_period(reduced.starts_on, reduced.ends_on, judged_on)
        return allowed if not allowed else Decision.allow(*articles)
    raise AssertionError(f"unreachable: {cur} -> {new}")  # pragma: no cover


def may_judge_partially(judgment_text: str, reductions: int) -> Decision:
    """A partial grant keeps the infraction, lightens at least one penalty and gives its reasons (Art. 63, §3)."""
    reasons = []
    if reductions < 1:
        reasons.append(
            Reason(
                "Art. 63, §3",
                "partial_judgment_needs_reduction",
                gettext_noop("Indique ao menos uma penalidade reduzida; sem redução o recurso é improvido (Art. 63, §3)."),
            )
        )
    if not (judgment_text or "").strip():
        reasons.append(
            Reason("Art. 63, §3", "partial_judgment_needs_reasons", gettext_noop("O provimento parcial precisa ser fundamentado (Art. 63, §3)."))
        )
    if reasons:
        return Decision.refuse(*reasons)
    return Decision.allow("Art. 63, §3")


def refund_on_reduction(held: Decimal, fine_after: Optional[Decimal]) -> Decimal:
    """What returns to the infractor when an appeal lowers or removes a fine (Art. 63, §5).

    The deposit (or a payment) covered the fine imposed; what it holds beyond
    the fine that remains (nothing, when the fine became another kind) is
    refunded on the day of the judgment.
    """
    return to_cents(max(Decimal(held) - Decimal(fine_after or 0), Decimal("0")))


def inquiry_trigger_holds(kind_after: Optional[PenaltyKind | str]) -> bool:
    """Does the revocation inquiry a penalty opened still have its trigger? (Art. 54, d, Art. 10, Art. 63, §3)

    A revocation penalty opens the inquiry of Art. 10. ``kind_after`` is the
    penalty after the appeal (None when annulled): unless it is still a
    revocation, the inquiry lost its trigger and is archived.
    """
    return kind_after is not None and PenaltyKind(kind_after) is PenaltyKind.REVOCATION


def inquiry_archive_reason(*, auto: str, appeal: object, instance: AppealInstance | str, judged_on: date, kind_after: Optional[PenaltyKind | str]) -> Reason:
    """Why an inquiry is archived: the revocation that opened it fell on appeal (Art. 63, §3, Art. 10)."""
    facts = {"auto": auto, "appeal": appeal, "instance": AppealInstance(instance).label, "judged_on": judged_on}
    if kind_after is None:
        return Reason(
            "Art. 63, §3",
            "inquiry_trigger_annulled",
            gettext_noop("Arquivado: a revogação imposta no auto {auto} foi anulada no recurso nº {appeal} ({instance}), julgado em {judged_on} (Art. 63, §3)."),
            facts,
        )
    return Reason(
        "Art. 63, §3",
        "inquiry_trigger_reduced",
        gettext_noop("Arquivado: a revogação imposta no auto {auto} foi reduzida a “{kind}” no recurso nº {appeal} ({instance}), julgado em {judged_on} (Art. 63, §3)."),
        {**facts, "kind": PenaltyKind(kind_after).label},
    )


# ------------------------------------------------------- the auto (60-62, 64)


def may_triage_complaint(received: bool) -> Decision:
    """DIMUTRAN triages a complaint once: an auto or a reasoned dismissal (Art. 60, § único)."""
    if received:
        return Decision.allow("Art. 60, § único")
    return Decision.refuse(Reason("Art. 60, § único", "complaint_already_triaged", gettext_noop("Esta reclamação já foi triada.")))


def may_issue_auto(
    *,
    infraction_codes: Sequence[str],
    committed_on: date,
    issued_on: date,
    not_in_force: Sequence[str],
    infractor_of_permit: bool,
    infractor: str,
    number: str,
) -> Decision:
    """An auto names at least one infraction of the catalogue in force when committed (Art. 60, Art. 64),
    is drawn up after it, against the holder or an auxiliary of the permit (Art. 62)."""
    reasons = []
    if not infraction_codes:
        reasons.append(Reason("Art. 60", "auto_needs_infraction", gettext_noop("Indique ao menos uma infração do catálogo (Art. 60, Art. 64).")))
    if committed_on > issued_on:
        reasons.append(Reason("Art. 60", "auto_before_infraction",
                              gettext_noop("O auto não pode ser lavrado antes da infração ({committed_on})."), {"committed_on": committed_on}))
    for code in not_in_force:
        reasons.append(Reason("Art. 64", "infraction_not_in_force",
                              gettext_noop("A infração {infraction} não estava no catálogo em vigor em {on} (Art. 64)."),
                              {"infraction": code, "on": committed_on}))
    if not infractor_of_permit:
        reasons.append(Reason("Art. 62", "infractor_not_of_permit",
                              gettext_noop("{name} não é permissionário nem auxiliar da permissão {number}."),
                              {"name": infractor, "number": number}))
    return Decision.refuse(*reasons) if reasons else Decision.allow("Art. 60", "Art. 62", "Art. 64")


def may_deliver_copy(issued_on: date, delivered_on: date, already_delivered_on: Optional[date] = None) -> Decision:
    """The infractor receives one copy of the auto, not before it is drawn up (Art. 62)."""
    if already_delivered_on is not None:
        return Decision.refuse(Reason("Art. 62", "copy_already_delivered", gettext_noop("A cópia já foi entregue em {on}."),
                                      {"on": already_delivered_on}))
    if delivered_on < issued_on:
        return Decision.refuse(Reason("Art. 62", "copy_before_auto",
                                      gettext_noop("A cópia não pode ser entregue antes da lavratura ({on})."), {"on": issued_on}))
    return Decision.allow("Art. 62")
