from django.contrib import admin

from .models import PixKey, RidePayment


@admin.register(PixKey)
class PixKeyAdmin(admin.ModelAdmin):
    plain_data = "where a person receives payouts (docs/payments.md); no rule of the law reads it"
    list_display = ("person", "kind", "key", "updated_at")
    list_filter = ("kind",)
    search_fields = ("person__full_name", "key")


@admin.register(RidePayment)
class RidePaymentAdmin(admin.ModelAdmin):
    """Read-only: a payment is recorded once by the driver (docs/payments.md)."""

    list_display = ("ride", "method", "collector", "receiver", "amount", "recorded_at")
    list_filter = ("method", "collector")
    search_fields = ("receiver__full_name",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
