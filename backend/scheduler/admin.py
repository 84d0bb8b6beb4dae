from django.contrib import admin

from .models import JobRun


@admin.register(JobRun)
class JobRunAdmin(admin.ModelAdmin):
    list_display = ("job", "slot", "started_at", "finished_at", "summary")
    list_filter = ("job",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
