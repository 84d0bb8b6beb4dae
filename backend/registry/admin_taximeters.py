"""The admin of the taxímetro register (Art. 47): plain data edited freely, installation, removal and aferição only
through the services, which ask the law core."""

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from backend.api_errors import LawViolation

from .models import Taximeter, TaximeterAferition
from .services import taximeters as services


def _refusal(refusal: LawViolation, field: str) -> ValidationError:
    return ValidationError({refusal.field if refusal.field in (None, field) else field:
                            [r.render(gettext) for r in refusal.decision.reasons]})


class TaximeterAddForm(forms.ModelForm):
    class Meta:
        model = Taximeter
        fields = ["vehicle", "serial", "make", "model", "installer", "installed_on"]

    def clean(self):
        data = super().clean()
        if data.get("vehicle") is not None and data.get("serial") and data.get("make"):
            try:
                services.check_installation(data["vehicle"], data["make"], data["serial"])
            except LawViolation as refusal:
                raise _refusal(refusal, "serial") from None
        return data


class AferitionInline(admin.TabularInline):
    """Aferições are recorded with their certificate and seal (Art. 47, §1), never edited."""

    model = TaximeterAferition
    extra = 0
    fields = ("afered_on", "certificate", "seal", "recorded_at")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Taximeter)
class TaximeterAdmin(admin.ModelAdmin):
    list_display = ("vehicle", "make", "model", "serial", "installed_on", "removed_on")
    search_fields = ("serial", "vehicle__plate")
    inlines = [AferitionInline]

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = TaximeterAddForm
        return super().get_form(request, obj, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        # installation and removal are the register's acts (Art. 47, §3): only the plain data is edited
        return ("vehicle", "installed_on", "removed_on") if obj is not None else ()

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)
        else:
            form.instance = services.install_taximeter(**{k: form.cleaned_data[k] for k in TaximeterAddForm.Meta.fields})

    def has_delete_permission(self, request, obj=None):
        return False


class AferitionForm(forms.ModelForm):
    class Meta:
        model = TaximeterAferition
        fields = ["taximeter", "afered_on", "certificate", "seal"]

    def clean(self):
        from django.utils import timezone

        from taxilaw import taximeters as law

        data = super().clean()
        meter = data.get("taximeter")
        if meter is None or data.get("afered_on") is None:
            return data
        decision = law.may_record_aferition(data["afered_on"], data.get("certificate", ""), data.get("seal", ""),
                                            meter.installed_on, meter.removed_on, timezone.localdate())
        if not decision:
            raise ValidationError({"afered_on": [r.render(gettext) for r in decision.reasons]})
        return data


@admin.register(TaximeterAferition)
class TaximeterAferitionAdmin(admin.ModelAdmin):
    """An aferição is added through the register's service (Art. 47, §1-§2) and never changed or deleted."""

    form = AferitionForm
    list_display = ("taximeter", "afered_on", "certificate", "seal")
    search_fields = ("taximeter__serial", "taximeter__vehicle__plate", "certificate")
    date_hierarchy = "afered_on"

    def save_model(self, request, obj, form, change):
        form.instance = services.record_aferition(**{k: form.cleaned_data[k] for k in AferitionForm.Meta.fields})

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

