"""The admin of the taxímetro register (Art. 47): plain data edited freely, installation, removal and aferição only
through the services, which ask the law core."""

from django.contrib import admin

from backend.admin_doors import ServiceAddForm, ServiceRecordAdmin

from .models import Taximeter, TaximeterAferition


class TaximeterAddForm(ServiceAddForm):
    """Install a taxímetro by the register's service (Art. 47, §3: one per taxi, a known make)."""

    service_of_record = "backend.registry.services.taximeters.install_taximeter"

    class Meta:
        model = Taximeter
        fields = ["vehicle", "serial", "make", "model", "installer", "installed_on"]


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
class TaximeterAdmin(ServiceRecordAdmin):
    """Installed by its service; installation and removal are the register's acts (Art. 47, §3): only the plain
    description is edited here."""

    add_form = TaximeterAddForm
    editable = ("serial", "make", "model", "installer")
    list_display = ("vehicle", "make", "model", "serial", "installed_on", "removed_on")
    search_fields = ("serial", "vehicle__plate")
    inlines = [AferitionInline]


class AferitionAddForm(ServiceAddForm):
    """An aferição recorded by the register's service, with its certificate and seal (Art. 47, §1-§2)."""

    service_of_record = "backend.registry.services.taximeters.record_aferition"

    class Meta:
        model = TaximeterAferition
        fields = ["taximeter", "afered_on", "certificate", "seal"]


@admin.register(TaximeterAferition)
class TaximeterAferitionAdmin(ServiceRecordAdmin):
    """An aferição is added through the register's service (Art. 47, §1-§2) and never changed or deleted."""

    add_form = AferitionAddForm
    list_display = ("taximeter", "afered_on", "certificate", "seal")
    search_fields = ("taximeter__serial", "taximeter__vehicle__plate", "certificate")
    date_hierarchy = "afered_on"

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

