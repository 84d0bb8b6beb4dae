"""The channel layer at scale: throttled expiry, memberships renewed before the layer drops them (Art. 66)."""

import asyncio
import time

import pytest

from dispatch.transport import base_consumer
from dispatch.transport.channel_layers import ThrottledInMemoryChannelLayer


def test_expired_messages_are_looked_for_at_most_every_few_seconds(monkeypatch):
    layer = ThrottledInMemoryChannelLayer()
    slices = []
    monkeypatch.setattr(layer, "_clean_slice", slices.append)

    async def many_sends():
        await layer.group_add("g", "x.inmemory!a")
        for _ in range(200):
            await layer.group_send("g", {"type": "relay", "message": {}})
            layer.channels.clear()

    asyncio.run(many_sends())
    assert len(slices) == 1


def test_the_walk_goes_in_slices_and_still_drops_every_expired_message_and_membership(monkeypatch):
    """One walk over 3,000 connections' entries in slices of a few hundred: what expired goes, nothing else."""
    clock = [1000.0]
    monkeypatch.setattr("dispatch.transport.channel_layers.time.monotonic", lambda: clock[0])
    layer = ThrottledInMemoryChannelLayer(group_expiry=60, expiry=30)
    now = int(time.time())
    for k in range(3000):
        channel = f"x.inmemory!c{k}"
        layer.groups.setdefault("cabs", {})[channel] = now - (120 if k % 3 == 0 else 1)  # a third joined too long ago
        layer.groups[f"cab.{k}"] = {channel: now}
    for k in range(0, 3000, 500):  # a few channels hold a message that expired: their memberships end
        queue = layer.channels.setdefault(f"x.inmemory!c{k + 1}", asyncio.Queue())
        queue.put_nowait((time.time() - 1, {"type": "relay"}))
    sizes = []
    real_slice = layer._clean_slice
    monkeypatch.setattr(layer, "_clean_slice", lambda budget: (sizes.append(budget), real_slice(budget)))
    while not sizes or layer._channels_todo or layer._groups_todo or layer._members_todo:
        layer._clean_expired()
        clock[0] += layer.SLICE_SECONDS
    assert len(sizes) > 10 and max(sizes) < 500  # no slice walks everything
    expired_channels = {f"x.inmemory!c{k + 1}" for k in range(0, 3000, 500)}
    assert not layer.channels
    assert set(layer.groups["cabs"]) == {f"x.inmemory!c{k}" for k in range(3000) if k % 3} - expired_channels
    assert all(channel not in layer.groups.get(f"cab.{k}", {}) for k, channel in
               ((int(c.rsplit("c", 1)[1]), c) for c in expired_channels))
    assert sum(1 for k in range(3000) if f"x.inmemory!c{k}" in layer.groups.get(f"cab.{k}", {})) == 3000 - len(expired_channels)


@pytest.mark.article("Art. 66")
def test_a_connection_keeps_hearing_its_groups_past_the_layers_group_expiry(monkeypatch):
    monkeypatch.setattr(base_consumer, "GROUP_REFRESH_SECONDS", 0.3)
    monkeypatch.setattr(ThrottledInMemoryChannelLayer, "CLEAN_EVERY_SECONDS", 0.0)

    async def scenario(refresh: bool):
        layer = ThrottledInMemoryChannelLayer(group_expiry=1)
        consumer = base_consumer.BaseConsumer()
        consumer.channel_layer, consumer.channel_name, consumer.groups = layer, await layer.new_channel(), []
        await consumer.join("cab.7")
        if not refresh:
            consumer._refresher.cancel()
        await asyncio.sleep(2.2)  # a duration, not a wait: memberships are stamped in whole seconds
        await layer.group_send("cab.7", {"type": "relay", "message": {"type": "offer"}})
        try:
            return await asyncio.wait_for(layer.receive(consumer.channel_name), 0.5)
        except asyncio.TimeoutError:
            return None
        finally:
            await consumer.disconnect(1000)

    assert asyncio.run(scenario(refresh=False)) is None  # what happens without the renewal
    assert asyncio.run(scenario(refresh=True))["message"] == {"type": "offer"}
