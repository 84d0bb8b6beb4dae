from django.contrib import admin

from .models import Booking


@admin.register(Booking)
class BookingAdmin(admin.ModelAdmin):
    list_display = ("id", "pickup_at", "situation", "passenger", "caller_name", "pickup_address", "destination_address", "ride")
    list_select_related = ("ride", "passenger")
    list_filter = ("status", "created_by")
    search_fields = ("caller_name", "caller_phone", "passenger__name", "passenger__phone", "pickup_address")
    readonly_fields = ("dispatch_at", "ride", "created_at", "dispatched_at", "cancelled_at", "status", "created_by")
    date_hierarchy = "pickup_at"

    # Bookings are made and cancelled through the API and the console, which ask taxilaw.bookings (Art. 66).
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
