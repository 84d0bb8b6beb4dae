"""The Django admin for DIMUTRAN (pt-BR). Life-cycle changes go through the services (admin actions
or the API); the admin shows the whole registry, adds vehicles and auxiliaries through the API's own
services and edits only plain data (issue #28: one write path per act; docs/doors.md)."""

from django.contrib import admin, messages
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from backend.admin_doors import ReadOnlyRecordMixin, ServiceRecordAdmin, with_article
from backend.api_errors import LawViolation

from . import admin_acts, admin_services, admin_taximeters  # noqa: F401  (register the admins of the records kept by services)
from .admin_forms import AuxiliaryAddForm, VehicleAddForm
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


class AlvaraInline(ReadOnlyRecordMixin, admin.TabularInline):
    """Alvarás are issued by the term's signature and by renewals (Art. 3, §2, Art. 4)."""

    model = Alvara
    extra = 0


class VehicleInline(ReadOnlyRecordMixin, admin.TabularInline):
    """Shown on the permit; a taxi is put in service by the vehicle's add form (its service) and swapped through the
    API's replacement, which asks Art. 34's justification: an untick here would swap around it."""

    model = Vehicle
    extra = 0
    fields = ("plate", "renavam", "make", "model", "model_year", "manufacture_year", "colour", "wheelchair_accessible",
              "child_seat", "in_service", "in_service_since")


class AuxiliaryInline(ReadOnlyRecordMixin, admin.TabularInline):
    """Shown on the permit; authorized through the auxiliary's add form (its service: Art. 48, 49, Art. 1, §6)."""

    model = Auxiliary
    extra = 0
    fields = ("person", "authorized_on", "status", "cancelled_on", "split_regime")


def _run(modeladmin, request, queryset, service, done):
    """Call a service per permit; a refusal is shown with its articles, the others still run."""
    for permit in queryset:
        try:
            service(permit)
        except LawViolation as refusal:
            modeladmin.message_user(request, f"{permit.number}: " + " ".join(with_article(r) for r in refusal.decision.reasons),
                                    messages.ERROR)
        else:
            modeladmin.message_user(request, f"{permit.number}: {done}", messages.SUCCESS)


@admin.register(Person)
class PersonAdmin(admin.ModelAdmin):
    plain_data = ("a person's identity, documents and contacts as presented (the same data PUT /api/people/ edits); "
                  "the acts that depend on them (authorizations, transfers) ask the law in their services")
    list_display = ("full_name", "cpf", "cnh", "phone", "is_autonomous_professional")
    search_fields = ("full_name", "cpf", "cnh")


@admin.register(Permit)
class PermitAdmin(admin.ModelAdmin):
    """A permit is born of a contest's result or a transfer (Art. 3, Art. 6) and its life is the services':
    status, holder and dates are read-only; signing the term and withdrawing are actions that call them."""

    list_display = ("number", "holder", "status", "origin", "held_since", "co_owned_grandfathered")
    list_filter = ("status", "origin", "co_owned_grandfathered")
    search_fields = ("number", "holder__full_name", "holder__cpf")
    # Art. 14: the grandfathered co-ownership is a fact of 1987, not a tick; Art. 34, § único: the tolerance is
    # DIMUTRAN's act of one or three months through its service, not a typed date; Art. 11, § único: the court's
    # final judgment is recorded by the substitution's service.
    readonly_fields = ("number", "holder", "status", "origin", "result_published_on", "term_signed_on", "held_since",
                       "contest_model_year", "ended_on", "co_owned_grandfathered", "vehicle_tolerance_until",
                       "judicial_loss_final_on")
    inlines = [AlvaraInline, VehicleInline, AuxiliaryInline]
    actions = ["sign_term_today", "withdraw_today", "request_renewal_today", admin_acts.record_judicial_loss,
               admin_acts.tolerate_vehicle, admin_acts.replace_vehicle_justified, admin_acts.request_transfer]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description=_("Assinar o termo de compromisso hoje (Art. 3, §1)"))
    def sign_term_today(self, request, queryset):
        _run(self, request, queryset, lambda p: permit_services.sign_term(permit=p, signed_on=timezone.localdate()),
             gettext("termo assinado e alvará emitido."))

    @admin.action(description=_("Receber o pedido de renovação hoje (Art. 4); os documentos, depois (Art. 5)"))
    def request_renewal_today(self, request, queryset):
        _run(self, request, queryset,
             lambda p: permit_services.request_renewal(permit=p, requested_on=timezone.localdate(), documents={}),
             gettext("pedido de renovação recebido."))

    @admin.action(description=_("Registrar a desistência hoje (Art. 8)"))
    def withdraw_today(self, request, queryset):
        _run(self, request, queryset, lambda p: permit_services.withdraw(permit=p, on=timezone.localdate()),
             gettext("desistência registrada."))


class RenewalDocumentInline(ReadOnlyRecordMixin, admin.TabularInline):
    model = RenewalDocument
    extra = 0


@admin.register(Renewal)
class RenewalAdmin(ReadOnlyRecordMixin, admin.ModelAdmin):
    """A renewal is requested and documented through its services (Art. 4, §2-§3: the term, the late fine, the
    extinction): a request typed here revived a permit past its term."""

    list_display = ("permit", "requested_on", "timing", "late_fine_brl", "status")
    list_filter = ("status", "timing")
    inlines = [RenewalDocumentInline]


@admin.register(Vehicle)
class VehicleAdmin(ServiceRecordAdmin):
    """A taxi is put in service by ``register_vehicle`` (Art. 1, III, 14, 20 §2, 28), as the API does; afterwards
    only its description is edited: being in service and its dates change only through the swap (Art. 34)."""

    add_form = VehicleAddForm
    editable = ("make", "model", "colour", "wheelchair_accessible", "child_seat")
    list_display = ("plate", "permit", "make", "model", "model_year", "colour", "wheelchair_accessible", "child_seat", "in_service")
    list_filter = ("in_service", "wheelchair_accessible", "child_seat", "model_year")
    search_fields = ("plate", "renavam", "permit__number")


@admin.register(Auxiliary)
class AuxiliaryAdmin(ServiceRecordAdmin):
    """An auxiliary is authorized by ``authorize_auxiliary`` (Art. 48, 49, 52, Art. 1, §6), as the API does; the
    status and dates are the services' (a sweep's cancellation, Art. 1, §5, is not undone by a tick). A new
    agreement on the split is edited here, checked on its fields by ``Auxiliary.clean`` (Art. 1, §6)."""

    add_form = AuxiliaryAddForm
    editable = ("split_regime", "contract_auxiliary_percent", "contract_signed_on", "contract_witness_1",
                "contract_witness_2", "contract_reference", "ctps_number", "ctps_series", "pix_receiver")
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
class TransferAdmin(ReadOnlyRecordMixin, admin.ModelAdmin):
    """Requested on the permit (its action or the API) and completed by the fee's payment (Art. 6, §5), an action
    here: both through the transfer's services."""

    actions = [admin_acts.pay_transfer_fee]
    list_display = ("permit", "cedent", "transferee", "kind", "requested_on", "fee_brl", "status")
    list_filter = ("status", "kind")


@admin.register(RevocationInquiry)
class RevocationInquiryAdmin(ReadOnlyRecordMixin, admin.ModelAdmin):
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
class SuspensionAdmin(ReadOnlyRecordMixin, admin.ModelAdmin):
    """A suspension is only the outcome of an auto, its defence and the decision (Art. 54, b, Art. 60-63)."""

    list_display = ("permit", "starts_on", "ends_on", "reason")
