from django.contrib import admin

from .models import Notice


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    """Read-only: notices are written by the scheduled consequences of the law's deadlines."""

    list_display = ("created_on", "article", "code", "permit", "person", "message")
    list_filter = ("article", "code")
    search_fields = ("message", "permit__number", "person__full_name")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
