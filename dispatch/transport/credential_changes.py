"""Open sockets hear that their credential may have ended, and check it again (``consumers.*.relay``).

A driver's key is deleted by a logout, a new login or a password change (``backend.accounts.tokens``); a passenger's
token is replaced when their data is erased (``backend.privacy.retention``). Backend apps never import dispatch, so
dispatch listens to the models' signals: on commit, ``wire.CREDENTIAL_CHANGED`` goes to the groups the person's
sockets already belong to (the cab's group of each cab the driver is connected to; the passenger's group), and
each socket there asks the database whether its own credential still opens it (one read; a logout is rare). Expiry
needs no message: each driver socket closes itself when its key expires (``base_consumer.BaseConsumer.end_session_at``).
"""

from __future__ import annotations

from django.db.models.signals import post_delete, post_save
from rest_framework.authtoken.models import Token

from backend.trips.models import Passenger
from dispatch import wire
from dispatch.events import announcements
from dispatch.models import CabConnection


def _token_deleted(sender, instance: Token, **kwargs) -> None:
    permits = set(CabConnection.objects.filter(driver__user_id=instance.user_id).values_list("cab__permit_id", flat=True))
    for permit_id in permits:
        announcements.announce(announcements.cab_group(permit_id), wire.CREDENTIAL_CHANGED())


def _passenger_saved(sender, instance: Passenger, created: bool, update_fields=None, **kwargs) -> None:
    if not created and (update_fields is None or "token" in update_fields):
        announcements.announce(announcements.passenger_group(instance.pk), wire.CREDENTIAL_CHANGED())


def connect() -> None:
    post_delete.connect(_token_deleted, sender=Token, dispatch_uid="dispatch.transport.credential_changes.token")
    post_save.connect(_passenger_saved, sender=Passenger, dispatch_uid="dispatch.transport.credential_changes.passenger")
