"""Announcements over the channel layer, always after the database commit.

The channel layer delivers at most once; clients re-sync from a snapshot
when they (re)connect and when a ``version`` jumps, so a lost event loses
nothing that matters.
"""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

OPERATORS = "operators"


def cab_group(permit_id: int) -> str:
    return f"cab.{permit_id}"


def ride_group(ride_id: int) -> str:
    return f"ride.{ride_id}"


def announce(group: str, message: dict) -> None:
    """Send ``message`` to ``group`` once the current transaction commits (at once outside one)."""
    layer = get_channel_layer()

    def send():
        async_to_sync(layer.group_send)(group, {"type": "relay", "message": message})

    transaction.on_commit(send)


def announce_compliance_change(permit_id: int) -> None:
    """Tell the cab's open connection to re-check whether it may work (suspension, revocation)."""
    announce(cab_group(permit_id), {"type": "compliance_changed", "permit_id": permit_id})
