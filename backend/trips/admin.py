from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from . import services
from .models import DriverCancellation, Passenger, Ride


@admin.register(Ride)
class RideAdmin(admin.ModelAdmin):
    list_display = ("id", "status", "passenger", "caller_name", "permit", "driver", "requested_at", "fare", "server_total", "meter_disagreement", "fare_held", "escalated")
    list_filter = ("status", "escalated", "meter_disagreement", "fare_held", "created_by")
    actions = ["release_fares"]
    date_hierarchy = "requested_at"
    readonly_fields = [f.name for f in Ride._meta.fields]

    @admin.action(description=_("Liberar a tarifa retida para o extrato (Art. 43)"))
    def release_fares(self, request, queryset):
        held = list(queryset.filter(fare_held=True, status="completed").values_list("pk", flat=True))
        for pk in held:
            services.release_fare(pk, by=request.user)
        self.message_user(request, ngettext("%(n)d tarifa liberada.", "%(n)d tarifas liberadas.", len(held)) % {"n": len(held)},
                          messages.SUCCESS)


@admin.register(Passenger)
class PassengerAdmin(admin.ModelAdmin):
    list_display = ("name", "phone", "created_at", "anonymised_at")
    search_fields = ("name", "phone")
    exclude = ("token",)


@admin.register(DriverCancellation)
class DriverCancellationAdmin(admin.ModelAdmin):
    """Who gave up which ride and why (Art. 9, VII): DIMUTRAN judges; the platform penalises no one."""

    list_display = ("at", "driver", "permit", "reason", "ride", "ride_status", "waited_s", "reoffered")
    list_filter = ("reason", "reoffered")
    search_fields = ("driver__full_name", "permit__number")
    date_hierarchy = "at"
    readonly_fields = [f.name for f in DriverCancellation._meta.fields]
