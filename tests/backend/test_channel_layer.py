"""The channel layer at scale: throttled expiry, memberships renewed before the layer drops them (Art. 66)."""

import asyncio

import pytest

from dispatch import consumers
from dispatch.layers import ThrottledInMemoryChannelLayer


def test_expired_messages_are_looked_for_at_most_every_few_seconds(monkeypatch):
    layer = ThrottledInMemoryChannelLayer()
    scans = []
    monkeypatch.setattr("channels.layers.InMemoryChannelLayer._clean_expired", lambda self: scans.append(1))

    async def many_sends():
        await layer.group_add("g", "x.inmemory!a")
        for _ in range(200):
            await layer.group_send("g", {"type": "relay", "message": {}})
            layer.channels.clear()

    asyncio.run(many_sends())
    assert len(scans) == 1


@pytest.mark.article("Art. 66")
def test_a_connection_keeps_hearing_its_groups_past_the_layers_group_expiry(monkeypatch):
    monkeypatch.setattr(consumers, "GROUP_REFRESH_SECONDS", 0.3)
    monkeypatch.setattr(ThrottledInMemoryChannelLayer, "CLEAN_EVERY_SECONDS", 0.0)

    async def scenario(refresh: bool):
        layer = ThrottledInMemoryChannelLayer(group_expiry=1)
        consumer = consumers._Base()
        consumer.channel_layer, consumer.channel_name, consumer.groups = layer, await layer.new_channel(), []
        await consumer.join("cab.7")
        if not refresh:
            consumer._refresher.cancel()
        await asyncio.sleep(2.2)  # memberships are stamped in whole seconds
        await layer.group_send("cab.7", {"type": "relay", "message": {"type": "offer"}})
        try:
            return await asyncio.wait_for(layer.receive(consumer.channel_name), 0.5)
        except asyncio.TimeoutError:
            return None
        finally:
            await consumer.disconnect(1000)

    assert asyncio.run(scenario(refresh=False)) is None  # what happens without the renewal
    assert asyncio.run(scenario(refresh=True))["message"] == {"type": "offer"}
