from django.contrib import admin

from .models import Passenger, Ride


@admin.register(Ride)
class RideAdmin(admin.ModelAdmin):
    list_display = ("id", "status", "passenger", "caller_name", "permit", "driver", "requested_at", "fare", "meter_disagreement", "escalated")
    list_filter = ("status", "escalated", "meter_disagreement", "created_by")
    date_hierarchy = "requested_at"
    readonly_fields = [f.name for f in Ride._meta.fields]


@admin.register(Passenger)
class PassengerAdmin(admin.ModelAdmin):
    list_display = ("name", "phone", "created_at")
    search_fields = ("name", "phone")
    exclude = ("token",)
