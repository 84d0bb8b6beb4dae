"""DIMUTRAN's admin for tariffs (pt-BR). Every write is checked by the law core; the Art. 44
alert is shown on the tariff list."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from backend.admin_doors import ServiceAddForm, ServiceRecordAdmin
from backend.api_errors import LawViolation, require
from taxilaw import tariff_acts
from taxilaw.brazil import brl

from . import selectors, services
from .models import CorrectionTable, TariffDecree, TariffStudy, TariffStudyItem


def _law_errors(violation: LawViolation) -> ValidationError:
    return ValidationError([f"{r['message']} ({r['article']})" for r in violation.reasons])


def _alert_message(request) -> None:
    alert = selectors.review_alert()
    if not alert.allowed:
        for reason in alert.reasons:
            messages.warning(request, f"{reason.render(gettext)} ({reason.article})")


class TariffDecreeForm(forms.ModelForm):
    class Meta:
        model = TariffDecree
        fields = services.TARIFF_FIELDS

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        from django.utils import timezone

        try:
            if self.instance.pk and data.get("effective_from"):
                require(tariff_acts.may_amend_to(data["effective_from"], timezone.localdate()))
            require(services.check_tariff(data, instance=self.instance if self.instance.pk else None))
        except LawViolation as exc:
            raise _law_errors(exc) from exc
        return data


@admin.register(TariffDecree)
class TariffDecreeAdmin(admin.ModelAdmin):
    service_of_record = "backend.tariffs.services.decree_tariff"  # amend_tariff and revoke_tariff before it is in force
    form = TariffDecreeForm
    list_display = ("effective_from", "decree", "bandeirada_brl", "km_b1_brl", "km_b2_brl", "hour_brl", "in_force", "review_due_on")
    date_hierarchy = "effective_from"
    search_fields = ("decree",)

    @admin.display(description=_("bandeirada"))
    def bandeirada_brl(self, obj):
        return brl(obj.bandeirada)

    @admin.display(description=_("km Bandeira I"))
    def km_b1_brl(self, obj):
        return brl(obj.price_km_b1)

    @admin.display(description=_("km Bandeira II"))
    def km_b2_brl(self, obj):
        return brl(obj.price_km_b2)

    @admin.display(description=_("hora de espera"))
    def hour_brl(self, obj):
        return brl(obj.price_hour_waiting)

    @admin.display(description=_("em vigor"), boolean=True)
    def in_force(self, obj):
        current = selectors.tariff_decree_in_force()
        return current is not None and current.pk == obj.pk

    @admin.display(description=_("reajuste devido em (Art. 44)"))
    def review_due_on(self, obj):
        return obj.review_due_on.strftime("%d/%m/%Y")

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.is_in_force_or_past():
            return services.TARIFF_FIELDS  # immutable once in force (Art. 44)
        return ()

    def has_delete_permission(self, request, obj=None):
        if obj is not None and obj.is_in_force_or_past():
            return False
        return super().has_delete_permission(request, obj)

    def delete_queryset(self, request, queryset):
        for obj in queryset:
            try:
                services.revoke_tariff(obj)
            except LawViolation as exc:
                messages.error(request, f"{obj}: {exc.detail}")

    def delete_model(self, request, obj):
        try:
            services.revoke_tariff(obj)
        except LawViolation as exc:
            messages.error(request, exc.detail)

    def save_model(self, request, obj, form, change):
        data = {name: form.cleaned_data.get(name, getattr(obj, name)) for name in services.TARIFF_FIELDS}
        if change:
            services.amend_tariff(obj, **data)
        else:
            obj.pk = services.decree_tariff(**data).pk

    def changelist_view(self, request, extra_context=None):
        _alert_message(request)
        return super().changelist_view(request, extra_context)


class CorrectionTableAddForm(ServiceAddForm):
    """The Mayor's authorization registered by the API's service (Art. 45, §3-§4)."""

    service_of_record = "backend.tariffs.services.authorize_correction_table"

    class Meta:
        model = CorrectionTable
        fields = list(services.CORRECTION_FIELDS)


@admin.register(CorrectionTable)
class CorrectionTableAdmin(ServiceRecordAdmin):
    """Registered through ``authorize_correction_table``; an authorized table is a dated act, never edited."""

    add_form = CorrectionTableAddForm
    list_display = ("tariff", "factor", "authorization", "authorized_on", "valid_from", "valid_until")
    list_filter = ("tariff",)

    def changelist_view(self, request, extra_context=None):
        _alert_message(request)
        return super().changelist_view(request, extra_context)


class TariffStudyItemInline(admin.TabularInline):
    model = TariffStudyItem
    extra = 0


RESULT_FIELDS = ("cost_per_km", "cost_per_paid_km", "proposed_bandeirada", "proposed_km_b1", "proposed_km_b2",
                 "proposed_hour_waiting", "capital_capped", "lines", "warnings", "report_links")


@admin.register(TariffStudy)
class TariffStudyAdmin(admin.ModelAdmin):
    # A study is DIMUTRAN's working paper (Art. 42): its inputs are typed here, its results only computed.
    service_of_record = "backend.tariffs.services.recompute_study"
    list_display = ("reference", "effective_from", "vehicle_description", "proposed_b1_brl", "capital_capped", "report_links")
    inlines = [TariffStudyItemInline]
    readonly_fields = RESULT_FIELDS
    exclude = ("created_by",)

    @admin.display(description=_("km Bandeira I proposto"))
    def proposed_b1_brl(self, obj):
        return brl(obj.proposed_km_b1)

    @admin.display(description=_("relatório"))
    def report_links(self, obj):
        if not obj.pk:
            return "—"
        return format_html('<a href="{}">HTML</a> · <a href="{}">PDF</a>',
                           reverse("tariff-study-report", args=[obj.pk]), reverse("tariff-study-report-pdf", args=[obj.pk]))

    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        try:
            services.recompute_study(form.instance)
        except LawViolation as exc:
            messages.error(request, exc.detail)
        else:
            for w in form.instance.warnings:
                messages.warning(request, f"{w['message']} ({w['article']})")

    def changelist_view(self, request, extra_context=None):
        _alert_message(request)
        return super().changelist_view(request, extra_context)
