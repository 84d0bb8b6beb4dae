from django.contrib import admin, messages
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from backend.admin_doors import ReadOnlyRecordMixin
from taxilaw.brazil import br_number, brl
from taxilaw.receipt import trace_summary

from . import services
from .models import DriverCancellation, Passenger, Ride
from .receipt_links import links

# Raw columns the admin shows in a readable form instead (distance in km, the trace as a summary, R$).
_SHOWN_READABLE = {"distance_m": "distance_km", "trace": "trace_summary", "fare": "fare_brl", "server_total": "server_total_brl"}


@admin.register(Ride)
class RideAdmin(admin.ModelAdmin):
    list_display = ("id", "status", "passenger", "caller_name", "permit", "driver", "requested_at", "fare_brl", "meter_disagreement", "fare_held", "escalated")
    list_filter = ("status", "escalated", "meter_disagreement", "fare_held", "created_by")
    actions = ["release_fares"]
    date_hierarchy = "requested_at"
    readonly_fields = [_SHOWN_READABLE.get(f.name, f.name) for f in Ride._meta.fields] + ["receipt"]
    exclude = tuple(_SHOWN_READABLE)

    def has_add_permission(self, request):
        return False  # a ride is requested by a passenger, a booking or the phone line; every field is read-only here

    def has_delete_permission(self, request, obj=None):
        return False  # erasure and retention have their services (LGPD), the statements count the rides

    @admin.display(description=_("distância"))
    def distance_km(self, obj):
        return f"{br_number(obj.distance_m / 1000, 2)} km" if obj.distance_m is not None else "—"

    @admin.display(description=_("trajeto (GPS)"))
    def trace_summary(self, obj):
        s = trace_summary([f for f in obj.trace or [] if isinstance(f, dict) and "t" in f], obj.distance_m)
        return _("%(fixes)s posições de GPS, %(minutes)s min, %(km)s km") % {
            "fixes": s.fixes, "minutes": int(s.duration_s // 60), "km": br_number(s.km, 2)}

    @admin.display(description=_("tarifa (Art. 43)"), ordering="fare")
    def fare_brl(self, obj):
        return brl(obj.fare) or "—"

    @admin.display(description=_("recálculo do servidor"))
    def server_total_brl(self, obj):
        return brl(obj.server_total) or "—"

    @admin.display(description=_("recibo"))
    def receipt(self, obj):
        if obj.status != "completed":
            return "—"
        return format_html('<a href="{}" target="_blank" rel="noopener">{}</a>', links(obj)["screen"], _("abrir o recibo"))

    @admin.action(description=_("Liberar a tarifa retida para o extrato (Art. 43)"))
    def release_fares(self, request, queryset):
        held = list(queryset.filter(fare_held=True, status="completed").values_list("pk", flat=True))
        for pk in held:
            services.release_fare(pk, by=request.user)
        self.message_user(request, ngettext("%(n)d tarifa liberada.", "%(n)d tarifas liberadas.", len(held)) % {"n": len(held)},
                          messages.SUCCESS)


@admin.register(Passenger)
class PassengerAdmin(admin.ModelAdmin):
    plain_data = "a passenger's name and phone; no rule of the law reads them"
    list_display = ("name", "phone", "created_at", "anonymised_at")
    search_fields = ("name", "phone")
    exclude = ("token",)


@admin.register(DriverCancellation)
class DriverCancellationAdmin(ReadOnlyRecordMixin, admin.ModelAdmin):
    """Who gave up which ride and why (Art. 9, VII): DIMUTRAN judges; the platform penalises no one."""

    list_display = ("at", "driver", "permit", "reason", "ride", "ride_status", "waited_s", "reoffered")
    list_filter = ("reason", "reoffered")
    search_fields = ("driver__full_name", "permit__number")
    date_hierarchy = "at"
    readonly_fields = [f.name for f in DriverCancellation._meta.fields]
