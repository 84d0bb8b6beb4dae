"""The Django admin for DIMUTRAN (pt-BR). Life-cycle changes go through the API's services;
the admin shows the whole registry and edits plain data."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .models import (
    Alvara,
    Auxiliary,
    Cmt,
    Inspection,
    Permit,
    Person,
    Renewal,
    RenewalDocument,
    RevocationInquiry,
    SocialSecurityProof,
    Suspension,
    Transfer,
    Vehicle,
)


class AlvaraInline(admin.TabularInline):
    model = Alvara
    extra = 0


class VehicleInline(admin.TabularInline):
    model = Vehicle
    extra = 0
    fields = ("plate", "make", "model", "model_year", "colour", "in_service", "in_service_since")


class AuxiliaryInline(admin.TabularInline):
    model = Auxiliary
    extra = 0
    autocomplete_fields = ("person",)


@admin.register(Person)
class PersonAdmin(admin.ModelAdmin):
    list_display = ("full_name", "cpf", "cnh", "phone", "is_autonomous_professional")
    search_fields = ("full_name", "cpf", "cnh")


@admin.register(Permit)
class PermitAdmin(admin.ModelAdmin):
    list_display = ("number", "holder", "status", "origin", "held_since", "co_owned_grandfathered")
    list_filter = ("status", "origin", "co_owned_grandfathered")
    search_fields = ("number", "holder__full_name", "holder__cpf")
    autocomplete_fields = ("holder",)
    inlines = [AlvaraInline, VehicleInline, AuxiliaryInline]


class RenewalDocumentInline(admin.TabularInline):
    model = RenewalDocument
    extra = 0


@admin.register(Renewal)
class RenewalAdmin(admin.ModelAdmin):
    list_display = ("permit", "requested_on", "timing", "late_fine_brl", "status")
    list_filter = ("status", "timing")
    inlines = [RenewalDocumentInline]


@admin.register(Vehicle)
class VehicleAdmin(admin.ModelAdmin):
    list_display = ("plate", "permit", "make", "model", "model_year", "colour", "in_service")
    list_filter = ("in_service", "model_year")
    search_fields = ("plate", "renavam", "permit__number")


@admin.register(Inspection)
class InspectionAdmin(admin.ModelAdmin):
    list_display = ("vehicle", "inspected_on", "kind", "result", "seal_number", "valid_until", "fee_brl", "fee_paid_on")
    list_filter = ("result", "kind")
    date_hierarchy = "inspected_on"


@admin.register(Auxiliary)
class AuxiliaryAdmin(admin.ModelAdmin):
    list_display = ("person", "permit", "authorized_on", "status", "split_regime", "contract_auxiliary_percent")
    list_filter = ("status", "split_regime")
    search_fields = ("person__full_name", "permit__number")
    # Art. 1, §6: the regime and its data; Auxiliary.clean puts each missing or wrong datum on its field.
    fieldsets = (
        (None, {"fields": ("permit", "person", "authorized_on", "status", "cancelled_on", "cancel_reason")}),
        (_("Partilha do valor bruto (Art. 1, §3 e §6)"), {"fields": ("split_regime",)}),
        (_("Contrato escrito (Art. 1, §6)"), {"fields": (
            "contract_auxiliary_percent", "contract_signed_on", "contract_witness_1", "contract_witness_2",
            "contract_reference")}),
        (_("Emprego com CTPS (Art. 1, §6)"), {"fields": ("ctps_number", "ctps_series")}),
    )


@admin.register(SocialSecurityProof)
class SocialSecurityProofAdmin(admin.ModelAdmin):
    list_display = ("auxiliary", "quarter_end", "presented_on")


@admin.register(Cmt)
class CmtAdmin(admin.ModelAdmin):
    list_display = ("number", "person", "issued_on", "expires_on")
    search_fields = ("number", "person__full_name")


@admin.register(Transfer)
class TransferAdmin(admin.ModelAdmin):
    list_display = ("permit", "cedent", "transferee", "kind", "requested_on", "fee_brl", "status")
    list_filter = ("status", "kind")


@admin.register(RevocationInquiry)
class RevocationInquiryAdmin(admin.ModelAdmin):
    list_display = ("permit", "ground", "opened_on", "summoned_on", "defence_filed_on", "outcome")
    list_filter = ("outcome", "ground")


@admin.register(Suspension)
class SuspensionAdmin(admin.ModelAdmin):
    list_display = ("permit", "starts_on", "ends_on", "reason")
