"""The registry does not know about ranks: when a contest permit's term is signed (Art. 3), the
designation at the rank it won (Art. 19, Art. 22, I) is made here, in the same transaction."""

from django.db.models.signals import post_save
from django.dispatch import receiver

from backend.registry.models import Permit


@receiver(post_save, sender=Permit, dispatch_uid="ranks_designate_on_term")
def designate_on_term(sender, instance: Permit, created: bool, update_fields=None, **kwargs):
    """Art. 3, Art. 22, I: the contest winner's permit joins its rank from the term's signature."""
    if created or instance.term_signed_on is None or instance.status != Permit.Status.ACTIVE:
        return
    if update_fields is not None and "term_signed_on" not in update_fields:
        return
    from . import services

    services.designate_on_term(instance)
