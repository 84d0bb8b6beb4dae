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
from typing import Iterable, Optional, Sequence

from .brazil import br_number
from .decision import Decision, Reason, refused
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


# ------------------------------------------------------------ paying a fine (54, c)


def may_pay_fine(fine_in_force: bool, due: Decimal, amount: Decimal) -> Decision:
    """A fine in force is paid once, exactly what is due, to the cent (Art. 54, c)."""
    if not fine_in_force:
        return refused("Art. 54, c", "not_a_fine_in_force", gettext_noop("Esta penalidade não é uma multa em vigor."))
    if due <= 0:
        return refused("Art. 54, c", "fine_already_paid", gettext_noop("Esta multa já está paga."))
    if to_cents(amount) != due:
        return refused("Art. 54, c", "wrong_amount", gettext_noop("O valor devido é R$ {due}."), due=br_number(due, 2))
    return Decision.allow("Art. 54, c")
