"""Django admin for enforcement (pt-BR). Procedure steps go through the API's services; the admin shows and edits the
catalogue, registers an appeal's judgment (upheld, granted, granted in part) through the same service, and decides an
auto and records the notifications of Art. 63, §2 and §4 as admin actions with a form (admin_acts.py)."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.forms.models import BaseInlineFormSet
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from backend.admin_doors import ReadOnlyRecordMixin, with_article
from backend.api_errors import LawViolation
from backend.parameters.admin import AppendOnlyAdmin

from . import admin_acts
from .display import ride_data_summary
from .models import (
    Appeal,
    AutoDeInfracao,
    Complaint,
    Defence,
    FinePayment,
    InfractionType,
    Penalty,
    PenaltyDecision,
    PenaltyReduction,
)
from .services import appeals as appeal_services
from .services import autos as auto_services
from .services import catalogue as catalogue_services


def _law_errors(violation: LawViolation) -> ValidationError:
    return ValidationError([f"{r['message']} ({r['article']})" for r in violation.reasons])


class InfractionVersionForm(forms.ModelForm):
    class Meta:
        model = InfractionType
        fields = (
            "code", "description", "article", "group", "fine_ufm", "default_penalty", "revocation_if_recidivist",
            "effective_from", "source",
        )

    def validate_unique(self):
        """The (code, date) pair is the service's to judge, with the article (Art. 64)."""

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        decision = catalogue_services.check_version(code=data["code"], effective_from=data["effective_from"], source=data["source"])
        if not decision:
            raise ValidationError([f"{r.message} ({r.article})" for r in decision.reasons])
        return data


@admin.register(InfractionType)
class InfractionTypeAdmin(AppendOnlyAdmin):
    """The catalogue (Art. 64) read-only; "Adicionar" records a new version from its date on."""

    form = InfractionVersionForm
    list_display = ("code", "description", "article", "group", "default_penalty", "effective_from", "effective_until")
    list_filter = ("group", "default_penalty")
    search_fields = ("code", "description", "article")

    def save_model(self, request, obj, form, change):
        fields = {f: form.cleaned_data[f] for f in form.cleaned_data if f not in ("code", "effective_from", "source")}
        created = catalogue_services.record_version(
            code=obj.code, effective_from=obj.effective_from, source=obj.source, **fields,
        )
        obj.pk, obj._state.adding, obj._state.db = created.pk, False, created._state.db


class DefenceInline(ReadOnlyRecordMixin, admin.StackedInline):
    model = Defence
    extra = 0
    can_delete = False


class PenaltyInline(admin.TabularInline):
    model = Penalty
    extra = 0
    can_delete = False
    readonly_fields = ("infraction", "kind", "base_amount", "amount", "recidivism_of", "starts_on", "ends_on", "suspension", "inquiry", "annulled_on")


class AppealInline(admin.TabularInline):
    model = Appeal
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False  # appeals are filed through the API (terms and deposit, Art. 63, §3, §5)
    readonly_fields = ("instance", "filed_on", "deposit_receipt", "deposit_amount", "judged_on", "result", "judgment_notified_on")
    fields = readonly_fields


@admin.register(AutoDeInfracao)
class AutoDeInfracaoAdmin(ReadOnlyRecordMixin, admin.ModelAdmin):
    """An auto is issued, its copy delivered and its defence filed through the services (Art. 60-63): the dates
    start the terms (Art. 63, §1-§3), so a date typed back here would decide early or refuse an appeal on time."""

    list_display = ("number_display", "person", "permit", "committed_on", "origin", "status", "copy_delivered_on", "recorded_on")
    list_filter = ("status", "origin", "year")
    search_fields = ("person__full_name", "person__cpf", "permit__number", "observation")
    readonly_fields = ("year", "sequence", "origin", "complaint", "status", "recorded_on")
    inlines = [DefenceInline]
    actions = ["deliver_copy_today", admin_acts.decide_auto]

    @admin.display(description=_("número"), ordering="sequence")
    def number_display(self, obj):
        return obj.number

    @admin.action(description=_("Registrar a entrega da cópia ao infrator hoje (Art. 62)"))
    def deliver_copy_today(self, request, queryset):
        for auto in queryset:
            try:
                auto_services.deliver_copy(auto=auto, delivered_on=timezone.localdate())
            except LawViolation as refusal:
                self.message_user(request, f"{auto.number}: " + " ".join(with_article(r) for r in refusal.decision.reasons),
                                  messages.ERROR)
            else:
                self.message_user(request, f"{auto.number}: " + gettext("cópia entregue hoje."), messages.SUCCESS)


