"""Revocation of a permit: Art. 9 I-IX, Art. 10 (inquiry), Art. 11 and § único."""

from __future__ import annotations

import enum
from datetime import date, timedelta
from typing import Collection, Iterable, Optional

from .calendar import add_working_days, add_years, day_term_end
from .decision import Decision, Reason, refused
from .i18n import gettext_noop
from .permits import PermitReturn, PermitStatus

#: Art. 10, §1: working days to present the defence.
DEFENCE_WORKING_DAYS = 5
#: Art. 11, § único, I: days after the final judgment to ask to substitute the vehicle.
JUDICIAL_LOSS_REQUEST_DAYS = 30
#: Art. 9, V: days away from the rank in a month (consecutive / alternate).
ABSENCE_CONSECUTIVE_DAYS = 5
ABSENCE_TOTAL_DAYS = 10


class RevocationGround(str, enum.Enum):
    """The grounds of revocation of Art. 9, I-IX, and those other articles name (Art. 11, § único, I,
    Art. 27, §2, Art. 34, § único, Art. 50); every one is preceded by the inquiry of Art. 10
    (reading in docs/readings-registry.md)."""

    DISCRETION = "discretion"  # I
    BREACH_OF_TERM = "breach_of_term"  # II
    MISCONDUCT = "misconduct"  # III
    LICENCE_CASSATED = "licence_cassated"  # IV
    ABSENT_FROM_RANK = "absent_from_rank"  # V
    UNAUTHORIZED_DRIVER = "unauthorized_driver"  # VI
    LOCK_OUT = "lock_out"  # VII
    NOT_EXERCISING = "not_exercising"  # VIII
    FORBIDDEN_FUEL = "forbidden_fuel"  # IX
    JUDICIAL_LOSS_LATE = "judicial_loss_late"  # Art. 11, § único, I
    RANK_UNSTAFFED = "rank_unstaffed"  # Art. 27, §2
    TOLERANCE_OVER = "tolerance_over"  # Art. 34, § único
    AUX_NOT_ENROLLED = "aux_not_enrolled"  # Art. 50

    @property
    def article(self) -> str:
        return _GROUNDS[self][0]

    @property
    def label(self) -> str:
        return _GROUNDS[self][1]


_GROUNDS = {
    RevocationGround.DISCRETION: ("Art. 9, I", gettext_noop("A qualquer tempo, a critério do órgão permitente")),
    RevocationGround.BREACH_OF_TERM: (
        "Art. 9, II",
        gettext_noop("Descumprimento das condições do termo de compromisso ou das normas complementares"),
    ),
    RevocationGround.MISCONDUCT: (
        "Art. 9, III",
        gettext_noop("Má conduta: condenação por delitos contra o patrimônio ou contra os costumes"),
    ),
    RevocationGround.LICENCE_CASSATED: ("Art. 9, IV", gettext_noop("Cassação do documento de habilitação do permissionário")),
    RevocationGround.ABSENT_FROM_RANK: (
        "Art. 9, V",
        gettext_noop("Veículo ausente do ponto por 5 dias consecutivos ou 10 alternados no mês, sem força maior justificada"),
    ),
    RevocationGround.UNAUTHORIZED_DRIVER: (
        "Art. 9, VI",
        gettext_noop("Direção do veículo entregue a terceiro em desacordo com a lei"),
    ),
    RevocationGround.LOCK_OUT: ("Art. 9, VII", gettext_noop("Lock-out (recusa da prestação do serviço)")),
    RevocationGround.NOT_EXERCISING: ("Art. 9, VIII", gettext_noop("O profissional autônomo deixou de exercer efetivamente a atividade")),
    RevocationGround.FORBIDDEN_FUEL: ("Art. 9, IX", gettext_noop("Circulação com veículo movido a combustível proibido")),
    RevocationGround.JUDICIAL_LOSS_LATE: (
        "Art. 11, § único, I",
        gettext_noop("Veículo perdido por decisão judicial sem pedido de substituição em 30 dias do trânsito em julgado"),
    ),
    RevocationGround.RANK_UNSTAFFED: (
        "Art. 27, §2",
        gettext_noop("Desistência tácita: ponto encontrado desprovido de veículos em 3 observações consecutivas"),
    ),
    RevocationGround.TOLERANCE_OVER: (
        "Art. 34, § único",
        gettext_noop("Tolerância para a substituição do veículo esgotada sem veículo enquadrado"),
    ),
    RevocationGround.AUX_NOT_ENROLLED: ("Art. 50", gettext_noop("Matrícula de auxiliar não providenciada no prazo")),
}


