from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RanksConfig(AppConfig):
    name = "backend.ranks"
    label = "ranks"
    verbose_name = _("Zonas, pontos e concursos")

    def ready(self):
        # The one link from the registry to ranks: the designation at the rank won in the
        # contest starts at the term's signature (Art. 3, Art. 19, Art. 22, I); see signals.py for why a signal.
        from . import signals

        signals.connect()
