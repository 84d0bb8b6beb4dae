from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BookingsConfig(AppConfig):
    name = "backend.bookings"
    label = "bookings"
    verbose_name = _("Agendamentos de corridas")
