from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TripsConfig(AppConfig):
    name = "backend.trips"
    label = "trips"
    verbose_name = _("Corridas e passageiros (Art. 43, Art. 66)")
