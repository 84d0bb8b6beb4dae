"""A password change revokes the user's API token (sessions already die by Django's session hash)."""

from django.contrib.auth import get_user_model
from django.db.models.signals import pre_save
from django.dispatch import receiver

from .tokens import revoke


@receiver(pre_save, sender=get_user_model())
def revoke_token_on_password_change(sender, instance, raw=False, update_fields=None, **kwargs):
    if raw or instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    old = sender.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if old is not None and old != instance.password:
        revoke(instance)
