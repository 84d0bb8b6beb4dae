from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class ParametersConfig(AppConfig):
    name = "backend.parameters"
    label = "parameters"
    verbose_name = _("Parâmetros municipais")

    def ready(self):
        post_migrate.connect(seed_defaults, sender=self)


def seed_defaults(sender, using="default", **kwargs):
    """Insert the law core's default dated values that the table lacks.

    Never overwrites a row DIMUTRAN edited: only missing (name, date) pairs
    are added, so new parameters reach existing databases on migrate.
    """
    from taxilaw.parameters import DEFAULT_PARAMETERS

    from .models import DatedParameter

    existing = set(DatedParameter.objects.using(using).values_list("name", "effective_from"))
    DatedParameter.objects.using(using).bulk_create(
        DatedParameter(name=d.name, effective_from=d.effective_from, value=d.value, source=d.source)
        for d in DEFAULT_PARAMETERS
        if (d.name, d.effective_from) not in existing
    )
