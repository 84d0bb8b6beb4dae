from django.contrib import admin

from .models import DatedParameter, MunicipalHoliday


@admin.register(DatedParameter)
class DatedParameterAdmin(admin.ModelAdmin):
    list_display = ("name", "effective_from", "value", "source")
    list_filter = ("name",)
    search_fields = ("name", "source")


@admin.register(MunicipalHoliday)
class MunicipalHolidayAdmin(admin.ModelAdmin):
    list_display = ("date", "name", "source")
    date_hierarchy = "date"
