from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DispatchConfig(AppConfig):
    name = "dispatch"
    label = "dispatch"
    verbose_name = _("Rádio-táxi (Art. 66)")

    def ready(self):
        from backend.ranks.services import ranks
        from backend.trips.retention import passenger_erased

        from .cabs import seen
        from .events import announce_passenger_erased

        ranks.read_cabs_with(seen)  # a rank check-in by any door is judged where dispatch last saw the cab
        passenger_erased.connect(announce_passenger_erased, dispatch_uid="dispatch.passenger_erased")
        from . import credentials

        credentials.connect()
