from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class TariffsConfig(AppConfig):
    name = "backend.tariffs"
    label = "tariffs"
    verbose_name = _("Tarifas (Art. 42-47)")

    def ready(self):
        post_migrate.connect(seed_defaults, sender=self)


def seed_defaults(sender, using="default", **kwargs):
    """Seed the demo tariff and Muriaé's yearly municipal holidays, idempotently.

    Only missing rows are added: a tariff already registered for the demo
    date, or a holiday DIMUTRAN already has on that date, is never touched.
    """

    from backend.parameters.models import MunicipalHoliday
    from taxilaw.flags import MURIAE_MUNICIPAL_HOLIDAYS_SEED
    from taxilaw.tariffs import MURIAE_DEMO_TARIFF

    from .models import TariffDecree

    demo = MURIAE_DEMO_TARIFF
    if not TariffDecree.objects.using(using).filter(effective_from=demo.effective_from).exists():
        TariffDecree.objects.using(using).create(
            effective_from=demo.effective_from, bandeirada=demo.bandeirada, price_km_b1=demo.price_km_b1,
            price_km_b2=demo.price_km_b2, price_hour_waiting=demo.price_hour_waiting, decree=demo.decree,
        )

    from datetime import date

    # The yearly holidays of the seed, once, recurring from 1987 (the law's year): never a fixed horizon.
    existing = {(d.month, d.day) for d in MunicipalHoliday.objects.using(using).filter(every_year=True).values_list("date", flat=True)}
    MunicipalHoliday.objects.using(using).bulk_create(
        MunicipalHoliday(date=date(1987, month, dd), name=name, source=source, every_year=True)
        for (month, dd, name, source) in MURIAE_MUNICIPAL_HOLIDAYS_SEED
        if (month, dd) not in existing and not MunicipalHoliday.objects.using(using).filter(date=date(1987, month, dd)).exists()
    )
