from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RegistryConfig(AppConfig):
    name = "backend.registry"
    label = "registry"
    verbose_name = _("Cadastro de permissões, motoristas e veículos")
