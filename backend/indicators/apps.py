from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class IndicatorsConfig(AppConfig):
    name = "backend.indicators"
    verbose_name = _("Indicadores")
