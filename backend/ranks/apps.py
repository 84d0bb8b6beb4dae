from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RanksConfig(AppConfig):
    name = "backend.ranks"
    label = "ranks"
    verbose_name = _("Zonas, pontos e concursos")

    def ready(self):
        from . import signals  # noqa: F401
