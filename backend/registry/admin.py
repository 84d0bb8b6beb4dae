"""The Django admin for DIMUTRAN (pt-BR). Life-cycle changes go through the services (admin actions
or the API); the admin shows the whole registry, edits plain data, and asks the law core on the rest."""

from django.contrib import admin, messages
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from backend.api_errors import LawViolation

from . import admin_services, admin_taximeters  # noqa: F401  (register the admins of the records kept by services)
from .admin_forms import AuxiliaryForm, AuxiliaryInlineFormSet, VehicleForm
from .models import (
    Alvara,
    Auxiliary,
    Permit,
    Person,
    Renewal,
    RenewalDocument,
    RevocationInquiry,
    Suspension,
    Transfer,
    Vehicle,
)
from .services import permits as permit_services
from .services import revocation as revocation_services


class ProcedureRecordMixin:
    """Written only by its procedure's services (API or admin actions): shown, never added, edited or deleted here."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class AlvaraInline(ProcedureRecordMixin, admin.TabularInline):
    """Alvarás are issued by the term's signature and by renewals (Art. 3, §2, Art. 4)."""

    model = Alvara
    extra = 0


class VehicleInline(admin.TabularInline):
    model = Vehicle
    form = VehicleForm
    extra = 0
    fields = ("plate", "renavam", "make", "model", "model_year", "manufacture_year", "colour", "wheelchair_accessible",
              "child_seat", "in_service", "in_service_since")


class AuxiliaryInline(admin.TabularInline):
    model = Auxiliary
    formset = AuxiliaryInlineFormSet
    extra = 0
    autocomplete_fields = ("person",)


def _run(modeladmin, request, queryset, service, done):
    """Call a service per permit; a refusal is shown with its articles, the others still run."""
    for permit in queryset:
        try:
            service(permit)
        except LawViolation as refusal:
            modeladmin.message_user(request, f"{permit.number}: " + " ".join(r.render(gettext) for r in refusal.decision.reasons),
                                    messages.ERROR)
        else:
            modeladmin.message_user(request, f"{permit.number}: {done}", messages.SUCCESS)


@admin.register(Person)
class PersonAdmin(admin.ModelAdmin):
    list_display = ("full_name", "cpf", "cnh", "phone", "is_autonomous_professional")
    search_fields = ("full_name", "cpf", "cnh")


@admin.register(Permit)
class PermitAdmin(admin.ModelAdmin):
    """A permit is born of a contest's result or a transfer (Art. 3, Art. 6) and its life is the services':
    status, holder and dates are read-only; signing the term and withdrawing are actions that call them."""

    list_display = ("number", "holder", "status", "origin", "held_since", "co_owned_grandfathered")
    list_filter = ("status", "origin", "co_owned_grandfathered")
    search_fields = ("number", "holder__full_name", "holder__cpf")
    readonly_fields = ("number", "holder", "status", "origin", "result_published_on", "term_signed_on", "held_since",
                       "contest_model_year", "ended_on")
    inlines = [AlvaraInline, VehicleInline, AuxiliaryInline]
    actions = ["sign_term_today", "withdraw_today"]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description=_("Assinar o termo de compromisso hoje (Art. 3, §1)"))
    def sign_term_today(self, request, queryset):
        _run(self, request, queryset, lambda p: permit_services.sign_term(permit=p, signed_on=timezone.localdate()),
             gettext("termo assinado e alvará emitido."))

    @admin.action(description=_("Registrar a desistência hoje (Art. 8)"))
    def withdraw_today(self, request, queryset):
        _run(self, request, queryset, lambda p: permit_services.withdraw(permit=p, on=timezone.localdate()),
             gettext("desistência registrada."))


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
    form = VehicleForm
    list_display = ("plate", "permit", "make", "model", "model_year", "colour", "wheelchair_accessible", "child_seat", "in_service")
    list_filter = ("in_service", "wheelchair_accessible", "child_seat", "model_year")
    search_fields = ("plate", "renavam", "permit__number")


@admin.register(Auxiliary)
class AuxiliaryAdmin(admin.ModelAdmin):
    form = AuxiliaryForm
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
        (_("Pagamentos"), {"fields": ("pix_receiver",)}),
    )


@admin.register(Transfer)
class TransferAdmin(ProcedureRecordMixin, admin.ModelAdmin):
    list_display = ("permit", "cedent", "transferee", "kind", "requested_on", "fee_brl", "status")
    list_filter = ("status", "kind")


@admin.register(RevocationInquiry)
class RevocationInquiryAdmin(ProcedureRecordMixin, admin.ModelAdmin):
    """Opened, defended and decided only through the inquiry's procedure (Art. 10, §1; Art. 9, V; Art. 27, §2)."""

    list_display = ("permit", "ground", "opened_on", "summons", "defence_filed_on", "outcome")
    list_filter = ("outcome", "ground")
    actions = ["summon_today"]

    @admin.display(description=_("intimação em"), ordering="summoned_on")
    def summons(self, inquiry):
        return inquiry.summoned_on or gettext("aguardando intimação")

    @admin.action(description=_("Registrar a intimação do permissionário hoje (Art. 10, §1)"))
    def summon_today(self, request, queryset):
        for inquiry in queryset:
            try:
                revocation_services.summon(inquiry=inquiry, summoned_on=timezone.localdate(),
                                           record=gettext("registrada por %(user)s no admin") % {"user": request.user})
            except LawViolation as refusal:
                self.message_user(request, f"{inquiry.permit}: " + " ".join(r.render(gettext) for r in refusal.decision.reasons),
                                  messages.ERROR)
            else:
                self.message_user(request, f"{inquiry.permit}: " + gettext("intimação registrada; o prazo de defesa corre de hoje."),
                                  messages.SUCCESS)


@admin.register(Suspension)
class SuspensionAdmin(ProcedureRecordMixin, admin.ModelAdmin):
    """A suspension is only the outcome of an auto, its defence and the decision (Art. 54, b, Art. 60-63)."""

    list_display = ("permit", "starts_on", "ends_on", "reason")
