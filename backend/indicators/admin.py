"""The monthly reports in the admin: read-only, a report issued is never rewritten; a link downloads the PDF."""

from django.contrib import admin
from django.utils.html import format_html

from .models import MonthlyReport


@admin.register(MonthlyReport)
class MonthlyReportAdmin(admin.ModelAdmin):
    list_display = ("month_label", "generated_at", "size", "download")
    fields = ("month", "generated_at", "size", "download")
    readonly_fields = fields

    @admin.display(description="mês", ordering="month")
    def month_label(self, obj):
        return f"{obj.month:%m/%Y}"

    @admin.display(description="tamanho (bytes)")
    def size(self, obj):
        return len(obj.pdf or b"")

    @admin.display(description="PDF")
    def download(self, obj):
        return format_html('<a href="{}">{}</a>', obj.url, obj.filename)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
