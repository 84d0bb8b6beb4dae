from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SchedulerConfig(AppConfig):
    name = "backend.scheduler"
    label = "scheduler"
    verbose_name = _("Agendador de prazos")
