from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DispatchConfig(AppConfig):
    name = "dispatch"
    label = "dispatch"
    verbose_name = _("Rádio-táxi (Art. 66)")

    def ready(self):
        from backend.trips.retention import passenger_erased

        from .events import announce_passenger_erased

        passenger_erased.connect(announce_passenger_erased, dispatch_uid="dispatch.passenger_erased")
