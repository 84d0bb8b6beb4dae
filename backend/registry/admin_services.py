"""Admin records the law governs, added only through their service and never edited where the law decides
(vistorias: Art. 35-40; CMTs: Art. 51; social-security proofs: Art. 1, §5)."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from backend.api_errors import LawViolation

from .models import Cmt, Inspection, SocialSecurityProof
from .services import auxiliaries as auxiliary_services
from .services import vehicles as vehicle_services


class _DryRun(Exception):
    """Undoes a service's writes once it accepted the data: the form only asks."""


class ServiceAddForm(forms.ModelForm):
    """An add form whose data the record's service checks, in a savepoint that is rolled back; the admin's
    ``save_model`` then calls the service for real."""

    def service(self, **data):  # pragma: no cover - each form names its service
        raise NotImplementedError

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            with transaction.atomic():
                self.service(**{k: data[k] for k in self.Meta.fields if k in data})
                raise _DryRun
        except _DryRun:
            pass
        except LawViolation as refusal:
            field = refusal.field if refusal.field in self.fields else None
            raise ValidationError({field: [r.render(gettext) for r in refusal.decision.reasons]}) from None
        return data


class ServiceRecordAdmin(admin.ModelAdmin):
    """Added through ``add_form``'s service; on change only ``editable`` fields (plain data) may be edited; never deleted."""

    add_form: type[ServiceAddForm]
    editable: tuple[str, ...] = ()

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = self.add_form
            kwargs["fields"] = self.add_form.Meta.fields
        return super().get_form(request, obj, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return ()
        return tuple(f.name for f in self.model._meta.fields if f.name not in ("id", *self.editable))

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)
        else:
            form.instance = form.service(**{k: form.cleaned_data[k] for k in form.Meta.fields if k in form.cleaned_data})

    def has_delete_permission(self, request, obj=None):
        return False


class InspectionAddForm(ServiceAddForm):
    class Meta:
        model = Inspection
        fields = ["vehicle", "kind", "inspected_on", "result", "seal_number", "notes", "checklist", "documents"]

    def service(self, **data):
        return vehicle_services.record_inspection(**data)


@admin.register(Inspection)
class InspectionAdmin(ServiceRecordAdmin):
    """A vistoria is recorded by its service: the seal's validity and the fee's amount and due date come from the law
    (Art. 37, Art. 40); the fee's payment is an action."""

    add_form = InspectionAddForm
    editable = ("notes",)
    list_display = ("vehicle", "inspected_on", "kind", "result", "seal_number", "valid_until", "fee_brl", "fee_paid_on")
    list_filter = ("result", "kind")
    date_hierarchy = "inspected_on"
    actions = ["fee_paid_today"]

    @admin.action(description=_("Registrar o pagamento da taxa hoje (Art. 40)"))
    def fee_paid_today(self, request, queryset):
        for inspection in queryset.filter(fee_paid_on__isnull=True):
            vehicle_services.pay_inspection_fee(inspection=inspection, paid_on=timezone.localdate())
            self.message_user(request, f"{inspection.vehicle}: " + gettext("taxa de fiscalização paga."), messages.SUCCESS)


class CmtAddForm(ServiceAddForm):
    class Meta:
        model = Cmt
        fields = ["person", "number", "issued_on", "expires_on"]

    def service(self, **data):
        return auxiliary_services.issue_cmt(**data)


@admin.register(Cmt)
class CmtAdmin(ServiceRecordAdmin):
    """A CMT is issued by its service (Art. 51); its holder and dates are the card's and are not edited."""

    add_form = CmtAddForm
    list_display = ("number", "person", "issued_on", "expires_on")
    search_fields = ("number", "person__full_name")


class SocialSecurityProofAddForm(ServiceAddForm):
    class Meta:
        model = SocialSecurityProof
        fields = ["auxiliary", "quarter_end", "presented_on"]

    def service(self, **data):
        return auxiliary_services.record_social_security_proof(**data)


@admin.register(SocialSecurityProof)
class SocialSecurityProofAdmin(ServiceRecordAdmin):
    """A quarterly proof is recorded by its service (Art. 1, §5: the quarter's last day); never edited."""

    add_form = SocialSecurityProofAddForm
    list_display = ("auxiliary", "quarter_end", "presented_on")
