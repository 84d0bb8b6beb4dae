"""The procedure's acts after the defence as admin actions with an intermediate form (backend/admin_act_form.py),
each through the same service as the API (docs/doors.md):

- Art. 63 (and 54-59): the decision on an auto once the defence term is over (``decisions.decide``), one penalty per
  infraction, cumulated;
- Art. 63, §2: the infractor notified of the decision, from which the appeal's term runs (``decisions.notify_decision``);
- Art. 63, §4: the infractor notified of an appeal's judgment within 10 days (``appeals.notify_judgment``).

The appeal's judgment itself is registered on the appeal's change form, through ``appeals.judge_appeal``.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from backend.admin_act_form import act_with_form, admin_act, brazilian, date_field
from taxilaw.revocation import RevocationGround

from .models import PENALTY_KINDS, AutoDeInfracao
from .services import appeals as appeal_services
from .services import decisions as decision_services

UPHELD = [("1", _("auto mantido: aplicar as penalidades")), ("0", _("auto arquivado: sem penalidade"))]


class AutoDecisionForm(forms.Form):
    """The decision's fields as the API's AutoDecideSerializer takes them, and one penalty per infraction (Art. 58)."""

    decided_on = date_field(_("data da decisão"))
    upheld = forms.TypedChoiceField(label=_("decisão"), choices=UPHELD, coerce=lambda v: v == "1", initial="1")
    reasoning = forms.CharField(label=_("fundamentação"), widget=forms.Textarea(attrs={"rows": 3, "cols": 60}))
    involuntary = forms.BooleanField(label=_("infração involuntária (Art. 56)"), required=False)
    serious_consequences = forms.BooleanField(label=_("com consequências graves (Art. 56)"), required=False, initial=True)

    def __init__(self, auto: AutoDeInfracao, *args, **kwargs):
        super().__init__(*args, **kwargs)
        grounds = [(g.value, f"{g.label} ({g.value})") for g in RevocationGround]
        for infraction in auto.infractions.order_by("pk"):
            name = f"{infraction.description} ({infraction.article})"
            self.fields[f"kind_{infraction.pk}"] = forms.ChoiceField(label=_("penalidade: %s") % name, choices=PENALTY_KINDS)
            self.fields[f"starts_on_{infraction.pk}"] = date_field(_("suspensão: início"), today=False, required=False)
            self.fields[f"ends_on_{infraction.pk}"] = date_field(_("suspensão: fim"), today=False, required=False)
            self.fields[f"revocation_ground_{infraction.pk}"] = forms.ChoiceField(
                label=_("revogação: fundamento (Art. 9)"), choices=grounds, initial=RevocationGround.BREACH_OF_TERM.value)


def _decide(auto: AutoDeInfracao, data: dict):
    choices = [
        decision_services.PenaltyChoice(
            infraction=infraction, kind=data[f"kind_{infraction.pk}"], starts_on=data[f"starts_on_{infraction.pk}"],
            ends_on=data[f"ends_on_{infraction.pk}"], revocation_ground=data[f"revocation_ground_{infraction.pk}"])
        for infraction in auto.infractions.order_by("pk")
    ] if data["upheld"] else []
    return decision_services.decide(
        auto=auto, decided_on=data["decided_on"], reasoning=data["reasoning"], upheld=data["upheld"], choices=choices,
        involuntary=data["involuntary"], serious_consequences=data["serious_consequences"])


@admin_act(service="backend.enforcement.services.decisions.decide",
           description=_("Decidir o auto após a defesa (Art. 63)"))
def decide_auto(modeladmin, request, queryset):
    return act_with_form(
        modeladmin, request, queryset, form_class=lambda data: AutoDecisionForm(queryset.get(), data), single=True,
        title=gettext("Decidir o auto após a defesa"),
        intro=gettext("Vencido o prazo da defesa (Art. 63, §1), a autoridade decide: uma penalidade por infração, "
                      "cumulativamente (Art. 54-59), ou o arquivamento. A multa é a do dia da infração (Art. 55)."),
        perform=_decide,
        done=lambda decision: gettext("decisão de %(day)s registrada: %(status)s.")
        % {"day": brazilian(decision.decided_on), "status": decision.get_status_display()},
    )


class NotifiedForm(forms.Form):
    notified_on = date_field(_("notificado em"))


@admin_act(service="backend.enforcement.services.decisions.notify_decision",
           description=_("Registrar a notificação da decisão (Art. 63, §2)"))
def notify_decision(modeladmin, request, queryset):
    return act_with_form(
        modeladmin, request, queryset, form_class=NotifiedForm, title=gettext("Registrar a notificação da decisão"),
        intro=gettext("O dia em que o infrator foi notificado da decisão: o prazo do recurso corre dele (Art. 63, §2)."),
        perform=lambda decision, data: decision_services.notify_decision(decision=decision, **data),
        done=lambda decision: gettext("notificação de %(day)s registrada.") % {"day": brazilian(decision.notified_on)},
    )


@admin_act(service="backend.enforcement.services.appeals.notify_judgment",
           description=_("Registrar a notificação do julgamento do recurso (Art. 63, §4)"))
def notify_judgment(modeladmin, request, queryset):
    return act_with_form(
        modeladmin, request, queryset, form_class=NotifiedForm, title=gettext("Registrar a notificação do julgamento"),
        intro=gettext("O infrator é notificado do julgamento do recurso em até 10 dias (Art. 63, §4)."),
        perform=lambda appeal, data: appeal_services.notify_judgment(appeal=appeal, **data),
        done=lambda appeal: gettext("notificação de %(day)s registrada.") % {"day": brazilian(appeal.judgment_notified_on)},
    )
