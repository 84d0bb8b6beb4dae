"""django-axes under a Portuguese name in the admin (its own ``AppConfig`` says "Axes"); everything else is axes'.

Its models' and admin's texts are translated in backend/locale/pt_BR (axes ships no pt_BR catalogue)."""

from axes.apps import AppConfig as AxesAppConfig
from django.utils.translation import gettext_lazy as _


class AxesPtBrConfig(AxesAppConfig):
    verbose_name = _("Tentativas de login (django-axes)")
