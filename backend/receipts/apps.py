from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReceiptsConfig(AppConfig):
    name = "backend.receipts"
    label = "receipts"
    verbose_name = _("Recibos e histórico de corridas")
