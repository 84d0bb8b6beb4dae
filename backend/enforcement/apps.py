from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class EnforcementConfig(AppConfig):
    name = "backend.enforcement"
    label = "enforcement"
    verbose_name = _("Fiscalização e penalidades (Art. 54-64)")

    def ready(self):
        from backend.registry import fine_debts

        from .selectors import unpaid_fines

        post_migrate.connect(seed_catalogue, sender=self)
        fine_debts.answered_by(lambda person: unpaid_fines(person).exists())  # the renewal's Art. 5, V


def seed_catalogue(sender, using="default", **kwargs):
    """Seed the infraction catalogue with the obligations the law states (Art. 64), idempotently.

    Only missing (code, effective_from) pairs are added: a record DIMUTRAN
    edited is never overwritten.
    """
    from taxilaw.penalties import INFRACTION_CATALOGUE_SEED

    from .models import CATALOGUE_SEED_DATE, InfractionType

    existing = set(InfractionType.objects.using(using).values_list("code", "effective_from"))
    InfractionType.objects.using(using).bulk_create(
        InfractionType(
            code=spec.code,
            description=spec.description,
            article=spec.article,
            group=spec.group.value if spec.group else "",
            fine_ufm=spec.fine_ufm,
            default_penalty=spec.default_penalty.value,
            revocation_if_recidivist=spec.revocation_if_recidivist,
            effective_from=CATALOGUE_SEED_DATE,
            source="Lei 1.242/1987 (catálogo inicial; grupos: leitura em docs/readings-enforcement.md)",
        )
        for spec in INFRACTION_CATALOGUE_SEED
        if (spec.code, CATALOGUE_SEED_DATE) not in existing
    )
