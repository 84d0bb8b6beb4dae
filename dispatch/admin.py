from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from backend.admin_doors import ReadOnlyRecordMixin
from backend.trips.admin import RideAdmin
from backend.trips.models import Ride
from zones.classify import Zone

from .models import Cab, Offer, RideShare, SosAlert


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
class OfferAdmin(ReadOnlyRecordMixin, admin.ModelAdmin):
    """The audit of every offer: candidates, distances, queue positions and the reason for the choice (written by
    the dispatcher only)."""

    list_display = ("id", "ride", "cab", "status", "created_at", "reason")
    list_filter = ("status",)
    readonly_fields = [f.name for f in Offer._meta.fields]


@admin.register(Cab)
class CabAdmin(ReadOnlyRecordMixin, admin.ModelAdmin):
    """The dispatcher's live state of each cab (status, position, zone): written by the phone's socket only."""

    list_display = ("permit", "driver", "status", "online", "zone_label", "position_at")
    list_filter = ("status", "online", "zone")

    @admin.display(description=_("zona"), ordering="zone")
    def zone_label(self, obj):
        try:
            return Zone(obj.zone).label
        except ValueError:  # no position yet
            return obj.zone or "—"


class ReadOnlyAdmin(admin.ModelAdmin):
    """Kept as written for DIMUTRAN: nobody adds, edits or deletes one here."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(SosAlert)
class SosAlertAdmin(ReadOnlyAdmin):
    """The passengers' SOS (docs/passenger-safety.md): the ride, its cab and driver, the last positions, who saw it."""

    list_display = ("id", "raised_at", "ride", "ride_status", "plate", "permit", "driver_name", "acknowledged_at", "acknowledged_by")
    list_filter = ("ride_status",)
    search_fields = ("plate", "permit", "driver_name", "ride__id")
    date_hierarchy = "raised_at"


@admin.register(RideShare)
class RideShareAdmin(ReadOnlyAdmin):
    """The rides shared by their passengers: when, and when revoked; the token itself is never kept."""

    list_display = ("id", "ride", "created_at", "revoked_at")
    exclude = ("token_hash",)
