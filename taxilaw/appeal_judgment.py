"""The judgment of an appeal granted in part (provimento parcial, Art. 63, §3): the scale of the kinds of
Art. 54, the reductions an instance may order, the refund and the revocation inquiry it archives.

Readings are in docs/readings-enforcement.md. Nothing here imports Django.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Iterable, Optional

from .brazil import br_number
from .decision import Decision, Reason, refused
from .due_process import AppealInstance
from .i18n import gettext_noop
from .parameters import Parameters
from .penalties import (
    FineGroup,
    InfractionSpec,
    PenaltyKind,
    PenaltyLine,
    PriorPenalty,
    assess_fine,
    base_fine,
    group_fine,
    may_impose,
    suspension_period,
    to_cents,
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


# ------------------------------------------------------------- registering the judgment (63, §3)

#: The three outcomes of an appeal (Art. 63, §3): upheld (improvido), granted (provido), granted in part.
JUDGMENT_RESULTS = ("upheld", "granted", "partial")


def judgment_result_valid(result: str) -> Decision:
    """An appeal is granted, granted in part or upheld (Art. 63, §3)."""
    if result not in JUDGMENT_RESULTS:
        return refused(
            "Art. 63, §3", "judgment_result_invalid",
            gettext_noop("O julgamento deve prover, prover em parte ou negar provimento ao recurso."),
        )
    return Decision.allow("Art. 63, §3")


def appeal_still_pending(pending: bool) -> Decision:
    """An appeal is judged once (Art. 63, §3)."""
    if not pending:
        return refused("Art. 63, §3", "appeal_already_judged", gettext_noop("Este recurso já foi julgado."))
    return Decision.allow("Art. 63, §3")


def judged_after_filing(filed_on: date, judged_on: Optional[date]) -> Decision:
    """A judgment has a date, not before the appeal it judges (Art. 63, §3)."""
    if judged_on is None or judged_on < filed_on:
        return refused(
            "Art. 63, §3", "judgment_before_appeal", gettext_noop("O julgamento não pode anteceder o recurso ({on})."), on=filed_on)
    return Decision.allow("Art. 63, §3")


def reductions_only_when_partial(partial: bool, reductions: int) -> Decision:
    """Only an appeal granted in part reduces penalties (Art. 63, §3)."""
    if reductions and not partial:
        return refused(
            "Art. 63, §3", "reductions_only_when_partial", gettext_noop("Penalidades reduzidas só cabem no provimento parcial."))
    return Decision.allow("Art. 63, §3")


def reduction_of_a_penalty_in_force(in_force: bool, already_named: bool, penalty: object) -> Decision:
    """A reduction names a penalty in force of the decision appealed, once (Art. 63, §3)."""
    if not in_force or already_named:
        return refused(
            "Art. 63, §3", "reduction_penalty_invalid",
            gettext_noop("A penalidade {penalty} não é uma penalidade em vigor da decisão recorrida, ou foi indicada mais de uma vez."),
            penalty=penalty,
        )
    return Decision.allow("Art. 63, §3")
