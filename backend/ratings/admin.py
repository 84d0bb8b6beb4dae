"""Ratings in the admin: read-only (they come from passengers), with the per-permit report above the list."""

from django.contrib import admin

from .models import RideRating
from .report import rating_report


@admin.register(RideRating)
class RideRatingAdmin(admin.ModelAdmin):
    list_display = ("ride", "stars", "permit", "driver", "rated_at", "comment")
    list_filter = ("stars",)
    search_fields = ("permit__number", "driver__full_name", "comment")
    readonly_fields = ("ride", "passenger", "permit", "driver", "stars", "comment", "rated_at")
    change_list_template = "ratings/change_list.html"

    def has_add_permission(self, request):
        return False

    def changelist_view(self, request, extra_context=None):
        return super().changelist_view(request, dict(extra_context or {}, report=rating_report()[:50]))
