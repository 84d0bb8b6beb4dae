from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DispatchConfig(AppConfig):
    name = "dispatch"
    label = "dispatch"
    verbose_name = _("Rádio-táxi (Art. 66)")

    def ready(self):
        from . import credentials

        credentials.connect()