@admin.register(PenaltyDecision)
class PenaltyDecisionAdmin(ReadOnlyRecordMixin, admin.ModelAdmin):
    """A decision is taken and notified only by its services (Art. 63, §1-§2: the dates decide the terms); an add
    form here crashed on the missing auto and a typed notification date would move the appeal's term."""

    list_display = ("auto", "decided_on", "status", "total_fine", "duty_persists", "notified_on")
    list_filter = ("status",)
    readonly_fields = ("auto", "total_fine", "duty_persists", "status", "articles")
    inlines = [PenaltyInline, AppealInline]
    actions = [admin_acts.notify_decision]


REDUCTION_INPUT = ("penalty", "kind", "amount", "starts_on", "ends_on", "involuntary", "serious_consequences", "reasoning")
REDUCTION_RECORD = ("previous_kind", "previous_amount", "previous_starts_on", "previous_ends_on", "refunded_amount")


def _reduction_choices(formset) -> list[appeal_services.ReductionChoice]:
    return [
        appeal_services.ReductionChoice(**{name: form.cleaned_data.get(name) for name in REDUCTION_INPUT})
        for form in formset.forms
        if form.instance.pk is None and form.cleaned_data and form.cleaned_data.get("penalty")
    ]


class PenaltyReductionFormSet(BaseInlineFormSet):
    """The reduced penalties of a partial judgment, checked by the law core together with the judgment (Art. 63, §3)."""

    def clean(self):
        super().clean()
        if any(self.errors) or self.instance.pk is None:
            return
        stored = Appeal.objects.get(pk=self.instance.pk)
        judged = self.instance  # carries the judgment typed in the form above, not saved yet
        reductions = _reduction_choices(self)
        if stored.result != Appeal.Result.PENDING or judged.judged_on is None:
            return
        if judged.result == Appeal.Result.PENDING and not reductions:
            return
        try:
            appeal_services.check_judgment(
                appeal=stored, judged_on=judged.judged_on, result=judged.result, judgment_text=judged.judgment_text, reductions=reductions
            )
        except LawViolation as exc:
            raise _law_errors(exc) from exc


class PenaltyReductionInline(admin.TabularInline):
    """Provimento parcial: one row per penalty lightened; after the judgment, the record of what it was (Art. 63, §3, §5)."""

    model = PenaltyReduction
    formset = PenaltyReductionFormSet
    fk_name = "appeal"
    fields = REDUCTION_INPUT + REDUCTION_RECORD
    can_delete = False

    def _pending(self, obj) -> bool:
        return obj is not None and obj.result == Appeal.Result.PENDING

    def get_readonly_fields(self, request, obj=None):
        return REDUCTION_RECORD if self._pending(obj) else REDUCTION_INPUT + REDUCTION_RECORD

    def get_extra(self, request, obj=None, **kwargs):
        if not self._pending(obj):
            return 0
        return obj.decision.penalties.filter(annulled_on__isnull=True).count()

    def has_add_permission(self, request, obj=None):
        return self._pending(obj) and super().has_add_permission(request, obj)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "penalty":
            appeal_id = request.resolver_match.kwargs.get("object_id") if request.resolver_match else None
            decision_id = Appeal.objects.filter(pk=appeal_id).values_list("decision_id", flat=True).first() if appeal_id else None
            kwargs["queryset"] = Penalty.objects.filter(decision_id=decision_id, annulled_on__isnull=True).select_related("infraction")
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class AppealJudgmentForm(forms.ModelForm):
    class Meta:
        model = Appeal
        fields = ["judged_on", "result", "judgment_text"]

    def clean(self):
        data = super().clean()
        if data.get("result") and data["result"] != Appeal.Result.PENDING:
            if not data.get("judged_on"):
                self.add_error("judged_on", gettext("Informe a data do julgamento."))
            if not (data.get("judgment_text") or "").strip():
                self.add_error("judgment_text", gettext("Fundamente o julgamento."))
        return data


