from django.contrib import admin

from backend.trips.admin import RideAdmin
from backend.trips.models import Ride

from .models import Cab, Offer


class OfferInline(admin.TabularInline):
    model = Offer
    extra = 0
    fields = ("cab", "status", "created_at", "expires_at", "responded_at", "distance_m", "reason", "candidates")
    readonly_fields = fields
    can_delete = False


# The trips app cannot know about offers (it never imports dispatch): its ride page gains them here.
admin.site.unregister(Ride)


@admin.register(Ride)
class DispatchedRideAdmin(RideAdmin):
    inlines = [OfferInline]


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