def absence_from_rank(absent_days: Iterable[date], justified_days: Collection[date] = ()) -> Decision:
    """Is there ground of Art. 9, V in one calendar month? 5 consecutive or 10 alternate unjustified absences.

    ``absent_days`` are the days the vehicle was not at its rank;
    ``justified_days`` those excused for force majeure. The decision
    *refuses* (i.e. the ground is present) when, within a calendar month,
    there are 5 consecutive or 10 in total unjustified days of absence.
    """
    by_month: dict[tuple[int, int], list[date]] = {}
    for day in sorted(set(absent_days) - set(justified_days)):
        by_month.setdefault((day.year, day.month), []).append(day)
    for (year, month), days in by_month.items():
        run = best = 1
        for previous, current in zip(days, days[1:]):
            run = run + 1 if current - previous == timedelta(days=1) else 1
            best = max(best, run)
        if best >= ABSENCE_CONSECUTIVE_DAYS or len(days) >= ABSENCE_TOTAL_DAYS:
            return Decision.refuse(
                Reason(
                    "Art. 9, V",
                    "absent_from_rank",
                    gettext_noop(
                        "Em {month}/{year} o veículo faltou ao ponto {total} dias ({consecutive} consecutivos) sem justificativa (Art. 9, V)."
                    ),
                    {"month": f"{month:02d}", "year": year, "total": len(days), "consecutive": best},
                )
            )
    return Decision.allow("Art. 9, V")


def may_summon(opened_on: date, summoned_on: date, already_summoned_on: Optional[date], today: date) -> Decision:
    """May the holder's summons be recorded as served on ``summoned_on``? (Art. 10, Art. 10, §1)

    The summons ("intimação") is an act of its own, dated the day the holder
    was actually summoned: never before the inquiry was opened, never in the
    future, and once (the defence term runs from the first one).
    """
    if already_summoned_on is not None:
        return Decision.refuse(Reason(
            "Art. 10, §1", "already_summoned",
            gettext_noop("O permissionário já foi intimado em {on}; o prazo de defesa corre dessa data (Art. 10, §1)."),
            {"on": already_summoned_on},
        ))
    if summoned_on < opened_on:
        return Decision.refuse(Reason("Art. 10, §1", "summons_before_opening",
                                      gettext_noop("A intimação não pode anteceder a instauração.")))
    if summoned_on > today:
        return Decision.refuse(Reason(
            "Art. 10, §1", "summons_in_future",
            gettext_noop("A intimação registra um fato ocorrido: não pode ter data futura ({on})."), {"on": summoned_on},
        ))
    return Decision.allow("Art. 10", "Art. 10, §1")


def defence_deadline(summoned_on: date, municipal_holidays: Collection[date] = ()) -> date:
    """Last day of the defence in the revocation inquiry: 5 working days from the summons (Art. 10, §1)."""
    return add_working_days(summoned_on, DEFENCE_WORKING_DAYS, municipal_holidays)


def may_decide_revocation(
    summoned_on: Optional[date],
    defence_filed_on: Optional[date],
    decide_on: date,
    holidays: Collection[date] = (),
) -> Decision:
    """May the inquiry decide on the revocation on ``decide_on``? (Art. 10, Art. 10, §1, Art. 10, §2)

    Never before the holder is summoned ("o mais amplo direito de defesa"),
    then not until the 5 working days of defence counted from the summons have
    run out (the whole last day belongs to the defence), unless the defence was
    already filed. When allowed, the articles include Art. 10, §2: a revocation
    gives no right to any indemnity.
    """
    start = summoned_on if summoned_on is not None else defence_filed_on
    if start is None:
        return Decision.refuse(Reason(
            "Art. 10, §1", "inquiry_not_summoned",
            gettext_noop("O permissionário ainda não foi intimado: o prazo de defesa não começou e o inquérito não pode ser decidido (Art. 10, §1)."),
        ), articles=("Art. 10",))
    deadline = defence_deadline(start, holidays)
    if defence_filed_on is not None and decide_on >= defence_filed_on:
        return Decision.allow("Art. 10", "Art. 10, §1", "Art. 10, §2")
    if decide_on > deadline:
        return Decision.allow("Art. 10", "Art. 10, §1", "Art. 10, §2")
    return Decision.refuse(
        Reason(
            "Art. 10, §1",
            "defence_term_running",
            gettext_noop("O prazo de defesa (5 dias úteis da intimação) vai até {deadline}; a revogação não pode ser decidida antes (Art. 10, §1)."),
            {"deadline": deadline},
        ),
        articles=("Art. 10",),
    )


