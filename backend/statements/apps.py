from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StatementsConfig(AppConfig):
    name = "backend.statements"
    label = "statements"
    verbose_name = _("Extratos semanais (Art. 1, §2-§6)")
