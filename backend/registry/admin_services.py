"""Admin records the law governs, added only through their service and never edited where the law decides
(vistorias: Art. 35-40; CMTs: Art. 51; social-security proofs: Art. 1, §5)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from backend.admin_doors import ServiceAddForm, ServiceRecordAdmin

from .models import Cmt, Inspection, SocialSecurityProof
from .services import vehicles as vehicle_services


class InspectionAddForm(ServiceAddForm):
    class Meta:
        model = Inspection
        fields = ["vehicle", "kind", "inspected_on", "result", "seal_number", "notes", "checklist", "documents"]

    service_of_record = "backend.registry.services.vehicles.record_inspection"


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

    service_of_record = "backend.registry.services.auxiliaries.issue_cmt"


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

    service_of_record = "backend.registry.services.auxiliaries.record_social_security_proof"


@admin.register(SocialSecurityProof)
class SocialSecurityProofAdmin(ServiceRecordAdmin):
    """A quarterly proof is recorded by its service (Art. 1, §5: the quarter's last day); never edited."""

    add_form = SocialSecurityProofAddForm
    list_display = ("auxiliary", "quarter_end", "presented_on")
