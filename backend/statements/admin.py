"""DIMUTRAN's admin for statements: read-only, a closed statement is never rewritten (Art. 1, §3)."""

from django.contrib import admin
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from taxilaw.brazil import brl

from .models import StatementAdjustment, StatementRide, WeekClosure, WeeklyStatement


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class AdjustmentInline(admin.TabularInline):
    """Late rides of closed weeks carried into this statement (Art. 1, §3)."""

    model = StatementAdjustment
    fk_name = "statement"
    extra = 0
    can_delete = False
    fields = ("original_week_start", "original_week_end", "original_statement", "rides", "gross", "settled_gross",
              "auxiliary_percent", "auxiliary_part", "holder_part")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(WeeklyStatement)
class WeeklyStatementAdmin(ReadOnlyAdmin):
    list_display = ("week_start", "permit", "driver", "role", "rides", "gross_brl", "auxiliary_brl", "holder_brl",
                    "agreement", "closed_at", "files")
    list_filter = ("role", "agreement", "week_start")
    search_fields = ("permit__number", "driver__full_name", "driver__cpf")
    date_hierarchy = "week_start"
    list_select_related = ("permit", "driver")
    inlines = [AdjustmentInline]

    @admin.display(description=_("valor bruto"), ordering="gross")
    def gross_brl(self, obj):
        return brl(obj.gross)

    @admin.display(description=_("parte do auxiliar"), ordering="auxiliary_part")
    def auxiliary_brl(self, obj):
        return brl(obj.auxiliary_part)

    @admin.display(description=_("parte do permissionário"), ordering="holder_part")
    def holder_brl(self, obj):
        return brl(obj.holder_part)

    @admin.display(description=_("arquivos"))
    def files(self, obj):
        return format_html('<a href="/api/statements/{}.csv">CSV</a> · <a href="/statements/{}.pdf">PDF</a>', obj.pk, obj.pk)


@admin.register(WeekClosure)
class WeekClosureAdmin(ReadOnlyAdmin):
    list_display = ("week_start", "week_end", "closed_at", "statements", "late_rides")


@admin.register(StatementRide)
class StatementRideAdmin(ReadOnlyAdmin):
    """Which statement counted each completed ride; a ride with an adjustment was recorded after its week closed."""

    list_display = ("ride", "completed_at", "fare", "statement", "adjustment")
    list_filter = (("adjustment", admin.EmptyFieldListFilter),)
    search_fields = ("statement__permit__number", "statement__driver__full_name")
    list_select_related = ("ride", "statement__permit", "statement__driver", "adjustment__statement__permit",
                           "adjustment__statement__driver")
