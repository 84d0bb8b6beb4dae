from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError

from . import services
from .models import DatedParameter, MunicipalHoliday


class AppendOnlyAdmin(admin.ModelAdmin):
    """Acts already recorded are shown read-only; the add form records a new act through the service."""

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class NewActForm(forms.ModelForm):
    class Meta:
        model = DatedParameter
        fields = ("name", "effective_from", "value", "source")

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        decision = services.check_act(name=data["name"], effective_from=data["effective_from"], value=data["value"], source=data["source"])
        if not decision:
            raise ValidationError([f"{r.message} ({r.article})" for r in decision.reasons])
        return data


@admin.register(DatedParameter)
class DatedParameterAdmin(AppendOnlyAdmin):
    """Each row is an act (Art. 55, Art. 67): "Adicionar" records a new one, effective from today or later."""

    form = NewActForm
    list_display = ("name", "effective_from", "value", "source")
    list_filter = ("name",)
    search_fields = ("name", "source")

    def save_model(self, request, obj, form, change):
        created = services.record_act(name=obj.name, effective_from=obj.effective_from, value=obj.value, source=obj.source)
        obj.pk, obj._state.adding, obj._state.db = created.pk, False, created._state.db


@admin.register(MunicipalHoliday)
class MunicipalHolidayAdmin(admin.ModelAdmin):
    list_display = ("date", "name", "source")
    date_hierarchy = "date"