def revoke_permit(ground: RevocationGround, revoked_on: date) -> PermitReturn:
    """The revoked permit returns to the municipality and is refilled by public contest (Art. 11).

    No indemnity is due (Art. 10, §2) and the former holder is barred from
    future permits (Art. 9, § único).
    """
    ground = RevocationGround(ground)
    return PermitReturn(
        status=PermitStatus.REVOKED,
        returned_on=revoked_on,
        refill_by_contest=True,
        indemnity=False,
        permanent_bar=True,
        decision=Decision.allow(ground.article, "Art. 9, § único", "Art. 10, §2", "Art. 11"),
    )


def judicial_loss_request_deadline(judgment_final_on: date, municipal_holidays: Collection[date] = ()) -> date:
    """Last day to ask to substitute the vehicle lost by a final judgment: 30 days (Art. 11, § único, I)."""
    return day_term_end(judgment_final_on, JUDICIAL_LOSS_REQUEST_DAYS, municipal_holidays)


def may_substitute_after_judicial_loss(
    judgment_final_on: date,
    requested_on: date,
    proof_presented: bool,
    municipal_holidays: Collection[date] = (),
) -> Decision:
    """Vehicle substitution after losing it by a final judgment (Art. 11, § único, I-II).

    Requested within 30 days of the judgment becoming final (Art. 11, § único,
    I; later, the permit is revoked) and with proof of the loss (Art. 11,
    § único, II).
    """
    reasons = []
    deadline = judicial_loss_request_deadline(judgment_final_on, municipal_holidays)
    if requested_on > deadline:
        reasons.append(
            Reason(
                "Art. 11, § único, I",
                "judicial_loss_request_late",
                gettext_noop(
                    "A substituição devia ser requerida até {deadline}, 30 dias do trânsito em julgado; a permissão será revogada (Art. 11, § único, I)."
                ),
                {"deadline": deadline},
            )
        )
    if not proof_presented:
        reasons.append(
            Reason(
                "Art. 11, § único, II",
                "judicial_loss_proof_missing",
                gettext_noop("Apresente o comprovante da perda da posse ou propriedade do veículo (Art. 11, § único, II)."),
            )
        )
    if reasons:
        return Decision.refuse(*reasons, articles=("Art. 11, § único",))
    return Decision.allow("Art. 11, § único", "Art. 11, § único, I", "Art. 11, § único, II")


#: Grounds with no fault of the holder: the municipality's discretion (Art. 9, I). A revocation on them does not bar.
NO_FAULT_GROUNDS = frozenset({RevocationGround.DISCRETION})


def revocation_bars(ground: Optional[str], revoked_on: Optional[date], on: date, bar_years: int) -> bool:
    """Does a revocation bar its holder from future permits on ``on`` (Art. 9, § único)? Not one on a ground with no
    fault (Art. 9, I: the municipality's discretion), and not forever: CF art. 5, XLVII, b forbids sanctions of
    perpetual character, so the bar lasts ``bar_years`` (the dated parameter ``revocation_bar_years``) from the
    revocation (docs/readings-registry.md). A revocation with no recorded ground or date bars, as the text says."""
    if ground is not None and ground in {g.value for g in NO_FAULT_GROUNDS}:
        return False
    if revoked_on is None:
        return True
    return on < add_years(revoked_on, bar_years)



def may_open_inquiry(permit_live: bool) -> Decision:
    """The inquiry that precedes a revocation is opened on a permit in force (Art. 10)."""
    if not permit_live:
        return refused("Art. 10", "permit_not_live", gettext_noop("A permissão não está em vigor."))
    return Decision.allow("Art. 10")


def inquiry_pending(pending: bool) -> Decision:
    """An inquiry is decided once; a decided one takes no more acts (Art. 10)."""
    if not pending:
        return refused("Art. 10", "inquiry_closed", gettext_noop("Este inquérito já foi decidido."))
    return Decision.allow("Art. 10")


def defence_in_term(pending: bool, summoned_on: Optional[date], deadline: Optional[date], filed_on: date) -> Decision:
    """The written defence comes between the summons and 5 working days after it (Art. 10, §1)."""
    if not pending or summoned_on is None or deadline is None or not summoned_on <= filed_on <= deadline:
        return refused(
            "Art. 10, §1", "defence_out_of_term",
            gettext_noop("A defesa deve ser apresentada entre a intimação e {deadline} (5 dias úteis, Art. 10, §1)."),
            deadline=deadline,
        )
    return Decision.allow("Art. 10, §1")
