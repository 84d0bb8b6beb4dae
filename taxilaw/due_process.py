"""The administrative procedure of a penalty: the passenger's complaint (Art. 60), the auto and its copy
(Art. 60-62, 64), and the terms of defence, decision, notice and appeal (Art. 63, §1-§5).

Split from :mod:`taxilaw.penalties` (the penalties themselves). Readings are in docs/readings-enforcement.md.
Nothing here imports Django.
"""

from __future__ import annotations

import enum
from datetime import date
from typing import Collection, Optional, Sequence

from .calendar import day_term_end
from .decision import Decision, Reason, refused
from .i18n import gettext_noop
from .penalties import APPEAL_DAYS, DEFENCE_DAYS, JUDGMENT_NOTICE_DAYS

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


# ------------------------------------------------ filing an appeal and its judgment's notice (63, §3-§4)


def appeal_has_object(penalty_in_force: bool) -> Decision:
    """An appeal is against a penalty decision in force (Art. 63, §3)."""
    if not penalty_in_force:
        return refused("Art. 63, §3", "nothing_to_appeal", gettext_noop("Não há penalidade em vigor a recorrer."))
    return Decision.allow("Art. 63, §3")


def instance_not_yet_appealed(already_appealed: bool) -> Decision:
    """One appeal per instance, COMUTRAM then the Mayor (Art. 63, §3)."""
    if already_appealed:
        return refused("Art. 63, §3", "appeal_exists", gettext_noop("Já há recurso nesta instância."))
    return Decision.allow("Art. 63, §3")


def second_instance_open(first_judged_and_notified: bool) -> Decision:
    """The Mayor hears an appeal only after COMUTRAM judged the first and the infractor was told (Art. 63, §3)."""
    if not first_judged_and_notified:
        return refused(
            "Art. 63, §3", "first_instance_pending",
            gettext_noop("O recurso ao Prefeito cabe depois do julgamento do COMUTRAM, notificado ao infrator (Art. 63, §3)."),
        )
    return Decision.allow("Art. 63, §3")


def judgment_to_notify(judged: bool) -> Decision:
    """Only a judged appeal has a judgment to notify (Art. 63, §4)."""
    if not judged:
        return refused("Art. 63, §4", "appeal_not_judged", gettext_noop("O recurso ainda não foi julgado."))
    return Decision.allow("Art. 63, §4")


def judgment_not_yet_notified(notified_on: Optional[date]) -> Decision:
    """The infractor is told of a judgment once (Art. 63, §4)."""
    if notified_on is not None:
        return refused("Art. 63, §4", "already_notified", gettext_noop("O infrator já foi cientificado em {on}."), on=notified_on)
    return Decision.allow("Art. 63, §4")


# ------------------------------------------------------- the acts on an auto and its decision (58, 63)


def defence_open(auto_open: bool, defence_filed: bool) -> Decision:
    """One written defence, while the auto is open (Art. 63, §1)."""
    if not auto_open or defence_filed:
        return refused("Art. 63, §1", "defence_not_open", gettext_noop("Não cabe mais defesa neste auto."))
    return Decision.allow("Art. 63, §1")


def auto_open_to_decide(auto_open: bool) -> Decision:
    """An auto is judged once (Art. 63)."""
    if not auto_open:
        return refused("Art. 63", "auto_already_decided", gettext_noop("Este auto já foi julgado."))
    return Decision.allow("Art. 63")


def one_penalty_per_infraction(infractions: Collection[object], chosen: Sequence[object]) -> Decision:
    """Each infraction of the auto gets its penalty, cumulatively (Art. 58): ``chosen`` names each infraction once."""
    if set(chosen) != set(infractions) or len(set(chosen)) != len(chosen):
        return refused("Art. 58", "one_penalty_per_infraction",
                       gettext_noop("Aplique uma penalidade a cada infração do auto, cumulativamente (Art. 58)."))
    return Decision.allow("Art. 58")


def decision_not_yet_notified(notified_on: Optional[date]) -> Decision:
    """The infractor is notified of a decision once; the appeal term runs from it (Art. 63, §2)."""
    if notified_on is not None:
        return refused("Art. 63, §2", "already_notified", gettext_noop("O infrator já foi notificado em {on}."), on=notified_on)
    return Decision.allow("Art. 63, §2")
