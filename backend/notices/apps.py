from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NoticesConfig(AppConfig):
    name = "backend.notices"
    label = "notices"
    verbose_name = _("Avisos e notificações")