@admin.register(Appeal)
class AppealAdmin(admin.ModelAdmin):
    """Appeals are filed through the API (deposit, terms: Art. 63, §3, §5); here COMUTRAM's / the Mayor's judgment is registered."""

    form = AppealJudgmentForm
    service_of_record = "backend.enforcement.services.appeals.judge_appeal"
    list_display = ("decision", "instance", "filed_on", "result", "judged_on", "judgment_notified_on")
    list_filter = ("instance", "result")
    fields = (
        "decision", "instance", "filed_on", "grounds", "deposit_receipt", "deposit_amount",
        "judged_on", "result", "judgment_text", "judgment_notified_on", "archived_inquiries_display",
    )
    inlines = [PenaltyReductionInline]
    actions = [admin_acts.notify_judgment]
    FILED = ("decision", "instance", "filed_on", "grounds", "deposit_receipt", "deposit_amount", "judgment_notified_on", "archived_inquiries_display")

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.result != Appeal.Result.PENDING:
            return self.FILED + ("judged_on", "result", "judgment_text")
        return self.FILED

    @admin.display(description=_("inquéritos arquivados por este julgamento"))
    def archived_inquiries_display(self, obj):
        return ", ".join(f"#{i.pk} ({i.permit})" for i in obj.archived_inquiries.select_related("permit")) or "—"

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        pass  # the judgment is registered by appeal_services.judge_appeal in save_related, never written directly

    def save_related(self, request, form, formsets, change):
        for formset in formsets:  # the service writes the rows; the admin's change message reads these
            formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
        stored = Appeal.objects.get(pk=form.instance.pk)
        result = form.cleaned_data.get("result")
        if stored.result != Appeal.Result.PENDING or result in (None, Appeal.Result.PENDING):
            return
        formset = next((f for f in formsets if f.model is PenaltyReduction), None)
        appeal = appeal_services.judge_appeal(
            appeal=stored, judged_on=form.cleaned_data["judged_on"], result=result,
            judgment_text=form.cleaned_data["judgment_text"], reductions=_reduction_choices(formset) if formset else [],
        )
        if formset is not None:
            formset.new_objects = list(appeal.reductions.all())


@admin.register(FinePayment)
class FinePaymentAdmin(ReadOnlyRecordMixin, admin.ModelAdmin):
    """Fines are paid through ``pay_fine`` (the amount and its date are the penalty's)."""

    list_display = ("penalty", "kind", "paid_on", "amount", "receipt", "refunded_on")
    list_filter = ("kind",)


@admin.register(Complaint)
class ComplaintAdmin(ReadOnlyRecordMixin, admin.ModelAdmin):
    """Filed by the passenger and triaged through ``triage_complaint`` (Art. 60), which may issue the auto."""

    list_display = ("id", "passenger", "ride", "filed_at", "status", "triaged_on")
    list_filter = ("status",)
    readonly_fields = ("passenger", "ride", "ride_summary", "filed_at")

    @admin.display(description=_("dados da corrida"))
    def ride_summary(self, obj):
        """The ride's data as a reader wants it (the trace summarized), with the ride's receipt."""
        return ride_data_summary(obj.ride_data, obj.ride)
