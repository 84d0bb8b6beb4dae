from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RegistryConfig(AppConfig):
    name = "backend.registry"
    label = "registry"
    verbose_name = _("Cadastro de permissões, motoristas e veículos")

    def ready(self):
        from backend.tariffs.api import cab

        from .api.cab_taximeter import cab_taximeter_answer

        cab.answered_by(cab_taximeter_answer)  # the driver's cab in /api/tariffs/current/
