from django.contrib import admin

from .models import Cab, Offer, Passenger, Ride


class OfferInline(admin.TabularInline):
    model = Offer
    extra = 0
    fields = ("cab", "status", "created_at", "expires_at", "responded_at", "distance_m", "reason", "candidates")
    readonly_fields = fields
    can_delete = False


@admin.register(Ride)
class RideAdmin(admin.ModelAdmin):
    list_display = ("id", "status", "passenger", "caller_name", "permit", "driver", "requested_at", "fare", "meter_disagreement", "escalated")
    list_filter = ("status", "escalated", "meter_disagreement", "created_by")
    date_hierarchy = "requested_at"
    inlines = [OfferInline]
    readonly_fields = [f.name for f in Ride._meta.fields]


@admin.register(Offer)
class OfferAdmin(admin.ModelAdmin):
    """The audit of every offer: candidates, distances, queue positions and the reason for the choice."""

    list_display = ("id", "ride", "cab", "status", "created_at", "reason")
    list_filter = ("status",)
    readonly_fields = [f.name for f in Offer._meta.fields]


@admin.register(Cab)
class CabAdmin(admin.ModelAdmin):
    list_display = ("permit", "driver", "status", "online", "zone", "position_at")
    list_filter = ("status", "online", "zone")


@admin.register(Passenger)
class PassengerAdmin(admin.ModelAdmin):
    list_display = ("name", "phone", "created_at")
    search_fields = ("name", "phone")
    exclude = ("token",)
