"""Django admin for enforcement (pt-BR). Procedure steps go through the API's services; the admin shows and edits the catalogue."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .models import Appeal, AutoDeInfracao, Complaint, Defence, FinePayment, InfractionType, Penalty, PenaltyDecision


@admin.register(InfractionType)
class InfractionTypeAdmin(admin.ModelAdmin):
    list_display = ("code", "description", "article", "group", "default_penalty", "effective_from", "effective_until")
    list_filter = ("group", "default_penalty")
    search_fields = ("code", "description", "article")


class DefenceInline(admin.StackedInline):
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
    readonly_fields = ("instance", "filed_on", "deposit_receipt", "deposit_amount", "judged_on", "result", "judgment_notified_on")
    fields = readonly_fields


@admin.register(AutoDeInfracao)
class AutoDeInfracaoAdmin(admin.ModelAdmin):
    list_display = ("number_display", "person", "permit", "committed_on", "origin", "status", "copy_delivered_on", "recorded_on")
    list_filter = ("status", "origin", "year")
    search_fields = ("person__full_name", "person__cpf", "permit__number", "observation")
    readonly_fields = ("year", "sequence", "origin", "complaint", "status", "recorded_on")
    filter_horizontal = ("infractions",)
    inlines = [DefenceInline]

    @admin.display(description=_("número"), ordering="sequence")
    def number_display(self, obj):
        return obj.number


@admin.register(PenaltyDecision)
class PenaltyDecisionAdmin(admin.ModelAdmin):
    list_display = ("auto", "decided_on", "status", "total_fine", "duty_persists", "notified_on")
    list_filter = ("status",)
    readonly_fields = ("auto", "total_fine", "duty_persists", "status", "articles")
    inlines = [PenaltyInline, AppealInline]


@admin.register(Appeal)
class AppealAdmin(admin.ModelAdmin):
    list_display = ("decision", "instance", "filed_on", "result", "judged_on", "judgment_notified_on")
    list_filter = ("instance", "result")


@admin.register(FinePayment)
class FinePaymentAdmin(admin.ModelAdmin):
    list_display = ("penalty", "kind", "paid_on", "amount", "receipt", "refunded_on")
    list_filter = ("kind",)


@admin.register(Complaint)
class ComplaintAdmin(admin.ModelAdmin):
    list_display = ("id", "passenger", "ride", "filed_at", "status", "triaged_on")
    list_filter = ("status",)
    readonly_fields = ("passenger", "ride", "ride_data", "filed_at")
